import GRDB

/// The full-text index of posts: an FTS5 table, `entry_search`, whose rowid is the entry's.
///
/// It holds each post's title, author, feed title, and its text as plain words
/// (``SearchText/body(summary:content:)``). Words are split by `unicode61` with diacritics
/// removed (`cafe` finds `café`), and prefixes of two and three characters have indexes of
/// their own, so that search as you type reads one list for its first letters.
///
/// It is kept in the transaction of every write: ``upserting(_:into:now:arrivingStates:prepared:indexing:)``
/// writes a post's row beside the post; triggers delete it with the post (however the post
/// goes: a refresh, retention, a removed feed's cascade, a sync) and rewrite the feed title of
/// a feed's posts when the feed's title changes.
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

    static let insertSearchRowSQL = "INSERT INTO entry_search (rowid, title, author, feed, body) VALUES (?, ?, ?, ?, ?)"

    static let updateSearchRowSQL = """
        UPDATE entry_search SET title = ?, author = ?, body = ?
        WHERE rowid = (SELECT id FROM entry WHERE feedId = ? AND entryId = ?)
        """
}
