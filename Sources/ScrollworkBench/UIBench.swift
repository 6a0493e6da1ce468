import ArgumentParser
import Feeds
import FeedsHTTP
import Foundation
import PseudoTerminal
import ScrollworkDemo
import ScrollworkReader
import TerminalUI

/// `scrollwork bench ui`: the real reader, in its real frame loop, rendering into an in-memory
/// 120 × 40 terminal, on the embedded demo served over loopback HTTP with its latency, driven
/// by a script: the list of 500 posts fills with thumbnails, a long fling goes through it and
/// stops, a refresh brings about 160 changes, and a fling goes back to the top.
struct UIBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui",
        abstract: "Frame times of the real reader on the demo: fling through 500 posts, refresh about 160 changes, fling back.",
        discussion: """
            Every event the reader's main actor handles is timed (frame ticks, keys, the store's \
            snapshots, arrivals); a frame is an event that drew. frame_ms is its whole cost on \
            the main actor: applying a chunk of the update, physics, layout, building the cells, \
            diffing and encoding them. busy_ms_per_frame is all main-actor work in one 1/60 s of \
            wall time (frames, keys, snapshots, arrivals), over the intervals that had any. bytes_per_frame is what one frame wrote. frames_over_budget counts \
            frames over 16.7 ms. demo-fling-refresh-by-day is the same script with the list grouped by day (about a \
            week of posts under their days' headings, the top one pinned). rss_mb is the process's resident memory after the script. The run takes about 15 seconds of real time. \
            first-screen-500 then times, 20 times, opening a database of the demo's 500 posts, making the reader and running it \
            until its first frame shows them. first-screen-500-process times the whole process, 20 launches of a bare \
            `scrollwork` in a pseudo-terminal on a data folder of 500 stored posts (a generated text feed), to the output that \
            draws the newest title; rss-500-moves-process is that process's resident memory once its first screen is out and \
            after 500 moves through the list (5 launches, medians). With newsboat installed, each runs newsboat on the same \
            feed in turn, and newsboat_p50_over_ours and ours_over_newsboat compare them.
            """)

    @OptionGroup var options: BenchOptions

    /// How the pictures are drawn in the run.
    enum Pictures: String, ExpressibleByArgument, CaseIterable {
        case blocks, kitty, kittyPlaceholders = "kitty-placeholders", sixel, iterm, all
    }

    @Option(help: "How pictures are drawn: blocks (half blocks in cells), kitty (kitty graphics placed over the cells), kitty-placeholders (kitty graphics shown by Unicode placeholders in the cells), sixel (sixel images over the cells), iterm (iTerm2 images over the cells), in cells of 10 × 20 pixels, or all (one run each).")
    var pictures = Pictures.blocks

    @MainActor
    func run() async throws {
        var report = BenchReport(columns: [
            "case", "frames", "frame_ms_p50", "frame_ms_p99", "frame_ms_max", "frames_over_budget",
            "busy_ms_per_frame_p99", "bytes_per_frame_p50", "bytes_per_frame_p99", "refresh_changes", "rss_mb",
        ])
        let cell = PictureMode.assumedCellPixels
        let modes: [(Pictures, String, PictureMode, byDay: Bool)] = [
            (.blocks, "demo-fling-refresh", .blocks, false), (.blocks, "demo-fling-refresh-by-day", .blocks, true),
            (.kitty, "demo-fling-refresh-kitty", .kitty(cellPixels: cell, placing: .direct), false),
            (.kittyPlaceholders, "demo-fling-refresh-kitty-placeholders", .kitty(cellPixels: cell, placing: .placeholders(throughTmux: false)), false),
            (.sixel, "demo-fling-refresh-sixel", .sixel(cellPixels: cell), false), (.iterm, "demo-fling-refresh-iterm", .iterm(cellPixels: cell), false),
        ]
        for (choice, name, mode, byDay) in modes where pictures == .all || pictures == choice {
            report.append(try await Self.measure(name, pictures: mode, groupedByDay: byDay))
        }
        report.print(json: options.json)
        var first = BenchReport(columns: [
            "case", "launches", "first_screen_ms_p50", "first_screen_ms_p90", "first_screen_ms_max", "newsboat_p50_over_ours",
        ])
        first.append(try await Self.firstScreen(launches: 20) + [.missing])
        let cases = try await ProcessCases.make()
        defer { cases.remove() }
        for row in try Self.firstScreenProcess(cases, launches: 20) { first.append(row) }
        first.print(json: options.json)
        var memory = BenchReport(columns: ["case", "launches", "rss_mb_first_screen", "rss_mb_after_moves", "ours_over_newsboat"])
        for row in try Self.residentProcess(cases, launches: 5) { memory.append(row) }
        memory.print(json: options.json)
    }

    /// `first-screen-500`: from opening a database of the demo's 500 posts to the first frame
    /// that shows them, in-process, `launches` times: the store opened, the reader made (its
    /// thumbnail shelf, HTTP client and all) and run until its list is drawn.
    @MainActor
    private static func firstScreen(launches: Int) async throws -> [BenchValue] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-first-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("first.sqlite").path
        do {
            let server = try await DemoServer.start(latency: false)
            let store = try FeedStore(path: path)
            let feed = try await store.addFeed(url: server.feedURL, title: "Scrollwork demo")
            _ = try await store.upsert(entries: FeedDocumentParser().parse(server.document(), url: server.feedURL).entries, feed: feed.id)
            // Indexed, as the reader's first launch after storing them leaves them.
            try await store.indexAllWaitingPosts()
            try await server.stop()
        }
        var milliseconds: [Double] = []
        for _ in 0..<launches {
            let started = ContinuousClock.now
            let store = try FeedStore(path: path)
            let fetcher = FeedFetcher()
            let terminal = ScriptedTerminal(columns: 120, rows: 40, decodesFrames: false)
            var readerOptions = Reader.Options()
            readerOptions.refreshInterval = nil
            let reader = Reader(terminal: terminal, store: store, refresher: FeedRefresher(store: store, fetcher: fetcher),
                                title: "Scrollwork", frames: LiveFrames(), options: readerOptions)
            let running = Task { @MainActor in await reader.run() }
            let limit = ContinuousClock.now + .seconds(10)
            while reader.lastFrame.rows.isEmpty || terminal.frameSizes.isEmpty {
                guard ContinuousClock.now < limit else { throw Failure("bench ui: the first screen never came") }
                try await Task.sleep(for: .microseconds(200))
            }
            milliseconds.append((ContinuousClock.now - started).milliseconds)
            reader.sink.yield(.input(.key(KeyPress(.character("Q")))))
            await running.value
            try? await fetcher.shutdown()
        }
        return [
            .text("first-screen-500"), .number(Double(launches)), .number(TerminalBench.percentile(milliseconds, 0.5)),
            .number(TerminalBench.percentile(milliseconds, 0.9)), .number(milliseconds.max() ?? 0),
        ]
    }

    /// The whole-process cases' setup: a data folder holding a generated RSS feed of 500 posts
    /// without pictures, added from its file and stored as `scrollwork add` and a refresh would,
    /// and where newsboat is installed, its home following the same file, its cache filled once
    /// as a person's would be. `scrollwork` runs bare, as a person starts it, finding its data
    /// and settings through `XDG_DATA_HOME` and `XDG_CONFIG_HOME`.
    private struct ProcessCases {
        let directory: URL
        let ours: Launcher
        let newsboat: Launcher?

        static func make() async throws -> ProcessCases {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-process-\(UUID().uuidString)")
            let data = directory.appendingPathComponent("data/scrollwork")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("config"), withIntermediateDirectories: true)
            let feedFile = directory.appendingPathComponent("feed.xml")
            let document = FeedFixture.make(.rss, entries: 500, pictures: false)
            try Data(document).write(to: feedFile)
            let store = try FeedStore(path: data.appendingPathComponent("scrollwork.sqlite").path)
            let feed = try await store.addFeed(url: feedFile, title: nil)
            _ = try await store.upsert(entries: FeedDocumentParser().parse(document, url: feedFile).entries, feed: feed.id)
            try await store.indexAllWaitingPosts()
            // A marker the screen holds whole: the newest title's first words.
            let newest = try await store.entries(EntryQuery(limit: 1)).first?.entry.title ?? ""
            let environment = [
                "TERM": "xterm-256color", "HOME": directory.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                "XDG_DATA_HOME": directory.appendingPathComponent("data").path, "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            ]
            let ours = Launcher(path: try BenchExecutables.scrollwork, arguments: [], environment: environment, marker: String(newest.prefix(18)), quit: "Q")
            var newsboat: Launcher?
            if let found = BenchExecutables.newsboat() {
                let home = directory.appendingPathComponent("newsboat")
                try FileManager.default.createDirectory(at: home.appendingPathComponent(".newsboat"), withIntermediateDirectories: true)
                try Data("file://\(feedFile.path)\n".utf8).write(to: home.appendingPathComponent(".newsboat/urls"))
                var peerEnvironment = environment
                peerEnvironment["HOME"] = home.path
                if (try? BenchExecutables.run(found, ["-x", "reload"], environment: peerEnvironment)) != nil {
                    // Its first screen is its feed list, to the feed's title; Enter opens the
                    // feed's list of posts.
                    newsboat = Launcher(path: found, arguments: [], environment: peerEnvironment, marker: "Bench & Co", quit: "q", opening: "\r")
                }
            }
            return ProcessCases(directory: directory, ours: ours, newsboat: newsboat)
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// `first-screen-500-process`: the whole process, as a person at a terminal sees it: from
    /// starting `scrollwork` (this executable) in a pseudo-terminal of 120 × 40, on a data
    /// folder holding 500 posts, to the output that draws the newest post's title; `launches`
    /// times, each quit with Q. With newsboat installed, `newsboat-first-screen-500` is the same
    /// for newsboat on the same 500 posts (its first screen is its feed list, to the feed's
    /// title), launched in turn with ours.
    private static func firstScreenProcess(_ cases: ProcessCases, launches: Int) throws -> [[BenchValue]] {
        var ourTimes: [Double] = []
        var peerTimes: [Double] = []
        for _ in 0..<launches {
            ourTimes.append(try cases.ours.firstScreen())
            if let newsboat = cases.newsboat { peerTimes.append(try newsboat.firstScreen()) }
        }
        func row(_ name: String, _ times: [Double], ratio: BenchValue) -> [BenchValue] {
            [.text(name), .number(Double(times.count)), .number(TerminalBench.percentile(times, 0.5)),
             .number(TerminalBench.percentile(times, 0.9)), .number(times.max() ?? 0), ratio]
        }
        let ratio = peerTimes.isEmpty ? BenchValue.missing
            : .number(TerminalBench.percentile(peerTimes, 0.5) / TerminalBench.percentile(ourTimes, 0.5))
        var rows = [row("first-screen-500-process", ourTimes, ratio: ratio)]
        if !peerTimes.isEmpty { rows.append(row("newsboat-first-screen-500", peerTimes, ratio: .missing)) }
        return rows
    }

    /// `rss-500-moves-process`: the resident memory of the whole process, as `ps` shows it, on
    /// the same 500 posts: once the first screen is out, and after 500 moves through the list
    /// (fifty down, fifty up, five times), each read off `/proc` once its output has settled;
    /// `launches` times, the medians. With newsboat installed, `newsboat-rss-500-moves` is
    /// newsboat's, moving through the feed's list of posts.
    private static func residentProcess(_ cases: ProcessCases, launches: Int) throws -> [[BenchValue]] {
        var ours: [(Double, Double)] = []
        var peer: [(Double, Double)] = []
        for _ in 0..<launches {
            // Where `/proc` does not say (Darwin), the row is there with its figures missing.
            guard let measured = try cases.ours.resident(afterMoves: 500) else {
                return [[.text("rss-500-moves-process"), .number(0), .missing, .missing, .missing]]
            }
            ours.append(measured)
            if let newsboat = cases.newsboat, let measured = try newsboat.resident(afterMoves: 500) { peer.append(measured) }
        }
        func median(_ values: [Double]) -> Double { TerminalBench.percentile(values, 0.5) }
        let ourAfter = median(ours.map(\.1))
        var rows: [[BenchValue]] = [[
            .text("rss-500-moves-process"), .number(Double(ours.count)), .number(median(ours.map(\.0))), .number(ourAfter),
            peer.isEmpty ? .missing : .number(ourAfter / median(peer.map(\.1))),
        ]]
        if !peer.isEmpty {
            rows.append([.text("newsboat-rss-500-moves"), .number(Double(peer.count)), .number(median(peer.map(\.0))), .number(median(peer.map(\.1))), .missing])
        }
        return rows
    }

    /// A program launched in a pseudo-terminal, timed to its first screen.
    private struct Launcher {
        var path: String
        var arguments: [String]
        var environment: [String: String]
        /// What the first screen writes.
        var marker: String
        /// The key that quits it.
        var quit: String
        /// What to type, after the first screen, to reach its list of posts.
        var opening = ""

        private func start() throws -> PseudoTerminalChild {
            try PseudoTerminalChild(path: path, arguments: arguments, columns: 120, rows: 40, environment: environment, inheritingEnvironment: false)
        }

        /// Milliseconds from the start to the output holding ``marker``; then the program is quit
        /// and waited for, untimed.
        func firstScreen() throws -> Double {
            let started = ContinuousClock.now
            let child = try start()
            try child.read(until: marker)
            let elapsed = (ContinuousClock.now - started).milliseconds
            child.type(quit)
            _ = try child.waitForStatusChange()
            return elapsed
        }

        /// The resident megabytes once the first screen is out and its output has settled, and
        /// after `moves` moves (`j` and `k`, fifty at a time) once that output has; nil where
        /// `/proc` does not say.
        func resident(afterMoves moves: Int) throws -> (launch: Double, moved: Double)? {
            let child = try start()
            defer {
                child.type(quit)
                _ = try? child.waitForStatusChange()
            }
            try child.read(until: marker)
            Self.settle(child)
            guard let launch = PeakMemory.residentBytes(ofProcess: child.pid) else { return nil }
            child.type(opening)
            for move in 0..<moves {
                child.type(move / 50 % 2 == 0 ? "j" : "k")
                child.drain(waitingMilliseconds: 0)
            }
            Self.settle(child)
            guard let moved = PeakMemory.residentBytes(ofProcess: child.pid) else { return nil }
            return (Double(launch) / 1_048_576, Double(moved) / 1_048_576)
        }

        /// Reads the child's output until it has written nothing for a quarter second.
        private static func settle(_ child: PseudoTerminalChild) {
            var seen = -1
            while child.output.count != seen {
                seen = child.output.count
                child.drain(waitingMilliseconds: 250)
            }
        }
    }

    /// One run of the script with pictures drawn as `pictures`: its row of figures.
    @MainActor
    private static func measure(_ name: String, pictures: PictureMode, groupedByDay: Bool) async throws -> [BenchValue] {
        let generations = DemoGenerations()
        let server = try await DemoServer.start(elapsed: { generations.elapsed })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-ui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("bench.sqlite").path)
        _ = try await store.addFeed(url: server.feedURL, title: "Scrollwork demo")
        let fetcher = FeedFetcher()
        let terminal = ScriptedTerminal(columns: 120, rows: 40, decodesFrames: false)
        var readerOptions = Reader.Options()
        readerOptions.refreshInterval = nil
        readerOptions.colorMode = .truecolor
        readerOptions.pictures = pictures
        readerOptions.groupsByDay = groupedByDay
        let log = FrameLog(terminal: terminal)
        let reader = Reader(terminal: terminal, store: store, refresher: FeedRefresher(store: store, fetcher: fetcher),
                            title: "Scrollwork demo", frames: TimedFrames(LiveFrames(), log: log),
                            thumbnails: ThumbnailShelf(), options: readerOptions)

        let script = Task { @MainActor in
            try await Self.play(reader, generations: generations)
        }
        await reader.run { reader, event in log.time { reader.send(event) } }
        let outcome = await script.result
        try? await fetcher.shutdown()
        try? await server.stop()
        let changes = try outcome.get()

        let frames = log.frameMilliseconds
        let bytes = terminal.frameSizes.map(Double.init)
        guard !frames.isEmpty else { throw Failure("the reader drew no frame") }
        return [
            .text(name), .number(Double(frames.count)),
            .number(TerminalBench.percentile(frames, 0.5)), .number(TerminalBench.percentile(frames, 0.99)),
            .number(frames.max() ?? 0), .number(Double(frames.filter { $0 > 1000.0 / 60 }.count)),
            .number(log.busyMilliseconds.isEmpty ? 0 : TerminalBench.percentile(log.busyMilliseconds, 0.99)),
            .number(TerminalBench.percentile(bytes, 0.5)), .number(TerminalBench.percentile(bytes, 0.99)),
            .number(Double(changes)), BenchValue(PeakMemory.residentBytes.map { Double($0) / 1_048_576 }),
        ]
    }

    /// The script, played against the running reader; returns how many changes the refresh
    /// brought.
    @MainActor
    private static func play(_ reader: Reader, generations: DemoGenerations) async throws -> Int {
        defer { reader.sink.yield(.input(.key(KeyPress(.character("q"))))) }
        // The first refresh fills the list; then its visible thumbnails load.
        try await wait("the list of 500 posts", for: reader) {
            reader.viewport.items.count - reader.viewport.sectionHeaders.rows.count >= 500 && reader.state.refreshing == nil
        }
        try await rest(reader)
        // A long fling down: a wheel notch every 33 ms for two seconds, then it glides to a stop.
        try await wheel(reader, down: true)
        try await rest(reader)
        // About a hundred changes: the demo moves on forty generations, and `r` fetches them.
        let before = reader.viewport.items.compactMap(\.post)
        generations.skip(40)
        let refreshes = reader.state.refreshesFinished
        reader.sink.yield(.input(.key(KeyPress(.character("r")))))
        try await wait("the refresh", for: reader) { reader.state.refreshesFinished > refreshes }
        try await rest(reader)
        let after = reader.viewport.items.compactMap(\.post)
        // Back to the top.
        try await wheel(reader, down: false)
        reader.sink.yield(.input(.key(KeyPress(.character("g")))))
        try await rest(reader)
        return changeCount(from: before, to: after)
    }

    /// Inserted, deleted and edited posts between two lists.
    private static func changeCount(from old: [EntryRow], to new: [EntryRow]) -> Int {
        let oldByID = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(\.id))
        let inserted = new.filter { oldByID[$0.id] == nil }.count
        let deleted = old.filter { !newIDs.contains($0.id) }.count
        let edited = new.filter { post in oldByID[post.id].map { $0.title != post.title } ?? false }.count
        return inserted + deleted + edited
    }

    @MainActor
    private static func wheel(_ reader: Reader, down: Bool) async throws {
        for _ in 0..<60 {
            reader.sink.yield(.input(.mouse(MouseEvent(.scroll(down ? .down : .up), column: 60, row: 20))))
            try await Task.sleep(for: .milliseconds(33))
        }
    }

    /// Waits until nothing moves, no change waits and no image loads, then half a second more.
    @MainActor
    private static func rest(_ reader: Reader) async throws {
        try await wait("the list to rest", for: reader) {
            let metrics = reader.thumbnails.loader.metrics
            return !reader.viewport.needsTick && metrics.running + metrics.waiting == 0
        }
        try await Task.sleep(for: .milliseconds(500))
    }

    @MainActor
    private static func wait(_ what: String, for reader: Reader, _ condition: @MainActor () -> Bool) async throws {
        let limit = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < limit else { throw Failure("bench ui: waited a minute for \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The demo's clock for the benchmark: generations move on when the script says.
final class DemoGenerations: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = 0

    var elapsed: Duration {
        lock.withLock { DemoServer.generationInterval * generation }
    }

    func skip(_ count: Int) {
        lock.withLock { generation += count }
    }
}
