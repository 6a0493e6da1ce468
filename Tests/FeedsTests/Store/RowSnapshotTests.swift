@testable import Feeds
import Foundation
import GRDB
import SeededRandom
import Testing

/// The light rows a list shows: the same rows, in the same order, as the full query.
@Suite struct RowSnapshotTests {
    /// A store of three feeds and `count` entries with random dates (some missing), flags,
    /// titles and thumbnails.
    private func populatedStore(_ count: Int, seed: UInt64) async throws -> FeedStore {
        var random = SeededGenerator(seed: seed)
        let store = try FeedStore()
        var feeds: [StoredFeed] = []
        for index in 0..<3 {
            feeds.append(try await store.addFeed(url: URL(string: "https://f\(index).example/feed")!, title: index == 2 ? nil : "Feed \(index)", category: nil))
        }
        for (index, feed) in feeds.enumerated() {
            let entries = (0..<count / 3).map { item -> FeedEntry in
                let dated = Int.random(in: 0..<4, using: &random) > 0
                return FeedEntry(
                    id: "\(index)-\(item)", title: Bool.random(using: &random) ? "Apple \(item)" : "Pear \(item)",
                    published: dated ? day(Double(Int.random(in: -50...0, using: &random))) : nil,
                    summary: "<p>Summary <b>\(item)</b></p>", content: String(repeating: "body ", count: 100),
                    thumbnail: Bool.random(using: &random) ? URL(string: "https://img.example/\(item).jpg") : nil)
            }
            _ = try await store.upsert(entries: entries, feed: feed.id, now: day(Double(-index)))
        }
        let all = try await store.entries(EntryQuery(limit: count))
        try await store.setRead(true, entries: all.filter { _ in Bool.random(using: &random) }.map(\.id))
        try await store.setStarred(true, entries: all.filter { _ in Int.random(in: 0..<5, using: &random) == 0 }.map(\.id))
        return store
    }

    @Test func rowsMatchTheFullQueryForEveryFilter() async throws {
        let seed = randomizedTestSeed()
        print("RowSnapshotTests: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        let store = try await populatedStore(300, seed: seed)
        let feeds = try await store.feeds()
        let queries = [
            EntryQuery(limit: 1000), EntryQuery(feed: feeds[1].id, limit: 1000), EntryQuery(unreadOnly: true, limit: 1000),
            EntryQuery(starredOnly: true, limit: 1000), EntryQuery(titleContains: "apple", limit: 1000),
            EntryQuery(limit: 25, offset: 40),
        ]
        for query in queries {
            let rows = try await store.rows(query)
            let entries = try await store.entries(query)
            #expect(rows.map(\.id) == entries.map(\.id), "\(query)")
            for (row, stored) in zip(rows, entries) {
                #expect(row.title == stored.entry.title)
                #expect(row.feedID == stored.feedID)
                #expect(row.date == stored.sortDate)
                #expect(row.isDated == (stored.entry.published != nil || stored.entry.updated != nil))
                #expect(row.isRead == stored.isRead && row.isStarred == stored.isStarred)
                #expect(row.thumbnail == stored.entry.thumbnail)
                #expect(row.excerpt == "Summary \(stored.entry.id.split(separator: "-")[1])")
                let feed = try #require(feeds.first { $0.id == stored.feedID })
                #expect(row.feedTitle == feed.title ?? feed.url.absoluteString)
            }
        }
    }

    @Test func theFirstLookReadsTheRowsOfTheQueryAndWhetherAnyFeedIsStored() async throws {
        let seed = randomizedTestSeed()
        print("RowSnapshotTests: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        let store = try await populatedStore(90, seed: seed)
        for query in [EntryQuery(limit: 10_000), EntryQuery(unreadOnly: true, limit: 10_000), EntryQuery(limit: 7)] {
            let look = try store.firstLook(query)
            #expect(look.followsFeeds)
            #expect(look.rows == (try await store.rows(query)), "\(query)")
        }
        let empty = try FeedStore()
        #expect(try empty.firstLook(EntryQuery()) == StoreFirstLook(followsFeeds: false, rows: []))
        // Feeds without entries: followed, nothing to show yet.
        _ = try await empty.addFeed(url: URL(string: "https://quiet.example/feed")!)
        #expect(try empty.firstLook(EntryQuery()) == StoreFirstLook(followsFeeds: true, rows: []))
    }

    @Test func keysetPagesNeitherSkipNorRepeatWhenEntriesArriveAbove() async throws {
        let seed = randomizedTestSeed()
        print("RowSnapshotTests: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        let store = try await populatedStore(120, seed: seed)
        let before = try await store.rows(EntryQuery(limit: 1000))
        var paged: [EntryRow] = []
        var after: EntryPosition?
        var page = 0
        repeat {
            let rows = try await store.rows(EntryQuery(limit: 17, after: after))
            paged += rows
            after = rows.last?.position
            page += 1
            if page == 2 {
                // New posts at the top while the reader pages down.
                let feed = try #require(try await store.feeds().first)
                _ = try await store.upsert(entries: (0..<5).map { FeedEntry(id: "new-\($0)", title: "New", published: day(10)) },
                                     feed: feed.id, now: storeEpoch)
            }
        } while after != nil
        #expect(paged.map(\.id) == before.map(\.id))
    }

    @Test func equalityChangesExactlyWhenWhatTheRowShowsChanges() async throws {
        let (store, feed) = try await storeWithFeed()
        var entry = FeedEntry(id: "a", title: "Title", summary: "<p>Short</p>", content: "<p>Long body</p>")
        _ = try await store.upsert(entries: [entry], feed: feed.id, now: storeEpoch)
        let row = try #require(try await store.rows(EntryQuery()).first)

        entry.content = "<p>Long body, edited</p>"
        _ = try await store.upsert(entries: [entry], feed: feed.id, now: storeEpoch)
        #expect(try await store.rows(EntryQuery()).first == row, "the body is not on the row")

        entry.summary = "<p>Shorter</p>"
        _ = try await store.upsert(entries: [entry], feed: feed.id, now: storeEpoch)
        let edited = try #require(try await store.rows(EntryQuery()).first)
        #expect(edited != row && edited.id == row.id && edited.excerpt == "Shorter")

        try await store.setRead(true, entries: [row.id])
        #expect(try await store.rows(EntryQuery()).first != edited)
    }

    @Test func excerptsAreShortPlainTextAndReadOnlyTheStartOfTheMarkup() {
        let long = "<div>" + String(repeating: "<span class=\"x\">word</span> ", count: 5000) + "</div>"
        let excerpt = EntryColumns.excerpt(summary: nil, content: long)
        #expect(excerpt.count == EntryRow.excerptLength)
        #expect(excerpt.hasPrefix("word word") && excerpt.hasSuffix("…"))
        #expect(!excerpt.contains("<") && !excerpt.contains("span"))
        #expect(EntryColumns.excerpt(summary: "", content: "<p>From content</p>") == "From content")
        #expect(EntryColumns.excerpt(summary: nil, content: nil) == "")
    }

    @Test func aVersion2DatabaseGetsExcerptsWhenOpened() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path
        let old = try DatabaseQueue(path: path)
        try FeedStore.migrator.migrate(old, upTo: FeedStore.SchemaVersion.v2TextCleaned.rawValue)
        try await old.write { db in
            try db.execute(sql: "INSERT INTO feed (id, url) VALUES (1, 'https://a.example/')")
            try db.execute(sql: """
                INSERT INTO entry (feedId, entryId, title, categories, summary, enclosures, truncated, firstSeen)
                VALUES (1, 'x', 'X', '[]', '<p>An <em>old</em> summary</p>', '[]', 0, 0)
                """)
        }
        try old.close()
        #expect(try await FeedStore(path: path).rows(EntryQuery()).map(\.excerpt) == ["An old summary"])
    }
}
