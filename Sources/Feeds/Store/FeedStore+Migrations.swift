import GRDB

extension FeedStore {
    /// The schema versions, oldest first. A released version is never edited: a change to the
    /// schema is a new version appended here and registered in ``migrator``.
    enum SchemaVersion: String, CaseIterable {
        case v1
    }

    /// Every migration of this build, in order.
    static var migrator: DatabaseMigrator {
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
        return migrator
    }

    /// Brings the database to this build's schema, or refuses a newer one untouched.
    func migrate() throws(FeedStoreError) {
        let migrator = Self.migrator
        let known = Set(SchemaVersion.allCases.map(\.rawValue))
        let unknown = try read { db in
            try migrator.appliedIdentifiers(db).subtracting(known).sorted()
        }
        guard unknown.isEmpty else {
            throw .newerSchema(unknownVersions: unknown)
        }
        do {
            try migrator.migrate(writer)
        } catch {
            throw FeedStoreError(error)
        }
    }
}
