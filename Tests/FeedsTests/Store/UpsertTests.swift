import Feeds
import Foundation
import SeededRandom
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

    /// Batches over a few identifiers, some of them hard to spell in JSON or SQL (the stored
    /// entries of a batch are found with the identifiers as a JSON array), several times in
    /// one batch: the states and the stored entries are a model's, which takes a batch's
    /// entries one after another. Text is stored up to a NUL, as GRDB binds it (the entry
    /// `nul\0x` is stored as `nul`, and is the entry `nul`, found again as such). Identifiers are told apart by their
    /// bytes, as SQLite does (`é` and `e\u{301}` are two entries), where Swift's `==` would take
    /// them as one.
    @Test func batchesMatchAModelWhateverTheirIdentifiers() async throws {
        let seed = randomizedTestSeed()
        print("Upsert batches: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let identifiers = ["a", "b\"q", "c\\d", "\\u0041", "é", "e\u{301}", "👩‍👩‍👧", "tab\tx", "nul\0x", "nul", "line\nx", "\u{1}",
                           "[\"x\"]", "", " space ", "'; DROP TABLE entry; --", String(repeating: "long", count: 200)]
        let (store, feed) = try await storeWithFeed()
        var model: [[UInt8]: FeedEntry] = [:]
        for round in 0..<40 {
            var batch: [FeedEntry] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let id = identifiers.randomElement(using: &random)!
                batch.append(FeedEntry(id: id, title: ["One", "Two"].randomElement(using: &random)!,
                                       published: [nil, day(1)].randomElement(using: &random)!,
                                       summary: [nil, "s", ""].randomElement(using: &random)!,
                                       isTruncated: Bool.random(using: &random)))
            }
            var expected: [EntryChange.State] = []
            for var entry in batch {
                entry.id = String(entry.id.prefix { $0 != "\0" })
                let key = Array(entry.id.utf8)
                expected.append(model[key] == nil ? .new : model[key] == entry ? .unchanged : .modified)
                model[key] = entry
            }
            let states = try await store.upsert(entries: batch, feed: feed.id, now: storeEpoch).map(\.state)
            #expect(states == expected, "seed \(seed), round \(round): \(batch.map(\.id))")
            let stored = try await store.entries(EntryQuery()).map(\.entry)
            #expect(stored.count == model.count, "seed \(seed), round \(round)")
            let differing = stored.filter { model[Array($0.id.utf8)] != $0 }.map(\.id)
            #expect(differing.isEmpty, "seed \(seed), round \(round): \(differing)")
        }
    }

    /// `nul\0x` is stored as `nul` (text is bound up to a NUL): after it in a batch, `nul` is
    /// compared with what the batch wrote, not with the entry as it was before the batch.
    @Test func anIdentifierCutAtANULIsTheEntryItIsStoredAs() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [storeEntry("nul", title: "One")], feed: feed.id, now: storeEpoch)
        let batch = [storeEntry("nul\0x", title: "Two"), storeEntry("nul", title: "One")]
        #expect(try await store.upsert(entries: batch, feed: feed.id, now: storeEpoch).map(\.state) == [.modified, .modified])
        #expect(try await store.entries(EntryQuery()).map(\.entry.title) == ["One"])
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
