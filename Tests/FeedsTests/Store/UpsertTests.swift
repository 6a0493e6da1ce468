import Feeds
import Foundation
import Testing

@Suite struct UpsertTests {
    @Test func reportsNewThenUnchangedThenModified() throws {
        let (store, feed) = try storeWithFeed()
        let first = [storeEntry("a", published: day(0)), storeEntry("b", published: day(1))]
        #expect(try store.upsert(entries: first, feed: feed.id, now: storeEpoch).map(\.state) == [.new, .new])
        #expect(try store.upsert(entries: first, feed: feed.id, now: storeEpoch).map(\.state) == [.unchanged, .unchanged])

        var edited = first
        edited[1].summary = "Corrected"
        let changes = try store.upsert(entries: edited + [storeEntry("c")], feed: feed.id, now: storeEpoch)
        #expect(changes == [
            EntryChange(entryID: "a", state: .unchanged),
            EntryChange(entryID: "b", state: .modified),
            EntryChange(entryID: "c", state: .new),
        ])
        #expect(try store.entries(EntryQuery()).first { $0.entry.id == "b" }?.entry.summary == "Corrected")
    }

    @Test func everyFeedFieldCountsAsAModification() throws {
        let (store, feed) = try storeWithFeed()
        let base = FeedEntry(id: "x", title: "T")
        _ = try store.upsert(entries: [base], feed: feed.id, now: storeEpoch)
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
            #expect(try store.upsert(entries: [current], feed: feed.id, now: storeEpoch).map(\.state) == [.modified])
            #expect(try store.upsert(entries: [current], feed: feed.id, now: storeEpoch).map(\.state) == [.unchanged])
        }
        #expect(try store.entries(EntryQuery()).map(\.entry) == [current])
    }

    @Test func readStarredAndFirstSeenSurviveAModifiedUpsert() throws {
        let (store, feed) = try storeWithFeed()
        _ = try store.upsert(entries: [storeEntry("a", summary: "v1")], feed: feed.id, now: day(0))
        let stored = try #require(try store.entries(EntryQuery()).first)
        try store.setRead(true, entries: [stored.id])
        try store.setStarred(true, entries: [stored.id])

        let changes = try store.upsert(entries: [storeEntry("a", summary: "v2")], feed: feed.id, now: day(5))
        #expect(changes.map(\.state) == [.modified])
        let after = try #require(try store.entries(EntryQuery()).first)
        #expect(after.id == stored.id)
        #expect(after.isRead && after.isStarred)
        #expect(after.firstSeen == day(0))
        #expect(after.entry.summary == "v2")
    }

    @Test func aDuplicateInOneBatchIsComparedWithTheFirst() throws {
        let (store, feed) = try storeWithFeed()
        let batch = [storeEntry("a"), storeEntry("a"), storeEntry("a", title: "Other")]
        #expect(try store.upsert(entries: batch, feed: feed.id, now: storeEpoch).map(\.state) == [.new, .unchanged, .modified])
    }

    @Test func anUnknownFeedIsATypedErrorAndWritesNothing() throws {
        let (store, feed) = try storeWithFeed()
        #expect(throws: FeedStoreError.unknownFeed(feed.id + 1)) {
            try store.upsert(entries: [storeEntry("a")], feed: feed.id + 1, now: storeEpoch)
        }
        #expect(try store.entries(EntryQuery()).isEmpty)
    }

    @Test func sameEntryIDInTwoFeedsIsTwoEntries() throws {
        let (store, one) = try storeWithFeed()
        let two = try store.addFeed(url: URL(string: "https://example.org/feed")!, title: nil, category: nil)
        #expect(try store.upsert(entries: [storeEntry("a")], feed: one.id, now: storeEpoch).map(\.state) == [.new])
        #expect(try store.upsert(entries: [storeEntry("a")], feed: two.id, now: storeEpoch).map(\.state) == [.new])
        #expect(try store.entries(EntryQuery()).count == 2)
    }
}
