@testable import Feeds
import Foundation
import GRDB
import SeededRandom
import Testing

/// The full-text index kept right through every write, and searches through it.
@Suite struct SearchStoreTests {
    /// The ways the index differs from what the stored posts say it should hold: a post both
    /// indexed and waiting, or neither; an extra row or one waiting for no post; a row whose
    /// title, author, feed title or text is not the post's. Also runs FTS5's own integrity
    /// check, which throws on a corrupt index.
    private func indexMismatches(_ store: FeedStore) async throws -> [String] {
        try await store.write { db in
            try db.execute(sql: "INSERT INTO entry_search (entry_search) VALUES ('integrity-check')")
            var mismatches: [String] = []
            var indexed: [Int64: [String?]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT rowid, title, author, feed, body FROM entry_search") {
                indexed[row[0]] = [row[1], row[2], row[3], row[4]]
            }
            var waiting = Set(try Int64.fetchAll(db, sql: "SELECT id FROM search_backlog"))
            for row in try Row.fetchAll(db, sql: """
                SELECT entry.id, entry.title, entry.author, feed.title, entry.summary, entry.content
                FROM entry JOIN feed ON feed.id = entry.feedId
                """) {
                let id: Int64 = row[0]
                let expected: [String?] = [row[1], row[2], row[3], SearchText.body(summary: row[4], content: row[5])]
                switch (indexed.removeValue(forKey: id), waiting.remove(id)) {
                case (let actual?, nil):
                    if actual != expected { mismatches.append("entry \(id): \(actual) instead of \(expected)") }
                case (nil, _?):
                    break
                case (_?, _?):
                    mismatches.append("entry \(id) is indexed and waits")
                case (nil, nil):
                    mismatches.append("entry \(id) is neither indexed nor waiting")
                }
            }
            mismatches += indexed.keys.sorted().map { "index row \($0) has no entry" }
            mismatches += waiting.sorted().map { "post \($0) waits and is gone" }
            return mismatches
        }
    }

    private func titles(_ store: FeedStore, _ text: String, order: EntryQuery.Order = .relevance,
                        asYouType: Bool = false) async throws -> [String] {
        let search = SearchQuery(parsing: text, asYouType: asYouType, now: day(0))
        return try await store.rows(EntryQuery(search: search, order: order)).map(\.title)
    }

    @Test func theIndexFollowsEveryInsertEditAndDeletion() async throws {
        let (store, feed) = try await storeWithFeed()
        let other = try await store.addFeed(url: URL(string: "https://example.org/other")!, title: "Other", category: nil)
        _ = try await store.upsert(entries: [
            storeEntry("a", title: "Write-ahead logging", published: day(-1), summary: "<p>SQLite &amp; the <b>WAL</b></p>"),
            storeEntry("b", title: "Vacuum", published: day(-2), summary: "Reclaiming pages"),
        ], feed: feed.id, now: day(0))
        _ = try await store.upsert(entries: [storeEntry("c", title: "Elsewhere", summary: "Other words")], feed: other.id, now: day(0))
        try await store.indexAllWaitingPosts()
        #expect(try await indexMismatches(store) == [])
        #expect(try await titles(store, "sqlite") == ["Write-ahead logging"])

        // An edit rewrites the post's row in its own transaction.
        _ = try await store.upsert(entries: [storeEntry("a", title: "Checkpoints", published: day(-1), summary: "Only pages now")],
                                   feed: feed.id, now: day(0))
        #expect(try await store.waitingPostCount() == 0)
        #expect(try await indexMismatches(store) == [])
        #expect(try await titles(store, "sqlite") == [])
        #expect(try await titles(store, "pages", order: .date) == ["Checkpoints", "Vacuum"])

        // A feed's new title reaches its posts' rows.
        try await store.recordRefresh(feed: feed.id, etag: nil, lastModified: nil, info: FeedInfo(format: .rss2, title: "Database Digest"), at: day(0))
        #expect(try await indexMismatches(store) == [])
        #expect(try await titles(store, "digest", order: .date) == ["Checkpoints", "Vacuum"])

        // Retention deletes rows with their posts.
        try await store.setRead(true, entries: try await store.entries(EntryQuery(feed: feed.id)).map(\.id))
        #expect(try await store.prune(RetentionPolicy(maxEntriesPerFeed: 1), now: day(0)) == 1)
        #expect(try await indexMismatches(store) == [])
        #expect(try await titles(store, "vacuum") == [])

        // So does removing the feed, through the cascade.
        try await store.removeFeed(feed.id)
        #expect(try await indexMismatches(store) == [])
        #expect(try await titles(store, "pages OR other") == ["Elsewhere"])
    }

    @Test func aPostStoredWaitsForTheIndexAndNoSearchFindsWhatIsGone() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [
            storeEntry("old", title: "SQLite pages", published: day(-3), summary: "checkpoints"),
            storeEntry("new", title: "Gardening", published: day(-1), summary: "roses"),
        ], feed: feed.id, now: day(0))
        #expect(try await store.waitingPostCount() == 2)
        #expect(try await indexMismatches(store) == [])
        // Waiting, a post is found by no words, and left out of a search that only excludes;
        // a search without words (a state, a feed) finds it.
        #expect(try await titles(store, "sqlite") == [])
        #expect(try await titles(store, "-sqlite") == [])
        #expect(try await titles(store, "is:unread", order: .date) == ["Gardening", "SQLite pages"])

        // A waiting post edited is indexed as it is when its turn comes.
        _ = try await store.upsert(entries: [storeEntry("old", title: "WAL pages", published: day(-3), summary: "checkpoints")],
                                   feed: feed.id, now: day(0))
        #expect(try await indexMismatches(store) == [])
        // The newest first, a batch a transaction.
        #expect(try await store.indexWaitingPosts(limit: 1) == 1)
        #expect(try await titles(store, "roses") == ["Gardening"])
        #expect(try await titles(store, "wal") == [])
        #expect(try await indexMismatches(store) == [])
        #expect(try await store.indexWaitingPosts(limit: 1) == 0)
        #expect(try await titles(store, "wal") == ["WAL pages"])
        #expect(try await titles(store, "sqlite") == [])
        #expect(try await titles(store, "-wal") == ["Gardening"])

        // A post deleted while it waits leaves the backlog with it.
        let other = try await store.addFeed(url: URL(string: "https://example.org/other")!, title: "Other", category: nil)
        _ = try await store.upsert(entries: (0..<450).map { storeEntry("\($0)", title: "Post \($0)") }, feed: other.id, now: day(0))
        let reports = Reports()
        #expect(try await store.indexWaitingPosts(limit: 50) == 400)
        try await store.removeFeed(other.id)
        #expect(try await store.waitingPostCount() == 0)
        #expect(try await indexMismatches(store) == [])
        _ = try await store.upsert(entries: (0..<450).map { storeEntry("\($0)", title: "Post \($0)") }, feed: feed.id, now: day(0))
        try await store.indexAllWaitingPosts { done, total in reports.append(done, total) }
        #expect(reports.all.map(\.0) == [0, 200, 400, 450])
        #expect(reports.all.allSatisfy { $0.1 == 450 })
        #expect(try await indexMismatches(store) == [])
        #expect(try await store.rows(EntryQuery(search: SearchQuery(parsing: "post"), limit: 1_000)).count == 450)

        // An id whose post went without its trigger (a REPLACE fires none) leaves the backlog
        // too, so that indexing ends.
        try await store.write { db in try db.execute(sql: "INSERT INTO search_backlog (id) VALUES (999999)") }
        #expect(try await store.indexWaitingPosts() == 0)
        #expect(try await indexMismatches(store) == [])
    }

    @Test func syncedPostsAreIndexed() async throws {
        let store = try FeedStore()
        _ = try await store.replaceSyncedFeeds([
            SyncedFeed(remoteID: "feed/1", url: URL(string: "https://example.com/feed")!, title: "Remote", category: nil),
        ])
        let entries = [
            SyncedEntryState(entry: storeEntry("tag:1", title: "Synced words", summary: "from the server"), isRead: true, isStarred: false),
        ]
        _ = try await store.upsertSynced(entries, remoteFeedID: "feed/1", now: day(0))
        try await store.indexAllWaitingPosts()
        #expect(try await indexMismatches(store) == [])
        #expect(try await titles(store, "server remote") == ["Synced words"])
    }

    /// Every post a write adds waits for the index, each feed's of a page of several, whether
    /// the page is taken as mostly new or not, and a post the page repeats waits once.
    @Test func everyPostOfAPageOfSeveralFeedsWaitsForTheIndex() async throws {
        let store = try FeedStore()
        _ = try await store.replaceSyncedFeeds([
            SyncedFeed(remoteID: "feed/1", url: URL(string: "https://example.com/one")!, title: "One", category: nil),
            SyncedFeed(remoteID: "feed/2", url: URL(string: "https://example.com/two")!, title: "Two", category: nil),
        ])
        func batch(_ ids: [String]) -> SyncedEntryBatch {
            SyncedEntryBatch(ids.map { SyncedEntryState(entry: storeEntry($0, title: "Post \($0) words"), isRead: false, isStarred: false) })
        }
        for mostlyNew in [true, false] {
            let suffix = mostlyNew ? "" : "-later"
            _ = try await store.upsertSynced([("feed/1", batch(["a\(suffix)", "b\(suffix)", "a\(suffix)"])),
                                              ("feed/2", batch(["c\(suffix)"]))], now: day(0), mostlyNew: mostlyNew)
            _ = try await store.upsertSynced([("feed/2", batch(["c\(suffix)", "d\(suffix)"]))], now: day(0), mostlyNew: mostlyNew)
            #expect(try await indexMismatches(store) == [])
        }
        #expect(try await store.waitingPostCount() == 8)
        try await store.indexAllWaitingPosts()
        #expect(try await indexMismatches(store) == [])
        #expect(try await titles(store, "words").count == 8)
    }

    @Test func aStoreWrittenBeforeTheIndexGetsItWithProgress() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.sqlite").path
        do {
            let pool = try DatabasePool(path: path)
            try FeedStore.migrator.migrate(pool, upTo: FeedStore.SchemaVersion.v6OneDateIndex.rawValue)
            try await pool.write { db in
                try db.execute(sql: "INSERT INTO feed (url, title) VALUES ('https://example.com/feed', 'Old Feed')")
                for index in 0..<2_500 {
                    try db.execute(sql: """
                        INSERT INTO entry (feedId, entryId, title, categories, enclosures, truncated, firstSeen, summary)
                        VALUES (1, ?, ?, '[]', '[]', 0, ?, ?)
                        """, arguments: ["\(index)", "Post \(index)", Double(index), "<p>word\(index) caf&eacute;</p>"])
                }
            }
        }
        let reports = Reports()
        let store = try FeedStore(path: path, migrationProgress: { done, total in reports.append(done, total) })
        #expect(reports.all.first.map { $0 == (0, 2_500) } == true)
        #expect(reports.all.last.map { $0 == (2_500, 2_500) } == true)
        #expect(reports.all.count == 4)
        #expect(try await indexMismatches(store) == [])
        #expect(try await titles(store, "word1234") == ["Post 1234"])
        #expect(try await store.rows(EntryQuery(search: SearchQuery(parsing: "cafe feed:old"), limit: 10_000)).count == 2_500)
    }

    private final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [(Int, Int)] = []
        func append(_ done: Int, _ total: Int) { lock.withLock { reports.append((done, total)) } }
        var all: [(Int, Int)] { lock.withLock { reports } }
    }

    @Test func theLanguageThroughTheIndex() async throws {
        let (store, feed) = try await storeWithFeed()
        let news = try await store.addFeed(url: URL(string: "https://news.example/rss")!, title: "Hacker News", category: nil)
        var ann = storeEntry("1", title: "Café culture", published: day(-1), summary: "<p>Espresso in Paris</p>")
        ann.author = "Ann Lee"
        _ = try await store.upsert(entries: [
            ann,
            storeEntry("2", title: "SQLite internals", published: day(-10), summary: "The write-ahead log, pages and checkpoints"),
            storeEntry("3", title: "Postgres vacuum", published: day(-20), summary: "Dead tuples and the write ahead log"),
        ], feed: feed.id, now: day(0))
        _ = try await store.upsert(entries: [storeEntry("4", title: "Show HN: a cafe finder", published: day(-2), summary: "Built on SQLite")],
                                   feed: news.id, now: day(0))
        let starred = try await store.entries(EntryQuery(feed: news.id)).map(\.id)
        try await store.setStarred(true, entries: starred)
        try await store.indexAllWaitingPosts()

        #expect(try await titles(store, "cafe") == ["Café culture", "Show HN: a cafe finder"])
        #expect(try await titles(store, "CAFÉ espresso") == ["Café culture"])
        #expect(try await titles(store, "\"write ahead log\"", order: .date) == ["SQLite internals", "Postgres vacuum"])
        #expect(try await titles(store, "sql*", order: .date) == ["Show HN: a cafe finder", "SQLite internals"])
        #expect(try await titles(store, "vacuum OR espresso", order: .date) == ["Café culture", "Postgres vacuum"])
        #expect(try await titles(store, "log -postgres") == ["SQLite internals"])
        #expect(try await titles(store, "-sqlite -cafe") == ["Postgres vacuum"])
        #expect(try await titles(store, "title:sqlite") == ["SQLite internals"])
        #expect(try await titles(store, "author:ann") == ["Café culture"])
        #expect(try await titles(store, "feed:hacker") == ["Show HN: a cafe finder"])
        #expect(try await titles(store, "feed:\"hacker news\" OR feed:nothing") == ["Show HN: a cafe finder"])
        #expect(try await titles(store, "sqlite is:starred") == ["Show HN: a cafe finder"])
        #expect(try await titles(store, "sqlite is:unstarred") == ["SQLite internals"])
        #expect(try await titles(store, "log newer:15d") == ["SQLite internals"])
        #expect(try await titles(store, "log older:15d") == ["Postgres vacuum"])
        #expect(try await titles(store, "internals", asYouType: false) == ["SQLite internals"])
        #expect(try await titles(store, "intern", asYouType: false) == [])
        #expect(try await titles(store, "intern", asYouType: true) == ["SQLite internals"])
    }

    @Test func aWordInTheTitleRanksAboveOneInTheTextAndNewerBreaksTies() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [
            storeEntry("text-new", title: "Notes", published: day(-1), summary: "Something about checkpoints today"),
            storeEntry("title", title: "Checkpoints", published: day(-30), summary: "A long story"),
            storeEntry("text-old", title: "Notes", published: day(-5), summary: "Something about checkpoints today"),
        ], feed: feed.id, now: day(0))
        try await store.indexAllWaitingPosts()
        let search = SearchQuery(parsing: "checkpoints")
        #expect(try await store.rows(EntryQuery(search: search)).map(\.id).count == 3)
        #expect(try await store.entries(EntryQuery(search: search)).map(\.entry.id) == ["title", "text-new", "text-old"])
        #expect(try await store.entries(EntryQuery(search: search, order: .date)).map(\.entry.id) == ["text-new", "text-old", "title"])
        // Paging by offset walks the ranked list once.
        let pages = [
            try await store.entries(EntryQuery(search: search, limit: 2)),
            try await store.entries(EntryQuery(search: search, limit: 2, offset: 2)),
        ].flatMap { $0 }.map(\.entry.id)
        #expect(pages == ["title", "text-new", "text-old"])
    }

    @Test func aWindowRanksOnlyTheMatchesStoredLast() async throws {
        let (store, feed) = try await storeWithFeed()
        // Stored oldest first: the last stored are the newest.
        for index in 0..<6 {
            let title = index == 1 ? "Checkpoint checkpoint" : "Note \(index)"
            _ = try await store.upsert(entries: [storeEntry("\(index)", title: title, published: day(Double(index)), summary: "checkpoint")],
                                       feed: feed.id, now: day(0))
        }
        try await store.indexAllWaitingPosts()
        let search = SearchQuery(parsing: "checkpoint")
        #expect(try await store.entries(EntryQuery(search: search)).first?.entry.id == "1")
        let windowed = try await store.entries(EntryQuery(search: search, matchWindow: 3)).map(\.entry.id)
        #expect(windowed == ["5", "4", "3"])
        #expect(try await store.entries(EntryQuery(search: search, order: .date, matchWindow: 2)).map(\.entry.id) == ["5", "4"])
        // Filters apply before the window.
        let first = try await store.entries(EntryQuery(search: search)).filter { ["1", "2"].contains($0.entry.id) }.map(\.id)
        try await store.setStarred(true, entries: first)
        let starred = SearchQuery(parsing: "checkpoint is:starred")
        #expect(try await store.entries(EntryQuery(search: starred, matchWindow: 3)).map(\.entry.id) == ["1", "2"])
        #expect(try await store.rows(EntryQuery(search: starred, matchWindow: 3)).map(\.title) == ["Checkpoint checkpoint", "Note 2"])
    }

    @Test func savedSearchesAreCountedBesideTheFeedsAndFollowTheStore() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [
            storeEntry("1", title: "SQLite WAL", summary: "pages"),
            storeEntry("2", title: "SQLite vacuum", summary: "pages"),
            storeEntry("3", title: "Gardening", summary: "roses"),
        ], feed: feed.id, now: day(0))
        try await store.indexAllWaitingPosts()
        let searches = [SearchQuery(parsing: "sqlite"), SearchQuery(parsing: "-sqlite"), SearchQuery(parsing: "nothing")]
        var iterator = store.observeFeedSummaries(searches: searches).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.feeds.first?.total == 3)
        #expect(first?.searches == [SearchCount(total: 2, unread: 2), SearchCount(total: 1, unread: 1), SearchCount(total: 0, unread: 0)])
        let wal = try await store.rows(EntryQuery(search: SearchQuery(parsing: "wal"))).map(\.id)
        try await store.setRead(true, entries: wal)
        #expect(try await iterator.next()?.searches.first == SearchCount(total: 2, unread: 1))
        _ = try await store.upsert(entries: [storeEntry("4", title: "SQLite again")], feed: feed.id, now: day(0))
        // Stored, the post waits for the index: only `-sqlite`, which cannot judge it yet,
        // leaves it out as well; indexed, it counts.
        #expect(try await iterator.next()?.searches.first == SearchCount(total: 2, unread: 1))
        try await store.indexAllWaitingPosts()
        #expect(try await iterator.next()?.searches.first == SearchCount(total: 3, unread: 2))
    }

    /// The rank reads each match's column lengths from the `_docsize` record its query joins;
    /// every score must be the one FTS5's own lookup of the lengths gives, for posts of every
    /// length (the lengths' varints take one to three bytes) and queries of every shape.
    @Test func theRankReadsTheJoinedLengthsAsFTS5GivesThem() async throws {
        let (store, feed) = try await storeWithFeed()
        let seed = randomizedTestSeed()
        print("Rank with joined lengths: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let words = ["wal", "sqlite", "checkpoint", "check", "checks", "rust", "async", "café", "policy", "log", "write", "ahead"]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        }
        let lengths = [0, 1, 3, 60, 200, 20_000]
        _ = try await store.upsert(entries: (0..<60).map { index in
            storeEntry("\(index)", title: text(Int.random(in: 1...12, using: &random)), published: day(Double(-index)),
                       summary: text(lengths.randomElement(using: &random)!))
        }, feed: feed.id, now: day(0))
        try await store.indexAllWaitingPosts()
        var queries = ["check*", "sqlite wal", "\"write ahead log\"", "title:rust", "checkpoint -sqlite", "cafe OR policy", "ch*"]
        for _ in 0..<30 {
            queries.append((0..<Int.random(in: 1...3, using: &random)).map { _ in
                let word = words.randomElement(using: &random)!
                return Bool.random(using: &random) ? String(word.prefix(Int.random(in: 2...word.count, using: &random))) + "*" : word
            }.joined(separator: " "))
        }
        let matches = try queries.map { (text: $0, match: try #require(SearchQuery(parsing: $0).matchExpression)) }
        let scored = try await store.read { db in
            try matches.map { text, match -> (String, [[Double]]) in
                let rows = try Row.fetchAll(db, sql: """
                    SELECT scrollwork_rank(entry_search, search_sizes.sz, 10.0, 4.0, 2.0, 1.0),
                        scrollwork_rank(entry_search, NULL, 10.0, 4.0, 2.0, 1.0),
                        scrollwork_rank(entry_search, x'01', 10.0, 4.0, 2.0, 1.0),
                        scrollwork_rank(entry_search, CAST(search_sizes.sz || x'01' AS BLOB), 10.0, 4.0, 2.0, 1.0)
                    FROM entry_search \(FeedStore.searchSizesJoin) WHERE entry_search MATCH ?
                    """, arguments: [match])
                return (text, rows.map { [$0[0], $0[1], $0[2], $0[3]] })
            }
        }
        var distinctScores = Set<Double>()
        for (text, rows) in scored {
            #expect(!rows.isEmpty || text.contains("-"), "seed \(seed): \(text) found nothing")
            for row in rows {
                #expect(row[0] == row[1], "seed \(seed): \(text): joined lengths \(row[0]), FTS5's \(row[1])")
                #expect(row[2] == row[1], "seed \(seed): \(text): a record too short \(row[2]), FTS5's \(row[1])")
                #expect(row[3] == row[1], "seed \(seed): \(text): a record too long \(row[3]), FTS5's \(row[1])")
                distinctScores.insert(row[0])
            }
        }
        #expect(distinctScores.count > 20, "seed \(seed): lengths should tell the matches apart")
        // A call with a weight where the lengths go is an error, not a ranking by other weights.
        await #expect(throws: FeedStoreError.self) {
            try await store.read { db in
                try Double.fetchAll(db, sql: "SELECT scrollwork_rank(entry_search, 10.0, 4.0) FROM entry_search WHERE entry_search MATCH 'check'")
            }
        }
        // The window is read newest first from the index with the lengths joined, not sorted.
        let window = FeedStore.filtered(EntryQuery(search: SearchQuery(parsing: "check*"), matchWindow: 1_000, limit: 60),
                                        columns: "entry.id")
        let plan = try await store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + window.sql, arguments: window.arguments)
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(plan.contains("SEARCH search_sizes USING INTEGER PRIMARY KEY"), "\(plan)")
        // The window's own steps, before the page sorts it by score, sort nothing.
        let windowSteps = plan.components(separatedBy: "SCAN (subquery-1)")[0]
        #expect(windowSteps.contains("SCAN entry_search") && !windowSteps.contains("TEMP B-TREE"), "\(plan)")
    }

    @Test func anyTypedTextSearchesWithoutAnError() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: (0..<20).map {
            storeEntry("\($0)", title: "Title \($0) NEAR AND OR NOT", published: day(Double(-$0)), summary: "body \"quoted\" * ^ {x} \($0 % 3)")
        }, feed: feed.id, now: day(0))
        let seed = randomizedTestSeed()
        print("Search any text: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let pieces = ["title", "NEAR", "AND", "OR", "NOT", "-", "\"", "*", ":", "(", ")", "{", "}", "^", "+", " ", "body", "1",
                      "title:", "author:", "feed:", "is:", "after:", "newer:", "x", "'", "\\", "%", "_", "\u{0}", "é", ";", "--"]
        var texts = [String(repeating: "a", count: 10_000), String(repeating: "\"(", count: 5_000), "-", "\"", "*", "OR", "NOT x"]
        for _ in 0..<300 {
            texts.append((0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for text in texts {
            for asYouType in [false, true] {
                let search = SearchQuery(parsing: text, asYouType: asYouType, now: day(0))
                let rows = try await store.rows(EntryQuery(search: search, limit: 50))
                if search.isEmpty { #expect(rows.count == 20, "seed \(seed): \(text.debugDescription)") }
            }
        }
    }
}
