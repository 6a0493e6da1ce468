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
    /// The stored columns of those of a batch's entries that are stored, found by one
    /// statement: the identifiers go as a JSON array.
    private static let selectStoredSQL = """
        SELECT entryId, \(EntryColumns.content.joined(separator: ", ")) FROM entry
        WHERE feedId = ? AND entryId IN (SELECT value FROM json_each(?))
        """
    /// Stores a new entry; a stored one (an identifier the batch holds twice) is left alone,
    /// for the entry to be compared with it.
    private static let insertSQL = """
        INSERT INTO entry (feedId, entryId, firstSeen, excerpt, read, starred, \(EntryColumns.content.joined(separator: ", ")))
        VALUES (?, ?, ?, ?, ?, ?, \(EntryColumns.content.map { _ in "?" }.joined(separator: ", ")))
        ON CONFLICT (feedId, entryId) DO NOTHING
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
    ///
    /// One statement finds which entries are stored and reads their columns; a new entry then
    /// costs its insert alone, its values bound without GRDB's arguments
    /// (``ParameterBinding``). With a lookup for each entry and GRDB's arguments, storing
    /// 10,000 new posts ran a fifth more instructions (2.34 G against 1.88 G for a refresh of
    /// them, cachegrind), SQLite's own work the same.
    ///
    /// Without `lookingUpStored`, the statement that finds the stored entries ahead is left
    /// out: for entries that are new but for a few, each stored one is found by its insert's
    /// conflict instead, and compared then; the changes reported are the same.
    static func upserting(_ entries: [FeedEntry], into feed: StoredFeed.ID, now: Date, arrivingStates: [EntryFlags] = [],
                          prepared: PreparedColumns? = nil, indexing: Bool = true,
                          lookingUpStored: Bool = true) -> @Sendable (Database) throws -> [EntryChange] {
        precondition(arrivingStates.isEmpty || arrivingStates.count == entries.count, "one state per entry, or none")
        precondition(prepared.map { $0.values.count == entries.count } ?? true, "prepared columns for every entry")
        return { db in
            let feedExists = try db.cachedStatement(sql: "SELECT 1 FROM feed WHERE id = ?")
            guard try Row.fetchOne(feedExists, arguments: [feed]) != nil else {
                throw FeedStoreError.unknownFeed(feed)
            }
            let insert = try db.cachedStatement(sql: insertSQL)
            let update = try db.cachedStatement(sql: updateContentSQL)
            // The entries this call adds have the ids past the largest stored now (the store's
            // transactions run one at a time, and AUTOINCREMENT only grows): they join the
            // index's backlog in one statement at the end. A statement for each (with its id
            // read back) made a first sync's `account add` take 399 ms of CPU against 373.
            let storedUpTo = indexing ? try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM entry")) ?? 0 : 0
            let updateSearchRow = try db.cachedStatement(sql: updateSearchRowSQL)
            let values = entries.indices.map { prepared?.values[$0] ?? EntryColumns.values(of: entries[$0]) }
            let unchanged = lookingUpStored ? try storedEntriesUnchanged(entries, values: values, feed: feed, db)
                : [Bool?](repeating: nil, count: entries.count)
            let firstSeen = now.timeIntervalSince1970.databaseValue
            let changes = try entries.indices.map { index in
                let entry = entries[index]
                func excerpt() -> DatabaseValue {
                    prepared?.excerpts[index] ?? EntryColumns.excerpt(summary: entry.summary, content: entry.content).databaseValue
                }
                let key: [DatabaseValue] = [feed.databaseValue, entry.id.databaseValue]
                if unchanged[index] == nil {
                    let flags = arrivingStates.isEmpty ? EntryFlags() : arrivingStates[index]
                    var binding = ParameterBinding(insert)
                    binding.bind(key)
                    binding.bind(firstSeen)
                    binding.bind(excerpt())
                    binding.bind(flags.isRead.databaseValue)
                    binding.bind(flags.isStarred.databaseValue)
                    binding.bind(values[index])
                    try binding.execute()
                    if db.changesCount > 0 {
                        return EntryChange(entryID: entry.id, state: .new)
                    }
                    // Stored by this batch already: it holds the identifier twice, and this
                    // entry is compared with the first.
                }
                let isUnchanged = try unchanged[index] ?? storedEntryUnchanged(key: key, values: values[index], db)
                if isUnchanged {
                    return EntryChange(entryID: entry.id, state: .unchanged)
                }
                try update.execute(arguments: StatementArguments(values: values[index] + [excerpt()] + key))
                // Indexed again at once if it was indexed (if it waits, it is indexed as it is now).
                if indexing {
                    try updateSearchRow.execute(arguments: StatementArguments(values: [
                        entry.title.databaseValue, entry.author.databaseValue,
                        SearchText.body(summary: entry.summary, content: entry.content).databaseValue,
                    ] + key))
                }
                return EntryChange(entryID: entry.id, state: .modified)
            }
            // Indexed after this transaction (``indexWaitingPosts(limit:)``).
            if indexing, changes.contains(where: { $0.state == .new }) {
                try db.cachedStatement(sql: "INSERT INTO search_backlog (id) SELECT id FROM entry WHERE id > ?").execute(arguments: [storedUpTo])
            }
            return changes
        }
    }

    /// For each of `entries`, whether the stored entry with its identifier has `values`: nil
    /// where none is stored, and for an identifier's second and later places in the batch.
    /// Identifiers are taken as they are stored, up to a NUL (text is bound as GRDB binds it):
    /// `a\0b` after `a` is a second place of `a`, compared when its turn comes with what the
    /// batch wrote before it.
    ///
    /// - Complexity: one statement, O(b log n) for b entries among n stored.
    private static func storedEntriesUnchanged(_ entries: [FeedEntry], values: [[DatabaseValue]], feed: StoredFeed.ID,
                                               _ db: Database) throws -> [Bool?] {
        var unchanged = [Bool?](repeating: nil, count: entries.count)
        guard !entries.isEmpty else { return unchanged }
        var places: [String: Int] = [:]
        places.reserveCapacity(entries.count)
        var identifiers: [String] = []
        identifiers.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let stored = entry.id.utf8.contains(0) ? String(decoding: entry.id.utf8.prefix { $0 != 0 }, as: UTF8.self) : entry.id
            guard places[stored] == nil else { continue }
            places[stored] = index
            identifiers.append(stored)
        }
        let select = try db.cachedStatement(sql: selectStoredSQL)
        let rows = try Row.fetchCursor(select, arguments: [feed, EntryColumns.json(identifiers)])
        // The stored columns are compared where the statement holds them, without copying
        // the row out (a copy made a string of every column's name).
        try withExtendedLifetime(rows) {
            while let row = try rows.next() {
                let identifier: String? = row[0]
                guard let identifier, let index = places[identifier] else { continue }
                unchanged[index] = row.databaseValues.dropFirst().elementsEqual(values[index])
            }
        }
        return unchanged
    }

    /// Whether the entry stored under `key` (its feed and identifier) has `values`.
    private static func storedEntryUnchanged(key: [DatabaseValue], values: [DatabaseValue], _ db: Database) throws -> Bool {
        let select = try db.cachedStatement(sql: selectContentSQL)
        let rows = try Row.fetchCursor(select, arguments: StatementArguments(values: key))
        return try withExtendedLifetime(rows) {
            try rows.next().map { $0.databaseValues.elementsEqual(values) } ?? false
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
