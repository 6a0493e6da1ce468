import CSearchRank
import Foundation
import GRDB

/// The SQLite store of feeds and entries, through GRDB.
///
/// On disk the database runs in WAL mode: readers never wait for a refresh that is writing, and a
/// process killed mid-write loses at most the transaction it had not committed. Every operation
/// runs one transaction on GRDB's own queues and suspends its caller meanwhile, so no thread of
/// the cooperative pool, and never the main actor, waits for SQLite or the disk. The store is
/// `Sendable`; GRDB serializes writes. Opening a store is synchronous (it migrates the schema).
///
/// The schema is versioned from the first version on (see `FeedStore+Migrations.swift`): opening
/// an older file migrates it in place, and a file from a newer build is refused with
/// ``FeedStoreError/newerSchema(unknownVersions:)``.
public final class FeedStore: FeedStoring {
    let writer: any DatabaseWriter
    /// Whether writes keep the search index (a post stored waits for it in `search_backlog`):
    /// always, but for the benchmark that measures what the index costs.
    let indexesText: Bool

    /// Whether the store was opened for reading only (``init(readingOnly:)``): every write fails.
    public var isReadOnly: Bool { writer.configuration.readonly }

    /// Opens, creating it if needed, the database file at `path`, and migrates it to this build's
    /// schema.
    ///
    /// - Parameter migrationProgress: Told, on the opening thread, how far a migration that
    ///   reads every post has come, as (posts done, posts in all): building the search index
    ///   for a store of many posts takes seconds.
    public convenience init(path: String, migrationProgress: (@Sendable (Int, Int) -> Void)? = nil) throws(FeedStoreError) {
        try self.init(path: path, indexingText: true, migrationProgress: migrationProgress)
    }

    /// A store whose writes keep the search index (`indexingText`) or, only to measure what the
    /// index costs, leave it empty.
    package convenience init(path: String, indexingText: Bool, migrationProgress: (@Sendable (Int, Int) -> Void)? = nil) throws(FeedStoreError) {
        let writer: DatabasePool
        do {
            writer = try DatabasePool(path: path, configuration: Self.configuration(creating: !Self.holdsData(path)))
        } catch {
            throw FeedStoreError(error)
        }
        try self.init(writer: writer, indexingText: indexingText, migrationProgress: migrationProgress)
    }

    /// Opens the existing database file at `path` for reading only, for a file or folder this
    /// user may not write: nothing is created, locked for writing or migrated, and every write
    /// fails. SQLite's read-only mode needs the WAL index beside the file, which only a writer
    /// can create; where there is none (no writer has the file open), the file is read as
    /// immutable.
    ///
    /// - Throws: ``FeedStoreError/readOnlyNeedsUpgrade`` for a file an older build wrote, which
    ///   only a writer can migrate.
    public convenience init(readingOnly path: String) throws(FeedStoreError) {
        var configuration = Self.configuration
        configuration.readonly = true
        // A URI, so that SQLite takes its parameters: '?', '#' and '%' in the path escaped.
        let escaped = path.unicodeScalars.map { "?#%".unicodeScalars.contains($0) ? String(format: "%%%02X", $0.value) : String($0) }.joined()
        var failure: (any Error)?
        for parameters in ["mode=ro", "immutable=1"] {
            do {
                let queue = try DatabaseQueue(path: "file:\(escaped)?\(parameters)", configuration: configuration)
                // Opening is lazy: the first read shows whether SQLite can read the file this way.
                try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
                try self.init(reader: queue)
                return
            } catch let error as FeedStoreError {
                throw error
            } catch {
                failure = error
            }
        }
        throw FeedStoreError(failure!)
    }

    /// A store in memory, empty, for tests and previews.
    public convenience init() throws(FeedStoreError) {
        let writer: DatabaseQueue
        do {
            writer = try DatabaseQueue(configuration: Self.configuration)
        } catch {
            throw FeedStoreError(error)
        }
        try self.init(writer: writer)
    }

    init(writer: any DatabaseWriter, indexingText: Bool = true, migrationProgress: (@Sendable (Int, Int) -> Void)? = nil) throws(FeedStoreError) {
        self.writer = writer
        indexesText = indexingText
        try migrate(progress: migrationProgress)
    }

    /// A store over a read-only connection: its schema is checked, not migrated.
    private init(reader: DatabaseQueue) throws(FeedStoreError) {
        writer = reader
        indexesText = true
        try checkSchemaWithoutMigrating()
    }

    /// Whether a file at `path` holds anything: a database, or whatever is there (never taken
    /// for a new store).
    private static func holdsData(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) != 0 ? errno != ENOENT : status.st_size > 0
    }

    private static var configuration: Configuration { configuration(creating: false) }

    /// The configuration of every connection; `creating` a store in a file that is new or empty.
    ///
    /// A new store is switched to WAL mode with SQLite's syncing off: the switch writes the
    /// file's first page through a rollback journal, with four `fsync`s (a fifth of `scrollwork
    /// add`'s time on this machine), to keep an empty file from being lost. GRDB then sets
    /// WAL's usual `synchronous = NORMAL` before anything is stored.
    private static func configuration(creating: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // The reader's commands and its UI may open the same file; wait for the other's short
        // transactions instead of failing at once with SQLITE_BUSY.
        configuration.busyMode = .timeout(10)
        // Every connection ranks searches with the same function (see `CSearchRank`).
        configuration.prepareDatabase { db in
            if creating { try db.execute(sql: "PRAGMA synchronous = OFF") }
            // A checkpoint every 64 MB of WAL rather than SQLite's 4 MB: a sync or a refresh of
            // thousands of posts checkpointed a dozen times, each copying pages written again
            // since and syncing the file twice (a fifth of a first sync's 10,000 posts). A WAL
            // reset after a checkpoint is cut back to 16 MB on disk.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384; PRAGMA journal_size_limit = 16777216")
            let code = scrollwork_register_search_rank(UnsafeMutableRawPointer(db.sqliteConnection))
            guard code == 0 else {  // SQLITE_OK
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "this SQLite has no FTS5, which search needs")
            }
        }
        return configuration
    }

    /// Runs `body` in a write transaction on GRDB's writer queue, suspending meanwhile instead of
    /// blocking a thread of the cooperative pool; GRDB's errors become ``FeedStoreError``.
    ///
    /// Called from a ``BackgroundLane`` (a task that prefers one as its executor), the
    /// transaction runs on the lane's thread instead, blocking it, at the lane's priority; GRDB
    /// serializes it with every other write as before.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(FeedStoreError) -> T {
        do {
            if #available(macOS 15, iOS 18, *), BackgroundLane.runsOnCurrentThread {
                return try writeBlocking(body)
            }
            return try await writer.write(body)
        } catch {
            throw FeedStoreError(error)
        }
    }

    /// GRDB's synchronous write, which runs `body` on the calling thread: out of an async
    /// context, where that write is disfavoured.
    private func writeBlocking<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.write(body)
    }

    /// Runs `body`, which only reads, blocking: only while the store opens, to check its
    /// schema, since an initializer cannot suspend, and for ``firstLook(_:)``. It runs on the
    /// writer's connection, open already: a pool would open a reader's connection for it.
    func readWhileOpening<T>(_ body: (Database) throws -> T) throws(FeedStoreError) -> T {
        do {
            // One deferred transaction, so that its reads see one state of the file; in WAL
            // mode it takes no write lock.
            return try writer.writeWithoutTransaction { db in
                try db.readOnly {
                    var result: T?
                    try db.inTransaction(.deferred) {
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
            }
        } catch {
            throw FeedStoreError(error)
        }
    }

    /// Copies the write-ahead log into the database file and empties it, so that the file's
    /// size is the store's: for measuring it.
    package func checkpoint() async throws(FeedStoreError) {
        do {
            _ = try await writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        } catch {
            throw FeedStoreError(error)
        }
    }

    /// Runs `body` with a consistent snapshot of the database, suspending meanwhile.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(FeedStoreError) -> T {
        do {
            return try await writer.read(body)
        } catch {
            throw FeedStoreError(error)
        }
    }
}

extension FeedStoreError {
    /// Keeps a store error thrown inside a transaction; anything else came from SQLite.
    init(_ error: any Error) {
        if let error = error as? FeedStoreError {
            self = error
        } else if let error = error as? DatabaseError {
            self = .database(message: error.description)
        } else {
            self = .database(message: String(describing: error))
        }
    }
}
