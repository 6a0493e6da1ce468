import GRDB

/// The list's covering index, `entry_list_rows`, set aside while a store fills up at once.
///
/// The index holds every column of a list row, in the list's date order (migration v4), so a
/// snapshot of 10,000 rows reads it alone. That order is what makes it costly to keep up during
/// a first sync: a server sends its items by the time it fetched them, feed after feed, and
/// each page's posts land all over the index's date range, so every transaction rewrote most of
/// its pages (a first sync of 10,000 posts wrote about 30 MB of WAL for it, and spent a quarter
/// of its CPU time keeping it). Built once at the end from the table, it costs one sorted pass.
///
/// ``setListIndexAside()`` drops the index when the store holds few posts, and
/// ``restoreListIndex()`` builds it again. Meanwhile the store stays whole: list queries check
/// whether the index is there and read the table without it (slower, by about ten times for a
/// 10,000-row snapshot), and a store opened without it (a sync killed in the middle) builds it
/// again as it opens.
extension FeedStore {
    /// The index's name.
    static let listRowIndexName = "entry_list_rows"

    /// The index's definition: the one migration v4 created, which a test checks against a
    /// migrated store's schema.
    static let listRowIndexColumns = "sortDate DESC, id DESC, feedId, read, starred, title, thumbnail, excerpt, published, updated"

    /// The statement that builds the index when it is missing.
    static let creatingListRowIndexSQL = "CREATE INDEX IF NOT EXISTS \(listRowIndexName) ON entry (\(listRowIndexColumns))"

    /// The most posts a store may hold for ``setListIndexAside()`` to drop the index: rebuilding
    /// it reads every post (about 7 ms per thousand on a 2-core machine), so a store that holds
    /// many already keeps it, and pays the writes instead.
    public static let listIndexSetAsideLimit = 2_000

    /// Drops the list index before many posts are written at once, when the store holds at
    /// most ``listIndexSetAsideLimit`` posts; whether it did. Call ``restoreListIndex()`` once
    /// the posts are written; a store opened without the index builds it again.
    ///
    /// - Complexity: O(1): a count bounded by the limit, and a drop.
    public func setListIndexAside() async throws(FeedStoreError) -> Bool {
        try await write { db in
            let stored = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM entry LIMIT ?)",
                                          arguments: [Self.listIndexSetAsideLimit + 1]) ?? 0
            guard stored <= Self.listIndexSetAsideLimit, try Self.hasListRowIndex(db) else { return false }
            try db.execute(sql: "DROP INDEX \(Self.listRowIndexName)")
            return true
        }
    }

    /// Builds the list index again if it is missing; does nothing when it is there.
    ///
    /// - Complexity: O(n log n) in the posts stored when it builds, O(1) otherwise.
    public func restoreListIndex() async throws(FeedStoreError) {
        try await write { db in try db.execute(sql: Self.creatingListRowIndexSQL) }
    }

    /// Whether the list index is there now: for tests of what sets it aside.
    package func hasListIndex() async throws(FeedStoreError) -> Bool {
        try await read { db in try Self.hasListRowIndex(db) }
    }

    /// Whether the list index is in the schema `db` sees.
    static func hasListRowIndex(_ db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?)")
        return try Bool.fetchOne(statement, arguments: [listRowIndexName]) ?? false
    }
}
