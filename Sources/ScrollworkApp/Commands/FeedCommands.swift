import ArgumentParser
import Feeds
import Foundation
import ScrollworkReader
import HTTPLoading

/// Where the reader's files live, for every command that uses them: the database, and for
/// the reader the image cache (see ``AppPaths``).
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The directory of the database and the image cache.",
            discussion: "Default: $XDG_DATA_HOME/scrollwork, else ~/.local/share/scrollwork.",
            valueName: "dir"))
    var dataDirectory: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The SQLite database of feeds and entries.",
            discussion: "Default: scrollwork.sqlite in --data-dir when given, else $SCROLLWORK_DATABASE, else scrollwork.sqlite in the data directory."))
    var database: String?
}

/// Where a command finds the store: `--data-dir` and `--database`, parsed (``StoreOptions``)
/// or not (a bare `scrollwork`, ``ReaderLaunch``).
protocol StoreLocating {
    /// `--data-dir`, if given.
    var dataDirectory: String? { get }
    /// `--database`, if given.
    var database: String? { get }
}

extension StoreOptions: StoreLocating {}

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
            return try FeedStore(path: url.path)
        } catch let error as FeedStoreError {
            throw Failure("\(url.path): \(error.description)")
        } catch {
            throw Failure("\(url.path): \(error.localizedDescription)")
        }
    }
}

/// Runs `body`, turning a ``Failure`` (or a store or settings error) into its message and
/// exit status 1.
/// It runs on the caller's actor, so the reader's main-actor setup goes through it too.
@discardableResult
nonisolated(nonsending) func reportingFailures<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let failure as Failure {
        printError("scrollwork \(name): \(failure.description)")
        throw ExitCode.failure
    } catch let error as FeedStoreError {
        printError("scrollwork \(name): \(error.description)")
        throw ExitCode.failure
    } catch let error as SettingsError {
        for line in error.description.split(separator: "\n") { printError("scrollwork \(name): \(line)") }
        throw ExitCode.failure
    }
}

/// A feed address from the command line: a URL, or a path to a file.
func feedURL(_ text: String) throws -> URL {
    if let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme), url.host != nil || scheme == "file" {
        return url
    }
    guard !text.contains("://") else { throw ValidationError("\(text) is not an http, https or file URL") }
    return URL(fileURLWithPath: text).standardizedFileURL
}

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Subscribe to a feed (a URL or a file); `refresh` fetches it.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The feed's URL, or a path to a feed file.") var url: String
    @Option(help: "A category to file the feed under.") var category: String?

    func validate() throws {
        _ = try feedURL(url)
        let depth = category.map { Subscription.folders(ofCategory: $0).count } ?? 0
        guard depth <= OPML.maxCategoryDepth else {
            throw ValidationError("--category is \(depth) folders deep; categories nest at most \(OPML.maxCategoryDepth) levels")
        }
    }

    func run() async throws {
        let url = try feedURL(self.url)
        try await reportingFailures("add") {
            let feed = try await store.open().addFeed(url: url, title: nil, category: category)
            Console.print("added \(feed.url.absoluteString)")
        }
    }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Unsubscribe from a feed and delete its stored entries.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The feed's URL (or path) as added.") var url: String

    func validate() throws { _ = try feedURL(url) }

    func run() async throws {
        let url = try feedURL(self.url)
        try await reportingFailures("remove") {
            let store = try store.openExisting()
            guard let feed = try await store.feed(url: url) else { throw Failure("not subscribed to \(url.absoluteString)") }
            try await store.removeFeed(feed.id)
            Console.print("removed \(url.absoluteString)")
        }
    }
}

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Subscribe to the feeds of an OPML file; nested outlines become categories.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The OPML file.") var file: String

    func run() async throws {
        try await reportingFailures("import") {
            // An OPML file is no larger than the feeds it lists may be.
            let data: [UInt8]
            do { data = try FileBytes.read(file, limit: FeedParser.Configuration().maxFeedBytes) } catch {
                throw Failure("cannot read \(error)")
            }
            let listed: [Subscription]
            do {
                listed = try OPML.subscriptions(from: data, url: URL(fileURLWithPath: file))
            } catch {
                throw Failure("\(file): \(error)")
            }
            // A document may name anything; only http and https feeds are subscribed (a file
            // feed is subscribed by `add PATH`, never by a document).
            let subscriptions = listed.filter { RequestTarget.isFetchable($0.feedURL) }
            for refused in listed where !RequestTarget.isFetchable(refused.feedURL) {
                printError("scrollwork import: skipped \(refused.feedURL.absoluteString): only http and https feeds are imported")
            }
            // Folder names may hold slashes, which the stored category splits at.
            for subscription in subscriptions {
                let depth = subscription.storedCategory.map { Subscription.folders(ofCategory: $0).count } ?? 0
                guard depth <= OPML.maxCategoryDepth else {
                    throw Failure("\(file): \(OPMLError.categoryTooDeep(feedURL: subscription.feedURL, depth: depth, limit: OPML.maxCategoryDepth))")
                }
            }
            let store = try store.open()
            var added = 0
            for subscription in subscriptions {
                guard try await store.feed(url: subscription.feedURL) == nil else { continue }
                _ = try await store.addFeed(url: subscription.feedURL, title: subscription.title, category: subscription.storedCategory)
                added += 1
            }
            let skipped = listed.count - subscriptions.count
            Console.print("imported \(added) feeds (\(subscriptions.count - added) already subscribed\(skipped > 0 ? ", \(skipped) skipped" : ""))")
        }
    }
}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Print the subscriptions as OPML, categories as nested outlines.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await reportingFailures("export") {
            let subscriptions = try await store.openForReading().feeds().map(Subscription.init)
            do {
                Console.printExact(try OPML.document(for: subscriptions), terminator: "")
            } catch {
                throw Failure("\(error); remove the feed and add it again with a shorter --category")
            }
        }
    }
}

/// Categories as the store keeps them: a subscription's folders joined by `/`, as
/// `add --category` takes them.
extension Subscription {
    /// The folders of the stored category `category`: its parts between slashes, empty ones
    /// left out.
    static func folders(ofCategory category: String) -> [String] {
        category.split(separator: "/").map(String.init)
    }

    /// The subscription to `feed`, in the folders of its category.
    init(_ feed: StoredFeed) {
        self.init(feedURL: feed.url, title: feed.title, siteURL: feed.link, categories: feed.category.map(Self.folders(ofCategory:)) ?? [])
    }

    /// The category to store: the folders joined by `/`, `nil` for none.
    var storedCategory: String? {
        categories.isEmpty ? nil : categories.joined(separator: "/")
    }
}

struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Fetch every feed and store its entries; one line per feed: new, modified, unchanged, or the error.",
        discussion: """
            Feeds are fetched conditionally (ETag, Last-Modified), a few at once. A feed that \
            fails keeps its stored entries and records the error. With --json, one object per \
            feed: {"feed", "new", "modified", "unchanged", "malformed"}, {"feed", "notModified": \
            true}, or {"feed", "error"}; "movedTo" when the feed moved permanently. Exit \
            status 1 if any feed failed.
            """)

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print one JSON object per feed.") var json = false

    func run() async throws {
        var anyFailed = false
        try await reportingFailures("refresh") {
            let fetcher = FeedFetcher()
            let outcomes: [FeedRefreshOutcome]
            do {
                outcomes = try await FeedRefresher(store: try store.openExisting(), fetcher: fetcher).refreshAll()
            } catch {
                try? await fetcher.shutdown()
                throw error
            }
            try? await fetcher.shutdown()
            for outcome in outcomes {
                if case .failed = outcome.status { anyFailed = true }
                if json { Console.printExact(Self.json(outcome)) } else { Console.print(Self.line(outcome)) }
            }
            if outcomes.isEmpty && !json { Console.print("no feeds: add one with `scrollwork add URL`") }
        }
        if anyFailed { throw ExitCode.failure }
    }

    static func line(_ outcome: FeedRefreshOutcome) -> String {
        let name = outcome.feed.url.absoluteString
        let moved = outcome.movedTo.map { " (moved to \($0.absoluteString))" } ?? ""
        switch outcome.status {
        case let .refreshed(new, modified, unchanged, malformed):
            return "\(name): \(new) new, \(modified) modified, \(unchanged) unchanged\(malformed ? " (malformed, salvaged)" : "")\(moved)"
        case .notModified:
            return "\(name): not modified\(moved)"
        case .failed(let message):
            return "\(name): error: \(message)"
        }
    }

    static func json(_ outcome: FeedRefreshOutcome) -> String {
        var fields = [("feed", JSONText.quoted(outcome.feed.url.absoluteString))]
        switch outcome.status {
        case let .refreshed(new, modified, unchanged, malformed):
            fields += [("new", "\(new)"), ("modified", "\(modified)"), ("unchanged", "\(unchanged)"), ("malformed", "\(malformed)")]
        case .notModified:
            fields.append(("notModified", "true"))
        case .failed(let message):
            fields.append(("error", JSONText.quoted(message)))
        }
        if let moved = outcome.movedTo { fields.append(("movedTo", JSONText.quoted(moved.absoluteString))) }
        return "{" + fields.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}"
    }
}

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List stored entries, newest first across feeds.",
        discussion: """
            With --json, one object per entry: {"id", "feed", "title", "link", "published", \
            "read", "starred"}, dates in RFC 3339 UTC or null.
            """)

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print one JSON object per entry.") var json = false
    @Flag(help: "Only unread entries.") var unread = false
    @Option(help: "Only entries of this feed (its URL or path as added).") var feed: String?
    @Option(help: "Only entries whose title contains this text.") var search: String?
    @Option(help: "The most entries to list.") var limit = 50

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
    }

    func run() async throws {
        try await reportingFailures("list") {
            let store = try store.openForReading()
            var feedID: StoredFeed.ID?
            if let feed {
                let url = try feedURL(feed)
                guard let stored = try await store.feed(url: url) else { throw Failure("not subscribed to \(url.absoluteString)") }
                feedID = stored.id
            }
            let feeds = Dictionary(uniqueKeysWithValues: try await store.feeds().map { ($0.id, $0) })
            let entries = try await store.entries(EntryQuery(feed: feedID, unreadOnly: unread, titleContains: search, limit: limit))
            for stored in entries {
                let feedName = feeds[stored.feedID].map { $0.title ?? $0.url.absoluteString } ?? ""
                if json {
                    let fields = [
                        ("id", JSONText.quoted(stored.entry.id)), ("feed", JSONText.quoted(feedName)),
                        ("title", JSONText.quoted(stored.entry.title)),
                        ("link", stored.entry.link.map { JSONText.quoted($0.absoluteString) } ?? "null"),
                        ("published", stored.entry.published.map { JSONText.quoted(FeedDate.rfc3339($0)) } ?? "null"),
                        ("read", "\(stored.isRead)"), ("starred", "\(stored.isStarred)"),
                    ]
                    Console.printExact("{" + fields.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}")
                } else {
                    let date = stored.entry.published.map { String(FeedDate.rfc3339($0).prefix(10)) } ?? "undated   "
                    Console.print("\(date)  \(stored.isRead ? " " : "*") \(stored.entry.title)  — \(feedName)")
                }
            }
        }
    }
}
