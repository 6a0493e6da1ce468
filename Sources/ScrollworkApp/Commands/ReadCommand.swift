import ArgumentParser
import ContentLoading
import Feeds
import FeedsHTTP
import Foundation
import ScrollworkDemo
import ScrollworkReader
import TerminalUI

/// `scrollwork` (or `scrollwork read`): the terminal reader. With no subscriptions, or with
/// `--demo`, it reads the embedded demo feed, served over HTTP on 127.0.0.1.
struct ReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Open the terminal reader (the default command); with no subscriptions, the embedded demo.",
        discussion: """
            Keys: j/k or arrows scroll, space and b page, g and G go to the top and bottom, r \
            refreshes, q quits. The demo serves a generated feed of 500 posts with pictures on \
            127.0.0.1, changing every 20 seconds, and keeps its database in a temporary folder.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var config: ConfigOptions
    @Flag(help: "Read the embedded demo feed, whatever the subscriptions.") var demo = false

    /// The launch these options ask for.
    var launch: ReaderLaunch {
        ReaderLaunch(dataDirectory: store.dataDirectory, database: store.database, configFile: config.file, demo: demo)
    }

    @MainActor
    func run() async throws {
        try await launch.run()
    }
}

/// What `scrollwork read` does, apart from its command line: the store, the settings file and
/// the demo it asks for, and the reader run with them.
///
/// A bare `scrollwork`, the reader as it is mostly started, needs no command line parsed:
/// ``bare(arguments:)`` gives its launch at once. ArgumentParser builds its view of a command
/// by reflection, and on a cold start the runtime's first lookups of those types' conformances
/// (each a search of the executable's 9,400) cost 3.5–4 ms, a fifth of the time to the first
/// screen.
struct ReaderLaunch: StoreLocating, Equatable {
    /// `--data-dir`, if given.
    var dataDirectory: String?
    /// `--database`, if given.
    var database: String?
    /// `--config`, if given.
    var configFile: String?
    /// `--demo`: the embedded demo feed, whatever the subscriptions.
    var demo = false

    /// The launch of `scrollwork` run with `arguments` (the process's, without its name) when
    /// they need no parser: none at all, the reader with every default. Anything else is
    /// ArgumentParser's (nil), however simple, so that one parser reads every option.
    static func bare(arguments: [String]) -> ReaderLaunch? {
        arguments.isEmpty ? ReaderLaunch() : nil
    }

    @MainActor
    func run() async throws {
        // The paths, from the few variables they are made of: the store starts opening before
        // the whole environment is read (Foundation's copy of it takes most of a millisecond).
        let files = paths(configFile: configFile, environment: Self.variables(AppPaths.environmentVariables))
        // The subscriptions' store opens on a thread of its own, with a first look at the posts,
        // while the settings load and the terminal is set up (on a cold start, opening takes
        // milliseconds: SQLite's files, GRDB's set-up, the schema).
        let subscriptions = demo ? nil : Self.openingSubscriptions(database: files.database)
        let environment = ProcessInfo.processInfo.environment
        // A settings file with a mistake is reported before the terminal is taken.
        let settings = try await reportingFailures("read") { try ReaderSettings.load(from: files.configFile) }
        guard let session = TerminalSession() else {
            printError("scrollwork: the reader needs a terminal; `scrollwork list` prints the stored entries")
            throw ExitCode.failure
        }
        // Pictures start as the environment suggests; the terminal's answers, which come in with
        // the input (in a few milliseconds, or never), decide once they are all there.
        let imageMode = settings.imageMode
        let (pictures, notice) = PictureMode.resolve(
            imageMode, capabilities: TerminalCapabilities(cellPixelSize: session.size?.cellPixelSize), environment: environment)
        var options = Reader.Options(settings: settings, colorMode: ColorMode.detect(environment: environment), pictures: pictures)
        // A search saved in the reader goes to the settings file (not in the demo, whose
        // posts are gone with it).
        options.settingsFile = demo || subscriptions == nil ? nil : files.configFile
        // Over SSH, a picture's bytes cost more than the time to compress them.
        options.compressesPictures = environment["SSH_CONNECTION"] != nil || environment["SSH_TTY"] != nil
        // Pictures are kept on disk between runs (the shelf is made while the store opens); the
        // demo's in its own folder, with a shelf of its own.
        let subscribedShelf = ThumbnailShelf(diskCache: DiskCache<URL>(directory: files.imageCache))
        let source = try await reportingFailures("read") {
            do {
                return try await openSource(subscriptions)
            } catch let error as Failure {
                throw error
            } catch let error as FeedStoreError {
                throw error
            } catch {
                throw Failure("cannot start the demo: \(error)")
            }
        }
        let (feedStore, demoServer, scratch, useDemo) = (source.store, source.demo, source.scratch, source.demo != nil)
        let fetcher = FeedFetcher()
        defer {
            if let scratch { try? FileManager.default.removeItem(at: scratch) }
        }
        do {
            try session.start()
        } catch {
            printError("scrollwork: cannot take the terminal: \(error)")
            throw ExitCode.failure
        }
        let shelf = scratch.map { ThumbnailShelf(diskCache: DiskCache<URL>(directory: $0.appendingPathComponent("images"))) } ?? subscribedShelf
        // With an account, r and R and the timer sync with its server; the password cannot be
        // asked on the reader's screen, so a login needs the account's password command.
        let accountSync = useDemo ? nil : (try? AccountSync.account(for: files.database, settings: settings)).flatMap { $0 }.map {
            AccountSync(account: $0, store: feedStore, database: files.database, prompting: false)
        }
        let reader = Reader(
            terminal: TerminalIO(session: session), store: feedStore, refresher: FeedRefresher(store: feedStore, fetcher: fetcher),
            accountSync: accountSync,
            title: useDemo ? "Scrollwork demo (add a real feed: scrollwork add URL)" : "Scrollwork",
            frames: LiveFrames(), thumbnails: shelf, options: options, notice: notice)
        if let firstRows = source.firstRows { reader.showFirst(firstRows, of: Reader.firstQuery) }
        reader.atRest = { MallocArenas.trim() }
        if ![.always(.none), .always(.blocks), .always(.sextants)].contains(imageMode) {
            // The terminal outside tmux is asked only from the pane in front: tmux types its
            // answers into the active pane.
            reader.askCapabilities(throughTmux: TmuxPassthrough.mayAsk(environment: environment), insideTmux: environment["TMUX"] != nil) {
                PictureMode.resolve(imageMode, capabilities: $0, environment: environment)
            }
        }
        await reader.run()
        // A reader quit at once may leave answers on their way, which the shell would show.
        session.discardAnswers(reader.awaitedAnswers)
        session.stop()
        try? await fetcher.shutdown()
        await accountSync?.shutdown()
        try? await demoServer?.stop()
    }

    /// The process's environment variables among `names` that are set.
    private static func variables(_ names: [String]) -> [String: String] {
        var variables: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return variables
    }

    /// What the reader reads: the store, the rows of its first screen when they were read as it
    /// opened, and the demo's server and folder when it is the demo.
    private struct Source {
        var store: FeedStore
        var firstRows: [EntryRow]?
        var demo: DemoServer?
        var scratch: URL?
    }

    /// The subscriptions' store (`subscriptions`, opening), or the demo's (server started, feed
    /// added, its posts stored) when there are none or `--demo` asks for it.
    private func openSource(_ subscriptions: BlockingWork<Subscriptions?>?) async throws -> Source {
        if let subscribed = try await subscriptions?.value {
            return Source(store: subscribed.store, firstRows: subscribed.firstRows)
        }
        let server = try await DemoServer.start()
        // One folder per user, emptied at every start: a demo killed before it could clean up
        // leaves nothing behind for long.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-demo-\(getuid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let feedStore = try FeedStore(path: directory.appendingPathComponent("demo.sqlite").path)
        let feed = try await feedStore.addFeed(url: server.feedURL, title: "Scrollwork demo")
        // The first screen comes from the demo's posts as the server has them now, stored before
        // it answers (its replies take a distant server's time); the first refresh finds them
        // unchanged, and later ones bring what is new.
        let posts = try FeedDocumentParser().parse(server.document(), url: server.feedURL)
        _ = try await feedStore.upsert(entries: posts.entries, feed: feed.id)
        return Source(store: feedStore, demo: server, scratch: directory)
    }

    /// The subscriptions' store, and the rows the reader's list starts with.
    private struct Subscriptions: Sendable {
        var store: FeedStore
        var firstRows: [EntryRow]
    }

    /// Opens the subscriptions' store at `database` on a thread of its own, at once; the work
    /// gives it with the rows of the list's first query, or nil when the database does not
    /// exist or follows no feed. Opening it creates nothing.
    private static func openingSubscriptions(database: URL) -> BlockingWork<Subscriptions?> {
        BlockingWork { try subscriptions(database: database) }
    }

    /// The store at `database` and its first look, blocking; see ``openingSubscriptions(database:)``.
    private static func subscriptions(database: URL) throws -> Subscriptions? {
        guard FileManager.default.fileExists(atPath: database.path) else { return nil }
        let store = try openStore(at: database.path, creating: false)
        let look = try store.firstLook(Reader.firstQuery)
        return look.followsFeeds ? Subscriptions(store: store, firstRows: look.rows) : nil
    }
}
