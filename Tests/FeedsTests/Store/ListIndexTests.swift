@testable import Feeds
import Foundation
import GRDB
import Testing

@Suite struct ListIndexTests {
    /// The list's queries, whose rows must not depend on whether the index is there.
    static let queries = [
        EntryQuery(limit: 100), EntryQuery(unreadOnly: true, limit: 100), EntryQuery(starredOnly: true, limit: 100),
        EntryQuery(titleContains: "1", limit: 100), EntryQuery(limit: 3, offset: 2),
    ]

    /// A store with a feed of `count` posts, some read and some starred.
    func storeWithPosts(_ count: Int, path: String? = nil) async throws -> FeedStore {
        let store = try path.map { try FeedStore(path: $0) } ?? FeedStore()
        let feed = try await store.addFeed(url: URL(string: "https://example.com/feed.xml")!, title: "Feed", category: nil)
        let entries = (0..<count).map { storeEntry("p\($0)", published: $0 % 5 == 0 ? nil : day(Double($0 % 37)), summary: "<p>Post \($0)</p>") }
        _ = try await store.upsert(entries: entries, feed: feed.id, now: storeEpoch)
        let ids = try await store.rows(EntryQuery(limit: count)).map(\.id)
        try await store.setRead(true, entries: ids.enumerated().filter { $0.offset % 3 == 0 }.map(\.element))
        try await store.setStarred(true, entries: ids.enumerated().filter { $0.offset % 4 == 1 }.map(\.element))
        return store
    }

    func hasIndex(_ store: FeedStore) async throws -> Bool {
        try await store.hasListIndex()
    }

    @Test func theDefinitionBuiltAgainIsTheOneTheMigrationsMake() async throws {
        let store = try FeedStore()
        let migrated = try await store.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [FeedStore.listRowIndexName])
        }
        let normalized = { (sql: String) in sql.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(migrated.map(normalized) == "CREATE INDEX \(FeedStore.listRowIndexName) ON entry ( \(FeedStore.listRowIndexColumns))")
        #expect(FeedStore.creatingListRowIndexSQL.hasPrefix("CREATE INDEX IF NOT EXISTS \(FeedStore.listRowIndexName) ON entry (\(FeedStore.listRowIndexColumns))"))
    }

    @Test func aStoreWithFewPostsSetsItAsideAndListsTheSameRowsMeanwhile() async throws {
        let store = try await storeWithPosts(40)
        var before: [[EntryRow]] = []
        for query in Self.queries { before.append(try await store.rows(query)) }
        #expect(before[0].count == 40 && before[1].count > 0 && before[2].count > 0)

        #expect(try await store.setListIndexAside())
        #expect(try await !hasIndex(store))
        // Set aside already: nothing more to drop.
        #expect(try await !store.setListIndexAside())
        for (query, rows) in zip(Self.queries, before) { #expect(try await store.rows(query) == rows) }

        try await store.restoreListIndex()
        #expect(try await hasIndex(store))
        for (query, rows) in zip(Self.queries, before) { #expect(try await store.rows(query) == rows) }
        // Restoring an index that is there does nothing.
        try await store.restoreListIndex()
        #expect(try await hasIndex(store))
    }

    @Test func anObservationGoesOnWhileItIsAside() async throws {
        let store = try await storeWithPosts(10)
        var rows = store.observeRows(EntryQuery(limit: 100)).makeAsyncIterator()
        #expect(try await rows.next()?.count == 10)
        #expect(try await store.setListIndexAside())
        let feed = try #require(try await store.feeds().first)
        _ = try await store.upsert(entries: [storeEntry("new", published: day(100))], feed: feed.id, now: storeEpoch)
        #expect(try await rows.next()?.first?.title == "Post new")
    }

    @Test func aStoreWithManyPostsKeepsIt() async throws {
        let store = try await storeWithPosts(FeedStore.listIndexSetAsideLimit + 1)
        #expect(try await !store.setListIndexAside())
        #expect(try await hasIndex(store))
    }

    @Test func aStoreOpenedWithoutItBuildsItAgain() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path
        do {
            // A sync killed between setting the index aside and building it again.
            let store = try await storeWithPosts(5, path: path)
            #expect(try await store.setListIndexAside())
        }
        let reopened = try FeedStore(path: path)
        #expect(try await hasIndex(reopened))
        #expect(try await reopened.rows(EntryQuery(limit: 100)).count == 5)
    }
}
