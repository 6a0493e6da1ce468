import Feeds
import Foundation
import Testing

@Suite struct UpsertTests {
    @Test func reportsNewThenUnchangedThenModified() async throws {
        let (store, feed) = try await storeWithFeed()
        let first = [storeEntry("a", published: day(0)), storeEntry("b", published: day(1))]
        #expect(try await store.upsert(entries: first, feed: feed.id, now: storeEpoch).map(\.state) == [.new, .new])
        #expect(try await store.upsert(entries: first, feed: feed.id, now: storeEpoch).map(\.state) == [.unchanged, .unchanged])

        var edited = first
        edited[1].summary = "Corrected"
        let changes = try await store.upsert(entries: edited + [storeEntry("c")], feed: feed.id, now: storeEpoch)
        #expect(changes == [
            EntryChange(entryID: "a", state: .unchanged),
            EntryChange(entryID: "b", state: .modified),
            EntryChange(entryID: "c", state: .new),
        ])
        #expect(try await store.entries(EntryQuery()).first { $0.entry.id == "b" }?.entry.summary == "Corrected")
    }

    @Test func everyFeedFieldCountsAsAModification() async throws {
        let (store, feed) = try await storeWithFeed()
        let base = FeedEntry(id: "x", title: "T")
        _ = try await store.upsert(entries: [base], feed: feed.id, now: storeEpoch)
        let edits: [(inout FeedEntry) -> Void] = [
            { $0.title = "T2" }, { $0.link = URL(string: "https://example.com/x") }, { $0.author = "A" },
            { $0.categories = ["c"] }, { $0.published = day(1) }, { $0.updated = day(2) }, { $0.summary = "s" },
            { $0.content = "<p>c</p>" }, { $0.thumbnail = URL(string: "https://example.com/t.png") },
            { $0.enclosures = [FeedEnclosure(url: URL(string: "https://example.com/a.mp3")!, type: "audio/mpeg")] },
            { $0.isTruncated = true },
        ]
        var current = base
        for edit in edits {
            edit(&current)
            #expect(try await store.upsert(entries: [current], feed: feed.id, now: storeEpoch).map(\.state) == [.modified])
            #expect(try await store.upsert(entries: [current], feed: feed.id, now: storeEpoch).map(\.state) == [.unchanged])
        }
        #expect(try await store.entries(EntryQuery()).map(\.entry) == [current])
    }

    @Test func readStarredAndFirstSeenSurviveAModifiedUpsert() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [storeEntry("a", summary: "v1")], feed: feed.id, now: day(0))
        let stored = try #require(try await store.entries(EntryQuery()).first)
        try await store.setRead(true, entries: [stored.id])
        try await store.setStarred(true, entries: [stored.id])

        let changes = try await store.upsert(entries: [storeEntry("a", summary: "v2")], feed: feed.id, now: day(5))
        #expect(changes.map(\.state) == [.modified])
        let after = try #require(try await store.entries(EntryQuery()).first)
        #expect(after.id == stored.id)
        #expect(after.isRead && after.isStarred)
        #expect(after.firstSeen == day(0))
        #expect(after.entry.summary == "v2")
    }

    @Test func aDuplicateInOneBatchIsComparedWithTheFirst() async throws {
        let (store, feed) = try await storeWithFeed()
        let batch = [storeEntry("a"), storeEntry("a"), storeEntry("a", title: "Other")]
        #expect(try await store.upsert(entries: batch, feed: feed.id, now: storeEpoch).map(\.state) == [.new, .unchanged, .modified])
    }

    @Test func anUnknownFeedIsATypedErrorAndWritesNothing() async throws {
        let (store, feed) = try await storeWithFeed()
        await #expect(throws: FeedStoreError.unknownFeed(feed.id + 1)) {
            try await store.upsert(entries: [storeEntry("a")], feed: feed.id + 1, now: storeEpoch)
        }
        #expect(try await store.entries(EntryQuery()).isEmpty)
    }

    @Test func sameEntryIDInTwoFeedsIsTwoEntries() async throws {
        let (store, one) = try await storeWithFeed()
        let two = try await store.addFeed(url: URL(string: "https://example.org/feed")!, title: nil, category: nil)
        #expect(try await store.upsert(entries: [storeEntry("a")], feed: one.id, now: storeEpoch).map(\.state) == [.new])
        #expect(try await store.upsert(entries: [storeEntry("a")], feed: two.id, now: storeEpoch).map(\.state) == [.new])
        #expect(try await store.entries(EntryQuery()).count == 2)
    }
}
