import Feeds
import Foundation
import ScrollworkReader

/// Where a command finds the store: `--data-dir` and `--database`, parsed (``StoreOptions``)
/// or not (a bare `scrollwork`, ``ReaderLaunch``).
protocol StoreLocating {
    /// `--data-dir`, if given.
    var dataDirectory: String? { get }
    /// `--database`, if given.
    var database: String? { get }
}

extension StoreLocating {
    /// The paths in force for this location, with `configFile` (`--config`) and the
    /// process's environment.
    func paths(configFile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> AppPaths {
        AppPaths(dataDirectory: dataDirectory, database: database, configFile: configFile, environment: environment)
    }

    /// The database path in force.
    var path: String {
        paths().database.path
    }

    /// Opens the store, creating it and its directory if it does not exist yet (`add`,
    /// `import`); a failure is reported and exits with status 1.
    func open() throws -> FeedStore {
        try Self.openStore(at: path, creating: true)
    }

    /// Opens an existing store for a command that has nothing to do without one (`list`,
    /// `refresh`, `remove`, `export`): when there is no database it says how to start and
    /// creates nothing.
    func openExisting() throws -> FeedStore {
        try Self.openStore(at: path, creating: false)
    }

    /// Opens an existing store for a command that only reads it (`list`, `export`): read-only
    /// where this user may not write the file or its folder, so that a database one can only
    /// read can still be listed.
    func openForReading() throws -> FeedStore {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: url.path) else { return try Self.openStore(at: url.path, creating: false) }
        let writable = access(url.path, W_OK) == 0 && access(url.deletingLastPathComponent().path, W_OK) == 0
        guard !writable else { return try Self.openStore(at: url.path, creating: false) }
        do {
            return try FeedStore(readingOnly: url.path)
        } catch {
            throw Failure("\(url.path): \(error.description)")
        }
    }

    /// Opens the store at `path`, creating it and its directory when `creating` (else there
    /// must be one); a failure is a ``Failure`` naming the file.
    static func openStore(at path: String, creating: Bool) throws -> FeedStore {
        let url = URL(fileURLWithPath: path)
        guard creating || FileManager.default.fileExists(atPath: url.path) else {
            throw Failure("no database at \(url.path): subscribe to a feed first with `scrollwork add URL`")
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return try FeedStore(path: url.path, migrationProgress: { reportMigrationProgress(done: $0, total: $1) })
        } catch let error as FeedStoreError {
            throw Failure("\(url.path): \(error.description)")
        } catch {
            throw Failure("\(url.path): \(error.localizedDescription)")
        }
    }
}

/// Says how far a migration that reads every post has come (the search index of a store
/// written before it), on standard error: in place on a terminal, else a line at the start
/// and one at the end.
func reportMigrationProgress(done: Int, total: Int) {
    reportIndexing(done: done, total: total, doing: "building the search index", finished: "built the search index of")
}

/// Says how far indexing the posts stored since the last search has come
/// (``FeedStore/indexAllWaitingPosts(progress:)``), as ``reportMigrationProgress(done:total:)`` does.
func reportWaitingPostsIndexed(done: Int, total: Int) {
    reportIndexing(done: done, total: total, doing: "indexing new posts for search", finished: "indexed")
}

private func reportIndexing(done: Int, total: Int, doing: String, finished: String) {
    let text = "\(doing): \(done) of \(total) posts"
    if isatty(STDERR_FILENO) == 1 {
        Console.showStatus(done == total ? nil : "scrollwork: " + text + "…")
        if done == total { printError("scrollwork: \(finished) \(total) posts") }
    } else if done == 0 || done == total {
        printError("scrollwork: " + text)
    }
}
