@testable import Feeds
import Foundation
import GRDB
import SeededRandom
import Testing

/// The store's side of sync: feeds a server follows, entries and states it sends, the queue of
/// local changes and the conflict rule (a queued change protects its state).
@Suite struct SyncStoreTests {
    static let news = SyncedFeed(remoteID: "feed/1", url: URL(string: "https://news.example/feed")!, title: "News", category: "Daily")
    static let blog = SyncedFeed(remoteID: "feed/2", url: URL(string: "https://blog.example/feed")!, title: "Blog")

    /// A store following `news` and `blog` on a server, with entries n1…n3 in news (n1 read,
    /// n2 starred) and a local feed with entry l1.
    static func syncedStore() async throws -> (FeedStore, StoredFeed) {
        let store = try FeedStore()
        let local = try await store.addFeed(url: URL(string: "https://local.example/feed")!, title: nil, category: nil)
        _ = try await store.upsert(entries: [storeEntry("l1")], feed: local.id, now: storeEpoch)
        _ = try await store.replaceSyncedFeeds([news, blog])
        let states = [
            SyncedEntryState(entry: storeEntry("n1"), isRead: true, isStarred: false),
            SyncedEntryState(entry: storeEntry("n2"), isRead: false, isStarred: true),
            SyncedEntryState(entry: storeEntry("n3"), isRead: false, isStarred: false),
        ]
        _ = try await store.upsertSynced(states, remoteFeedID: "feed/1", now: storeEpoch)
        return (store, local)
    }

    static func states(_ store: FeedStore) async throws -> [String: (read: Bool, starred: Bool)] {
        let entries = try await store.entries(EntryQuery(limit: 100))
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.entry.id, ($0.isRead, $0.isStarred)) })
    }

    static func id(_ store: FeedStore, _ entryID: String) async throws -> StoredEntry.ID {
        try #require(try await store.entries(EntryQuery(limit: 100)).first { $0.entry.id == entryID }).id
    }

    @Test func aStoreHoldsSyncedEntriesOnceASyncedFeedHasOne() async throws {
        let store = try FeedStore()
        let local = try await store.addFeed(url: URL(string: "https://local.example/feed")!, title: nil, category: nil)
        _ = try await store.upsert(entries: [storeEntry("l1")], feed: local.id, now: storeEpoch)
        _ = try await store.replaceSyncedFeeds([Self.news, Self.blog])
        // A local feed's entries and synced feeds without any are not the account's items.
        #expect(try await store.holdsSyncedEntries() == false)
        _ = try await store.upsertSynced([SyncedEntryState(entry: storeEntry("b1"), isRead: true, isStarred: false)],
                                         remoteFeedID: "feed/2", now: storeEpoch)
        #expect(try await store.holdsSyncedEntries() == true)
    }

    /// A sync compares a server's states with the stored ones for every synced post: in an
    /// index, never in the rows, whose states sit after their content (a row of a long article
    /// made SQLite walk its overflow pages to reach them).
    @Test func theStatesASyncComparesAreReadFromAnIndexNotFromTheRows() async throws {
        let store = try FeedStore()
        let plan = { (sql: String) in
            try await store.write { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(Array(repeating: 0, count: sql.filter { $0 == "?" }.count))!)
                    .map { $0["detail"] as String }
                    .filter { $0.contains(" entry ") || $0.hasSuffix(" entry") }
            }
        }
        for column in ["read", "starred"] {
            // A server's set is compared with every synced entry's state, in the index.
            #expect(try await plan(FeedStore.syncedStatesSQL(column)) == ["SCAN entry USING COVERING INDEX entry_sync_state"])
            // Only the entries that change are written, each found by its id.
            #expect(try await plan(FeedStore.settingStatesSQL(column)).allSatisfy { $0.hasPrefix("SEARCH entry USING INTEGER PRIMARY KEY") })
            // A post's state from a page, updated by its server id in the index.
            let updated = try await plan(FeedStore.syncedStateSQL(column))
            #expect(updated.count == 2, "\(updated)")
            #expect(updated.contains { $0.hasPrefix("SEARCH entry USING INTEGER PRIMARY KEY") }, "\(updated)")
            #expect(updated.contains { $0.contains("USING COVERING INDEX entry_sync_state") }, "\(updated)")
        }
    }

    @Test func theServersFeedsAreAddedUpdatedAndRemoved() async throws {
        let (store, _) = try await Self.syncedStore()
        var renamed = Self.news
        renamed.title = "World News"
        renamed.category = "World"

        let (added, removed) = try await store.replaceSyncedFeeds([renamed])

        #expect(added == 0)
        #expect(removed == 1)
        let feeds = try await store.feeds()
        #expect(feeds.map(\.url.host) == ["local.example", "news.example"])
        #expect(feeds.last?.title == "World News")
        #expect(feeds.last?.category == "World")
        #expect(feeds.last?.remoteID == "feed/1")
        #expect(feeds.first?.remoteID == nil)
        #expect(try await Self.states(store).keys.sorted() == ["l1", "n1", "n2", "n3"])
    }

    @Test func aFeedSubscribedHereIsTakenOverWithTheServersEntries() async throws {
        let (store, local) = try await Self.syncedStore()

        _ = try await store.replaceSyncedFeeds([Self.news, SyncedFeed(remoteID: "feed/9", url: local.url)])

        #expect(try await store.feed(id: local.id)?.remoteID == "feed/9")
        #expect(try await Self.states(store)["l1"] == nil)
    }

    @Test func pagesOfEntriesCountWhatIsNewAndWhatChangedState() async throws {
        let (store, _) = try await Self.syncedStore()
        let page = [
            SyncedEntryState(entry: storeEntry("n1"), isRead: false, isStarred: true),
            SyncedEntryState(entry: storeEntry("n3"), isRead: true, isStarred: false),
            SyncedEntryState(entry: storeEntry("n4"), isRead: true, isStarred: false),
        ]

        let counts = try await store.upsertSynced(page, remoteFeedID: "feed/1", now: storeEpoch)

        #expect(counts.new == 1)
        #expect(counts.markedUnread == 1)
        #expect(counts.markedRead == 1)
        #expect(counts.starred == 1)
        let states = try await Self.states(store)
        #expect(states["n1"]! == (false, true))
        #expect(states["n4"]! == (true, false))
    }

    /// Pages taken as mostly new (a first sync) skip the lookup of stored entries; an entry
    /// stored already, by this page or an earlier one, is still found and compared.
    @Test func pagesTakenAsMostlyNewStillCompareWhatIsStored() async throws {
        let (store, _) = try await Self.syncedStore()
        func page(_ states: [SyncedEntryState]) -> [(remoteFeedID: String, batch: SyncedEntryBatch)] {
            [("feed/1", SyncedEntryBatch(states))]
        }
        let first = try await store.upsertSynced(page([
            SyncedEntryState(entry: storeEntry("n4"), isRead: false, isStarred: false),
            SyncedEntryState(entry: storeEntry("n5"), isRead: false, isStarred: false),
        ]), now: storeEpoch, mostlyNew: true)
        #expect(first.new == 2)
        // A later page repeats n4 edited, n3 (stored before) with a new state, and n6 twice.
        let second = try await store.upsertSynced(page([
            SyncedEntryState(entry: storeEntry("n4", title: "Edited"), isRead: true, isStarred: false),
            SyncedEntryState(entry: storeEntry("n3"), isRead: false, isStarred: true),
            SyncedEntryState(entry: storeEntry("n6"), isRead: false, isStarred: false),
            SyncedEntryState(entry: storeEntry("n6"), isRead: false, isStarred: false),
        ]), now: storeEpoch, mostlyNew: true)
        #expect(second.new == 1)
        #expect(second.markedRead == 1)
        #expect(second.starred == 1)
        let entries = try await store.entries(EntryQuery(limit: 100))
        #expect(entries.first { $0.entry.id == "n4" }?.entry.title == "Edited")
        #expect(entries.filter { $0.entry.id == "n6" }.count == 1)
        let states = try await Self.states(store)
        #expect(states["n4"]! == (true, false))
        #expect(states["n3"]! == (false, true))
    }

    @Test func aPageForAFeedNobodyFollowsFails() async throws {
        let (store, _) = try await Self.syncedStore()

        await #expect(throws: FeedStoreError.self) {
            try await store.upsertSynced([], remoteFeedID: "feed/404", now: storeEpoch)
        }
    }

    @Test func aPageOfSeveralFeedsIsStoredInOneTransactionWholeOrNotAtAll() async throws {
        let (store, _) = try await Self.syncedStore()
        let news = SyncedEntryBatch([SyncedEntryState(entry: storeEntry("n5"), isRead: false, isStarred: false)])
        let blog = SyncedEntryBatch([SyncedEntryState(entry: storeEntry("b1"), isRead: true, isStarred: true)])
        let nobody = SyncedEntryBatch([SyncedEntryState(entry: storeEntry("x1"), isRead: false, isStarred: false)])

        await #expect(throws: FeedStoreError.self) {
            try await store.upsertSynced([("feed/1", news), ("feed/2", blog), ("feed/404", nobody)], now: storeEpoch)
        }
        #expect(try await Self.states(store).keys.sorted() == ["l1", "n1", "n2", "n3"], "nothing of the page is stored")

        let counts = try await store.upsertSynced([("feed/1", news), ("feed/2", blog)], now: storeEpoch)
        #expect(counts.new == 2)
        let states = try await Self.states(store)
        #expect(states["n5"]! == (false, false))
        #expect(states["b1"]! == (true, true))
    }

    @Test func stateChangesOfSyncedEntriesAreQueuedAndOthersAreNot() async throws {
        let (store, _) = try await Self.syncedStore()
        let n1 = try await Self.id(store, "n1"), n3 = try await Self.id(store, "n3"), l1 = try await Self.id(store, "l1")

        try await store.setRead(false, entries: [n1, l1])
        try await store.setRead(false, entries: [n1])
        try await store.setStarred(true, entries: [n3, l1])

        let queue = try await store.queuedStateChanges()
        #expect(queue.map(\.entryID) == ["n1", "n3"])
        #expect(queue.map(\.change) == [.unread, .starred])
        #expect(queue[0].sequence < queue[1].sequence)

        try await store.dequeueStateChanges([queue[0].sequence])
        #expect(try await store.queuedStateChanges().map(\.entryID) == ["n3"])
    }

    @Test func aServersSetChangesEverySyncedEntryButNoLocalOne() async throws {
        let (store, _) = try await Self.syncedStore()

        let unread = try await store.applyServerSet(.unread, ids: ["n1"])
        let starred = try await store.applyServerSet(.starred, ids: ["n3"])

        #expect(unread.markedUnread == 1)
        #expect(unread.markedRead == 2)
        #expect(starred.starred == 1)
        #expect(starred.unstarred == 1)
        let states = try await Self.states(store)
        #expect(states["n1"]! == (false, false))
        #expect(states["n2"]! == (true, false))
        #expect(states["n3"]! == (true, true))
        #expect(states["l1"]! == (false, false))
    }

    @Test func aQueuedChangeWinsOverTheServerUntilItIsDequeued() async throws {
        let (store, _) = try await Self.syncedStore()
        let n3 = try await Self.id(store, "n3")
        try await store.setRead(true, entries: [n3])

        _ = try await store.applyServerSet(.unread, ids: ["n3"])
        _ = try await store.upsertSynced([SyncedEntryState(entry: storeEntry("n3"), isRead: false, isStarred: true)], remoteFeedID: "feed/1", now: storeEpoch)

        // The read state is protected; the starred state, with nothing queued, is the server's.
        #expect(try await Self.states(store)["n3"]! == (true, true))

        try await store.dequeueStateChanges(try await store.queuedStateChanges().map(\.sequence))
        _ = try await store.applyServerSet(.unread, ids: ["n3"])
        #expect(try await Self.states(store)["n3"]! == (false, true))
    }

    @Test func unstoredIDsAreThoseNoSyncedEntryHas() async throws {
        let (store, _) = try await Self.syncedStore()

        #expect(try await store.unstoredSyncedEntryIDs(among: ["n1", "x", "l1", "n3", "x"]) == ["x", "l1", "x"])
        #expect(try await store.unstoredSyncedEntryIDs(among: []) == [])
    }

    /// The ids the store lacks are what a comparison of the bytes up to the first NUL gives (an
    /// id as the store keeps it), given back as they were asked for, over stores of synced and
    /// local entries whose ids mix ASCII, JSON's escapes, NULs, and `é` composed and
    /// decomposed. An id with a NUL came back cut at it (found by this test).
    @Test func theIdsTheStoreLacksAreFoundByTheirBytesAndGivenBackAsAsked() async throws {
        let seed = randomizedTestSeed()
        print("SyncStoreTests: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let pieces = ["a", "b", "1", "\"", "\\", "\n", "\u{0}", "caf\u{e9}", "cafe\u{301}", "日本", " "]
        func anyID() -> String { (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        for round in 0..<20 {
            let store = try FeedStore()
            let local = try await store.addFeed(url: URL(string: "https://local.example/feed")!, title: nil, category: nil)
            _ = try await store.replaceSyncedFeeds([Self.news, Self.blog])
            let synced = (0..<Int.random(in: 0...30, using: &random)).map { _ in anyID() }
            let localIDs = (0..<Int.random(in: 0...5, using: &random)).map { _ in anyID() }
            _ = try await store.upsertSynced(synced.map { SyncedEntryState(entry: storeEntry($0), isRead: false, isStarred: false) },
                                             remoteFeedID: Bool.random(using: &random) ? "feed/1" : "feed/2", now: storeEpoch)
            _ = try await store.upsert(entries: localIDs.map { storeEntry($0) }, feed: local.id, now: storeEpoch)
            // What the store holds, as SQLite holds it: an id up to its first NUL.
            let stored = Set(synced.map { Array($0.utf8.prefix { $0 != 0 }) })
            let asked = (0..<Int.random(in: 0...20, using: &random)).map { _ in
                Bool.random(using: &random) ? anyID() : (synced + localIDs).randomElement(using: &random) ?? anyID()
            }
            let expected = asked.filter { !stored.contains(Array($0.utf8.prefix { $0 != 0 })) }
            let unstored = try await store.unstoredSyncedEntryIDs(among: asked)
            #expect(unstored.map { Array($0.utf8) } == expected.map { Array($0.utf8) },
                    "seed \(seed), round \(round): \(asked) among \(synced) gave \(unstored)")
        }
    }

    /// Ids travel into SQLite as one JSON array: quotes, backslashes, control characters and
    /// non-ASCII ones in an id are its own, and the id is matched exactly.
    @Test func idsWithCharactersJSONEscapesAreMatchedExactly() async throws {
        let store = try FeedStore()
        _ = try await store.replaceSyncedFeeds([Self.news])
        let odd = ["quote\"d", "back\\slash", "tab\tnew\nline", "café 日本", "\u{1}"]
        _ = try await store.upsertSynced(odd.map { SyncedEntryState(entry: storeEntry($0), isRead: true, isStarred: false) },
                                         remoteFeedID: "feed/1", now: storeEpoch)

        #expect(try await store.unstoredSyncedEntryIDs(among: odd + ["quote", "cafe 日本"]) == ["quote", "cafe 日本"])
        let unread = try await store.applyServerSet(.unread, ids: Set(odd.prefix(2)))
        #expect(unread.markedUnread == 2 && unread.markedRead == 0)
        let states = try await Self.states(store)
        #expect(odd.map { states[$0]!.read } == [false, false, true, true, true])

        // An id is the bytes it is: a server's `é` composed is not a stored one decomposed,
        // which Swift's `==` would take for it.
        let decomposed = "cafe\u{301}"
        _ = try await store.upsertSynced([SyncedEntryState(entry: storeEntry(decomposed), isRead: true, isStarred: false)],
                                         remoteFeedID: "feed/1", now: storeEpoch)
        let composed = try await store.applyServerSet(.unread, ids: ["caf\u{e9}"])
        #expect(composed.markedUnread == 0)
        #expect(try await store.unstoredSyncedEntryIDs(among: ["caf\u{e9}"]) == ["caf\u{e9}"])

        // A change queued for one does not protect the other (found in review).
        _ = try await store.upsertSynced([SyncedEntryState(entry: storeEntry("caf\u{e9}"), isRead: true, isStarred: false)],
                                         remoteFeedID: "feed/1", now: storeEpoch)
        let decomposedID = try #require(try await store.entries(EntryQuery(limit: 100)).first { $0.entry.id.utf8.elementsEqual(decomposed.utf8) }).id
        try await store.setRead(true, entries: [decomposedID])
        let both = try await store.applyServerSet(.unread, ids: ["caf\u{e9}", decomposed])
        #expect(both.markedUnread == 1)
        // By bytes: a dictionary keyed by these ids would take them for one.
        let after = try await store.entries(EntryQuery(limit: 100))
        let read = { (id: String) in after.first { $0.entry.id.utf8.elementsEqual(id.utf8) }?.isRead }
        #expect(read("caf\u{e9}") == false && read(decomposed) == true)
    }

    @Test func aNewSyncedEntryArrivesWithTheServersStatesWhichAreNotCountedAsChanges() async throws {
        let store = try FeedStore()
        _ = try await store.replaceSyncedFeeds([Self.news])
        let counts = try await store.upsertSynced([SyncedEntryState(entry: storeEntry("a"), isRead: true, isStarred: true),
                                                   SyncedEntryState(entry: storeEntry("b"), isRead: false, isStarred: false)],
                                                  remoteFeedID: "feed/1", now: storeEpoch)
        #expect(counts.new == 2 && counts.markedRead == 0 && counts.starred == 0)
        let states = try await Self.states(store)
        #expect(states["a"]! == (true, true) && states["b"]! == (false, false))
    }

    @Test func marksAreKeptAndAMissingOneStays() async throws {
        let (store, _) = try await Self.syncedStore()

        try await store.recordSyncMarks(SyncMarks(itemsPulledUpTo: day(1), subscriptionsFetched: day(2)))
        try await store.recordSyncMarks(SyncMarks(itemsPulledUpTo: day(3)))

        #expect(try await store.syncMarks() == SyncMarks(itemsPulledUpTo: day(3), subscriptionsFetched: day(2)))
    }

    @Test func forgettingTheServerKeepsItsFeedsAsLocalOnes() async throws {
        let (store, _) = try await Self.syncedStore()
        try await store.setRead(false, entries: [try await Self.id(store, "n1")])

        try await store.forgetSync()

        #expect(try await store.feeds().allSatisfy { $0.remoteID == nil })
        #expect(try await store.queuedStateChanges().isEmpty)
        #expect(try await store.syncMarks() == SyncMarks())
    }
}
