import Foundation
import GRDB

extension FeedStore {
    /// Stores a batch of a feed's entries in one transaction and reports, in input order, which
    /// were new, modified or unchanged.
    ///
    /// A modified entry gets the feed's new fields; its read and starred states and its first-seen
    /// date stay, since they are the reader's. Unchanged entries are not written. When the batch
    /// holds one identifier twice, the second is compared with the first. Either the whole batch
    /// is stored or, on error, none of it.
    ///
    /// - Parameters:
    ///   - entries: The entries, as parsed.
    ///   - feed: The feed they belong to.
    ///   - now: The first-seen date of new entries.
    /// - Throws: ``FeedStoreError/unknownFeed(_:)`` when no feed has this identifier.
    /// - Complexity: O(b log n) for a batch of b among n stored entries.
    public func upsert(entries: [FeedEntry], feed: StoredFeed.ID, now: Date = Date()) async throws(FeedStoreError) -> [EntryChange] {
        try await write(Self.upserting(entries, into: feed, now: now, indexing: indexesText))
    }

    private static let selectContentSQL =
        "SELECT \(EntryColumns.content.joined(separator: ", ")) FROM entry WHERE feedId = ? AND entryId = ?"
    private static let insertSQL = """
        INSERT INTO entry (feedId, entryId, firstSeen, excerpt, read, starred, \(EntryColumns.content.joined(separator: ", ")))
        VALUES (?, ?, ?, ?, ?, ?, \(EntryColumns.content.map { _ in "?" }.joined(separator: ", ")))
        """
    private static let updateContentSQL = """
        UPDATE entry SET \(EntryColumns.content.map { "\($0) = ?" }.joined(separator: ", ")), excerpt = ?
        WHERE feedId = ? AND entryId = ?
        """

    /// The transaction of ``upsert(entries:feed:now:)``; a new entry arrives with the read and
    /// starred states of `arrivingStates` at its index (a server's), unread and unstarred when
    /// it is empty.
    ///
    /// With `prepared` columns (``PreparedColumns``), the transaction only compares and writes;
    /// without, it works them out itself, and an excerpt only for an entry it writes.
    static func upserting(_ entries: [FeedEntry], into feed: StoredFeed.ID, now: Date, arrivingStates: [EntryFlags] = [],
                          prepared: PreparedColumns? = nil, indexing: Bool = true) -> @Sendable (Database) throws -> [EntryChange] {
        precondition(arrivingStates.isEmpty || arrivingStates.count == entries.count, "one state per entry, or none")
        precondition(prepared.map { $0.values.count == entries.count } ?? true, "prepared columns for every entry")
        return { db in
            let feedExists = try db.cachedStatement(sql: "SELECT 1 FROM feed WHERE id = ?")
            guard try Row.fetchOne(feedExists, arguments: [feed]) != nil else {
                throw FeedStoreError.unknownFeed(feed)
            }
            let select = try db.cachedStatement(sql: selectContentSQL)
            let insert = try db.cachedStatement(sql: insertSQL)
            let update = try db.cachedStatement(sql: updateContentSQL)
            let waitForIndex = try db.cachedStatement(sql: "INSERT INTO search_backlog (id) VALUES (?)")
            let updateSearchRow = try db.cachedStatement(sql: updateSearchRowSQL)
            return try entries.indices.map { index in
                let entry = entries[index]
                let values = prepared?.values[index] ?? EntryColumns.values(of: entry)
                func excerpt() -> DatabaseValue {
                    prepared?.excerpts[index] ?? EntryColumns.excerpt(summary: entry.summary, content: entry.content).databaseValue
                }
                let key: [DatabaseValue] = [feed.databaseValue, entry.id.databaseValue]
                // The stored columns are compared where the statement holds them, without
                // copying the row out (a copy made a string of every column's name).
                let rows = try Row.fetchCursor(select, arguments: StatementArguments(values: key))
                let stored: Bool? = try withExtendedLifetime(rows) {
                    try rows.next().map { $0.databaseValues.elementsEqual(values) }
                }
                guard let isUnchanged = stored else {
                    let excerpt = excerpt()
                    let flags = arrivingStates.isEmpty ? EntryFlags() : arrivingStates[index]
                    try insert.execute(arguments: StatementArguments(values: key + [now.timeIntervalSince1970.databaseValue, excerpt,
                                                                                    flags.isRead.databaseValue, flags.isStarred.databaseValue] + values))
                    // Indexed after this transaction (``indexWaitingPosts(limit:)``).
                    if indexing { try waitForIndex.execute(arguments: [db.lastInsertedRowID]) }
                    return EntryChange(entryID: entry.id, state: .new)
                }
                if isUnchanged {
                    return EntryChange(entryID: entry.id, state: .unchanged)
                }
                try update.execute(arguments: StatementArguments(values: values + [excerpt()] + key))
                // Indexed again at once if it was indexed (if it waits, it is indexed as it is now).
                if indexing {
                    try updateSearchRow.execute(arguments: StatementArguments(values: [
                        entry.title.databaseValue, entry.author.databaseValue,
                        SearchText.body(summary: entry.summary, content: entry.content).databaseValue,
                    ] + key))
                }
                return EntryChange(entryID: entry.id, state: .modified)
            }
        }
    }

    /// The columns of entries worked out ahead of their write: what storing an entry costs
    /// outside the database (its excerpt, its JSON and its values), done where it can run while
    /// another write holds the store.
    struct PreparedColumns: Sendable {
        /// ``EntryColumns/values(of:)`` of each entry.
        var values: [[DatabaseValue]]
        /// The excerpt of each entry.
        var excerpts: [DatabaseValue]

        /// The columns of `entries`.
        ///
        /// - Complexity: O(n) in the entries' text.
        init(_ entries: [FeedEntry]) {
            values = entries.map(EntryColumns.values(of:))
            excerpts = entries.map { EntryColumns.excerpt(summary: $0.summary, content: $0.content).databaseValue }
        }
    }

    /// The reader's two states of an entry.
    struct EntryFlags: Sendable {
        var isRead = false
        var isStarred = false
    }

    /// Marks entries read or unread; identifiers of deleted entries are ignored.
    ///
    /// - Complexity: O(k log n) for k identifiers among n entries.
    public func setRead(_ isRead: Bool, entries: [StoredEntry.ID]) async throws(FeedStoreError) {
        try await write(Self.settingFlag("read", to: isRead, entries: entries))
    }

    /// Stars or unstars entries; identifiers of deleted entries are ignored.
    ///
    /// - Complexity: O(k log n) for k identifiers among n entries.
    public func setStarred(_ isStarred: Bool, entries: [StoredEntry.ID]) async throws(FeedStoreError) {
        try await write(Self.settingFlag("starred", to: isStarred, entries: entries))
    }

    /// The transaction of ``setRead(_:entries:)`` and ``setStarred(_:entries:)``. An entry of
    /// a feed the account's server follows whose state changes has the change queued for the
    /// next sync in the same transaction (``queuedStateChanges()``), so no change is lost to a
    /// crash between the two.
    static func settingFlag(_ column: String, to value: Bool, entries: [StoredEntry.ID]) -> @Sendable (Database) throws -> Void {
        let action = (column == "read" ? (value ? StateChange.read : .unread) : (value ? .starred : .unstarred)).rawValue
        return { db in
            let queue = try db.cachedStatement(sql: """
                INSERT INTO sync_queue (itemId, action)
                SELECT entry.entryId, ? FROM entry JOIN feed ON feed.id = entry.feedId
                WHERE entry.id = ? AND entry.\(column) != ? AND feed.remoteId IS NOT NULL
                """)
            let statement = try db.cachedStatement(sql: "UPDATE entry SET \(column) = ? WHERE id = ?")
            for entry in entries {
                try queue.execute(arguments: [action, entry, value])
                try statement.execute(arguments: [value, entry])
            }
        }
    }

    /// Deletes old entries by `policy`, in one feed or in all, and returns how many it deleted.
    ///
    /// Entries rank newest first by ``StoredEntry/sortDate`` within their feed; protected entries
    /// (starred, and unread unless the policy says otherwise) count in the rank but stay.
    ///
    /// - Parameters:
    ///   - policy: What to keep.
    ///   - feed: The feed to prune; `nil` for every feed.
    ///   - now: The instant ages are measured from.
    /// - Complexity: O(n log n) for the n entries considered.
    public func prune(_ policy: RetentionPolicy, feed: StoredFeed.ID? = nil, now: Date = Date()) async throws(FeedStoreError) -> Int {
        try await write(Self.pruning(policy, feed: feed, now: now))
    }

    /// The transaction of ``prune(_:feed:now:)``.
    static func pruning(_ policy: RetentionPolicy, feed: StoredFeed.ID?, now: Date) -> @Sendable (Database) throws -> Int {
        guard policy.maxEntriesPerFeed != nil || policy.maxAge != nil else {
            return { _ in 0 }
        }
        var arguments: StatementArguments = []
        var scope = ""
        if let feed {
            scope = "WHERE feedId = ?"
            arguments += [feed]
        }
        var conditions = ["starred = 0"]
        if !policy.deletesUnread {
            conditions.append("read = 1")
        }
        if let count = policy.maxEntriesPerFeed {
            conditions.append("rank > ?")
            arguments += [count]
        }
        if let age = policy.maxAge {
            conditions.append("sortDate < ?")
            arguments += [now.timeIntervalSince1970 - age]
        }
        let sql = """
            DELETE FROM entry WHERE id IN (
                SELECT id FROM (
                    SELECT id, read, starred, sortDate,
                        ROW_NUMBER() OVER (PARTITION BY feedId ORDER BY sortDate DESC, id DESC) AS rank
                    FROM entry \(scope)
                )
                WHERE \(conditions.joined(separator: " AND "))
            )
            """
        return { [arguments] db in
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
    }
}
