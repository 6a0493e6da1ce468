import GRDB

extension FeedStore {
    /// The schema versions, oldest first. A released version is never edited: a change to the
    /// schema is a new version appended here and registered in ``migrator``.
    enum SchemaVersion: String, CaseIterable {
        case v1
        /// Text written before ingest removed control characters (``FeedText``) is cleaned.
        case v2TextCleaned = "v2-text-cleaned"
        /// Entries keep a plain-text excerpt, so list rows never read summaries or contents.
        case v3Excerpt = "v3-excerpt"
        /// An index that holds every column of a list row, in the list's order: a snapshot reads
        /// the index alone, never the table rows whose summaries and contents sit in between.
        case v4ListRowIndex = "v4-list-row-index"
        /// Feeds a feed server follows for the account (their stream ids), the queue of local
        /// state changes to push to it, and the marks of the last sync.
        case v5Sync = "v5-sync"
        /// `entry_by_date` goes: `entry_list_rows` begins with the same columns, so it serves
        /// every query the other served, and an entry written kept six indexes up to date.
        case v6OneDateIndex = "v6-one-date-index"
        /// The full-text index of every post (``SearchQuery``), built for the posts stored.
        case v7SearchIndex = "v7-search-index"
        /// An index of each entry's state by its id, so that a search filtered by state, feed or
        /// date (`is:unread`) reads it for each match instead of the entry's row: `read`,
        /// `starred` and `firstSeen` sit after the summary and content, which a row of a long
        /// article keeps in overflow pages that SQLite walks to reach them.
        case v8StateIndex = "v8-state-index"
        /// Posts stored wait in `search_backlog` for the index, which is built after the write
        /// that stored them (``FeedStore/indexWaitingPosts(limit:)``): indexing a post costs as
        /// much as storing it, and a refresh or a sync should not wait for it.
        case v9SearchBacklog = "v9-search-backlog"
        /// `entry_by_entry_id` (entryId) becomes `entry_sync_state` (entryId, feedId, read,
        /// starred): a sync compares a server's sets of unread and starred ids with the states
        /// stored, and from the entry's row SQLite walked the overflow pages of its content to
        /// reach `read` and `starred`, which it stores after it (a sync with nothing new spent
        /// 300 ms on 10,000 posts doing so; the index reads in 8).
        case v10SyncStateIndex = "v10-sync-state-index"
    }

    /// Every migration of this build, in order.
    static var migrator: DatabaseMigrator { migrator(progress: nil) }

    /// Every migration of this build, in order; `progress` hears how far a migration that
    /// reads every post is, as (posts done, posts in all).
    static func migrator(progress: (@Sendable (Int, Int) -> Void)?) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(SchemaVersion.v1.rawValue) { db in
            try db.execute(sql: """
                CREATE TABLE feed (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    url TEXT NOT NULL UNIQUE,
                    title TEXT,
                    link TEXT,
                    etag TEXT,
                    lastModified TEXT,
                    lastRefresh REAL,
                    lastError TEXT,
                    category TEXT
                );
                CREATE TABLE entry (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    feedId INTEGER NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                    entryId TEXT NOT NULL,
                    title TEXT NOT NULL,
                    link TEXT,
                    author TEXT,
                    categories TEXT NOT NULL,
                    published REAL,
                    updated REAL,
                    summary TEXT,
                    content TEXT,
                    thumbnail TEXT,
                    enclosures TEXT NOT NULL,
                    truncated INTEGER NOT NULL,
                    read INTEGER NOT NULL DEFAULT 0,
                    starred INTEGER NOT NULL DEFAULT 0,
                    firstSeen REAL NOT NULL,
                    sortDate REAL GENERATED ALWAYS AS (COALESCE(published, updated, firstSeen)) VIRTUAL,
                    UNIQUE (feedId, entryId)
                );
                CREATE INDEX entry_by_date ON entry (sortDate DESC, id DESC);
                CREATE INDEX entry_by_feed_date ON entry (feedId, sortDate DESC, id DESC);
                CREATE INDEX entry_unread_by_date ON entry (sortDate DESC, id DESC) WHERE read = 0;
                """)
        }
        migrator.registerMigration(SchemaVersion.v2TextCleaned.rawValue) { db in
            try cleanStoredText(db)
        }
        migrator.registerMigration(SchemaVersion.v3Excerpt.rawValue) { db in
            try db.execute(sql: "ALTER TABLE entry ADD COLUMN excerpt TEXT")
            let update = try db.makeStatement(sql: "UPDATE entry SET excerpt = ? WHERE id = ?")
            let rows = try Row.fetchCursor(db, sql: "SELECT id, summary, content FROM entry WHERE COALESCE(summary, content) IS NOT NULL")
            var excerpts: [(Int64, String)] = []
            while let row = try rows.next() {
                excerpts.append((row[0], EntryColumns.excerpt(summary: row[1], content: row[2])))
            }
            for (id, excerpt) in excerpts {
                try update.execute(arguments: [excerpt, id])
            }
        }
        migrator.registerMigration(SchemaVersion.v4ListRowIndex.rawValue) { db in
            try db.execute(sql: """
                CREATE INDEX entry_list_rows ON entry (
                    sortDate DESC, id DESC, feedId, read, starred, title, thumbnail, excerpt, published, updated)
                """)
        }
        migrator.registerMigration(SchemaVersion.v5Sync.rawValue) { db in
            try db.execute(sql: """
                ALTER TABLE feed ADD COLUMN remoteId TEXT;
                CREATE UNIQUE INDEX feed_by_remote_id ON feed (remoteId) WHERE remoteId IS NOT NULL;
                -- A server names items by id alone, across feeds.
                CREATE INDEX entry_by_entry_id ON entry (entryId);
                CREATE TABLE sync_queue (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    itemId TEXT NOT NULL,
                    action TEXT NOT NULL
                );
                CREATE INDEX sync_queue_by_item ON sync_queue (itemId);
                CREATE TABLE sync_mark (
                    key TEXT PRIMARY KEY,
                    value REAL NOT NULL
                );
                """)
        }
        migrator.registerMigration(SchemaVersion.v6OneDateIndex.rawValue) { db in
            try db.execute(sql: "DROP INDEX IF EXISTS entry_by_date")
        }
        migrator.registerMigration(SchemaVersion.v7SearchIndex.rawValue) { db in
            try createSearchIndex(db, progress: progress)
        }
        migrator.registerMigration(SchemaVersion.v8StateIndex.rawValue) { db in
            try db.execute(sql: "CREATE INDEX entry_state ON entry (id, read, starred, feedId, sortDate)")
        }
        migrator.registerMigration(SchemaVersion.v9SearchBacklog.rawValue) { db in
            try createSearchBacklog(db)
        }
        migrator.registerMigration(SchemaVersion.v10SyncStateIndex.rawValue) { db in
            try db.execute(sql: """
                CREATE INDEX entry_sync_state ON entry (entryId, feedId, read, starred);
                DROP INDEX entry_by_entry_id;
                """)
        }
        return migrator
    }

    /// Runs every stored text field through the rule ingest applies (``FeedText``), for
    /// databases written before it did: titles, authors, categories, ids, summaries, contents,
    /// feed titles, categories and errors. Rows that are already clean are not written.
    ///
    /// Two ids of one feed that differ only in removed characters become one entry: the
    /// cleaned row replaces the other, since a refresh would now match both to it.
    /// - Complexity: O(n) in the stored text; memory holds the rows that change.
    static func cleanStoredText(_ db: Database) throws {
        var entries: [(rowID: Int64, entry: FeedEntry)] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT id, entryId, \(EntryColumns.content.joined(separator: ", ")) FROM entry")
        while let row = try rows.next() {
            let entry = try EntryColumns.entry(from: row)
            let clean = entry.sanitized()
            if clean != entry { entries.append((row["id"], clean)) }
        }
        let assignments = (["entryId"] + EntryColumns.content).map { "\($0) = ?" }.joined(separator: ", ")
        for (rowID, entry) in entries {
            try db.execute(
                sql: "UPDATE OR REPLACE entry SET \(assignments) WHERE id = ?",
                arguments: StatementArguments(values: [entry.id.databaseValue] + EntryColumns.values(of: entry) + [rowID.databaseValue]))
        }

        var feeds: [(rowID: Int64, fields: [String?])] = []
        let feedRows = try Row.fetchCursor(db, sql: "SELECT id, title, category, lastError FROM feed")
        while let row = try feedRows.next() {
            let fields: [String?] = [row["title"], row["category"], row["lastError"]]
            let clean = fields.map { $0.map(FeedText.line) }
            if clean != fields { feeds.append((row["id"], clean)) }
        }
        for (rowID, fields) in feeds {
            try db.execute(
                sql: "UPDATE feed SET title = ?, category = ?, lastError = ? WHERE id = ?",
                arguments: StatementArguments(values: fields.map(\.databaseValue) + [rowID.databaseValue]))
        }
    }

    /// Brings the database to this build's schema, or refuses a newer one untouched.
    /// Refuses a database this build cannot read as it is: a newer one, or an older one that
    /// needs migrating.
    func checkSchemaWithoutMigrating() throws(FeedStoreError) {
        let migrator = Self.migrator
        let known = Set(SchemaVersion.allCases.map(\.rawValue))
        let (unknown, complete) = try readWhileOpening { db in
            (try migrator.appliedIdentifiers(db).subtracting(known).sorted(), try migrator.hasCompletedMigrations(db))
        }
        guard unknown.isEmpty else { throw .newerSchema(unknownVersions: unknown) }
        guard complete else { throw .readOnlyNeedsUpgrade }
    }

    func migrate(progress: (@Sendable (Int, Int) -> Void)? = nil) throws(FeedStoreError) {
        let migrator = Self.migrator(progress: progress)
        let known = Set(SchemaVersion.allCases.map(\.rawValue))
        let (unknown, complete, listIndexMissing) = try readWhileOpening { db in
            let complete = try migrator.hasCompletedMigrations(db)
            return (try migrator.appliedIdentifiers(db).subtracting(known).sorted(), complete,
                    complete ? !(try Self.hasListRowIndex(db)) : false)
        }
        guard unknown.isEmpty else {
            throw .newerSchema(unknownVersions: unknown)
        }
        // Up to date, as at nearly every launch: nothing to write, nothing to wait for, unless a
        // sync that set the list index aside ended before it built it again.
        if !complete {
            do {
                try migrator.migrate(writer)
            } catch {
                throw FeedStoreError(error)
            }
        }
        if listIndexMissing || !complete {
            // Not a reason to refuse the store (another process may hold the write lock): the
            // list reads the table meanwhile.
            try? writer.write { db in try db.execute(sql: Self.creatingListRowIndexSQL) }
        }
    }
}
