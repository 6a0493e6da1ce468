import GRDB

/// The full-text index of posts: an FTS5 table, `entry_search`, whose rowid is the entry's.
///
/// It holds each post's title, author, feed title, and its text as plain words
/// (``SearchText/body(summary:content:)``). Words are split by `unicode61` with diacritics
/// removed (`cafe` finds `café`), and prefixes of two and three characters have indexes of
/// their own, so that search as you type reads one list for its first letters.
///
/// A post is indexed after the write that stores it. That write puts the post's id in
/// `search_backlog`, and ``indexWaitingPosts(limit:)`` indexes the waiting posts, newest first,
/// a batch a transaction: the reader after every refresh and sync, `scrollwork search` before
/// it searches. Indexing a post costs FTS5 as much as storing it (a refresh took twice as long
/// with the index written in its transaction), and newsboat, which a refresh is measured
/// against, indexes nothing. Everything else stays in the transaction of the write: a post
/// modified is indexed again at once if it was indexed; triggers delete its index row and its
/// place in the backlog with the post (however the post goes: a refresh, retention, a removed
/// feed's cascade, a sync) and rewrite the feed title of a feed's posts when the feed's title
/// changes. So a search never finds a post that is gone, or text a post no longer has; a
/// post stored a moment ago is found once it is indexed.
extension FeedStore {
    /// The schema of the index, its triggers, and the index of every post stored.
    static func createSearchIndex(_ db: Database, progress: (@Sendable (Int, Int) -> Void)?) throws {
        try db.execute(sql: """
            CREATE VIRTUAL TABLE entry_search USING fts5(
                title, author, feed, body,
                tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
            CREATE TRIGGER entry_search_after_delete AFTER DELETE ON entry BEGIN
                DELETE FROM entry_search WHERE rowid = OLD.id;
            END;
            CREATE TRIGGER entry_search_after_feed_title AFTER UPDATE OF title ON feed
            WHEN NEW.title IS NOT OLD.title BEGIN
                UPDATE entry_search SET feed = NEW.title WHERE rowid IN (SELECT id FROM entry WHERE feedId = NEW.id);
            END;
            """)
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0
        guard total > 0 else { return }
        progress?(0, total)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT entry.id, entry.title, entry.author, entry.summary, entry.content, feed.title
            FROM entry JOIN feed ON feed.id = entry.feedId
            """)
        let insert = try db.makeStatement(sql: insertSearchRowSQL)
        var done = 0
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let body = SearchText.body(summary: row[3], content: row[4])
            try insert.execute(arguments: [id, row[1] as String, row[2] as String?, row[5] as String?, body])
            done += 1
            if done % 1000 == 0 || done == total { progress?(done, total) }
        }
    }

    /// The backlog of posts stored and not yet indexed, and the trigger that takes a deleted
    /// post out of it (migration v9).
    static func createSearchBacklog(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE search_backlog (id INTEGER PRIMARY KEY);
            CREATE TRIGGER search_backlog_after_delete AFTER DELETE ON entry BEGIN
                DELETE FROM search_backlog WHERE id = OLD.id;
            END;
            """)
    }

    /// How many posts wait for the search index: stored, and not yet found by a search.
    ///
    /// - Complexity: O(w) for w posts waiting.
    public func waitingPostCount() async throws(FeedStoreError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_backlog") ?? 0 }
    }

    /// Indexes at most `limit` of the posts waiting for the search index, newest first, in one
    /// transaction, and returns how many still wait.
    ///
    /// A transaction of a few hundred posts holds the store for tens of milliseconds, so that
    /// a refresh or a key press that writes waits no longer; call it again until it returns 0.
    ///
    /// - Complexity: O(t) in the text of the posts indexed, plus FTS5's merges.
    @discardableResult
    public func indexWaitingPosts(limit: Int = 200) async throws(FeedStoreError) -> Int {
        precondition(limit > 0, "index at least one post a transaction")
        return try await write { db in
            // A waiting id whose post is gone (a delete that fired no trigger) leaves the
            // backlog too: else the backlog would never empty, and its indexer never stop.
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT search_backlog.id, entry.id IS NOT NULL, entry.title, entry.author, entry.summary, entry.content, feed.title
                FROM search_backlog LEFT JOIN entry ON entry.id = search_backlog.id LEFT JOIN feed ON feed.id = entry.feedId
                ORDER BY search_backlog.id DESC LIMIT ?
                """), arguments: [limit])
            let insert = try db.cachedStatement(sql: Self.insertSearchRowSQL)
            var indexed: [Int64] = []
            while let row = try rows.next() {
                let id: Int64 = row[0]
                indexed.append(id)
                guard row[1] as Bool else { continue }
                let body = SearchText.body(summary: row[4], content: row[5])
                try insert.execute(arguments: [id, row[2] as String, row[3] as String?, row[6] as String?, body])
            }
            let remove = try db.cachedStatement(sql: "DELETE FROM search_backlog WHERE id = ?")
            for id in indexed { try remove.execute(arguments: [id]) }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM search_backlog") ?? 0
        }
    }

    /// Indexes every post waiting for the search index, a batch a transaction, telling
    /// `progress` (posts done, posts in all) after each.
    ///
    /// - Complexity: O(t) in the text of the posts waiting.
    public func indexAllWaitingPosts(progress: (@Sendable (Int, Int) -> Void)? = nil) async throws(FeedStoreError) {
        let total = try await waitingPostCount()
        guard total > 0 else { return }
        progress?(0, total)
        var remaining = total
        while remaining > 0 {
            remaining = try await indexWaitingPosts()
            progress?(max(0, total - remaining), max(total, remaining))
        }
    }

    static let insertSearchRowSQL = "INSERT INTO entry_search (rowid, title, author, feed, body) VALUES (?, ?, ?, ?, ?)"

    static let updateSearchRowSQL = """
        UPDATE entry_search SET title = ?, author = ?, body = ?
        WHERE rowid = (SELECT id FROM entry WHERE feedId = ? AND entryId = ?)
        """
}
