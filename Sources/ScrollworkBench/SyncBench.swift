import ArgumentParser
import Feeds
import FeedSync
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import HTTPLoading
import LoopbackHTTP
import ScrollworkReader

/// `scrollwork bench sync`: syncs with a real FreshRSS holding generated feeds, against the
/// floor of the same HTTP requests made by curl in sequence (the server's own time).
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync with a real FreshRSS against curl making the same requests.",
        discussion: """
            Starts FreshRSS with ../shared/freshrss/serve.sh (--server-script; PHP needed), \
            serves --feeds generated RSS feeds of --items posts each (about 1.5 KB of HTML a \
            post) on 127.0.0.1, subscribes the server to them and lets it fetch them. Then, into a \
            fresh store: initial (the first sync of every item), nothing-new (a sync right \
            after), and changes (after the feeds gained 5 posts each and another client marked \
            500 posts read). Each row: the requests made, the items received, the sync's time \
            (ms), the floor's (floor_ms: the same requests, replayed by one curl process in \
            sequence), their ratio (over_floor: 1.25 means the client adds 25%; for the first \
            sync, the medians of --initial-runs syncs into fresh stores, each followed by its \
            floor, since the server's own time moves by a fifth between runs), the same sync \
            with no server (client_ms: from the same store, given the recorded replies at once; the median of --runs), the CPU \
            time the sync took in this process (client_cpu_ms) and in the server's (server_cpu_ms), and the least time any \
            schedule of that work could take on this machine's cores (cpu_bound_ms: their sum over the cores; with the \
            server on the same machine, a sync cannot be faster), the resident \
            memory the sync added at its peak and the process's peak during it. The same syncs \
            run as a user runs them, each a `scrollwork` process of its own on a second store \
            (`account add`, which syncs at once, then `sync` twice): its time (command_ms, \
            process start included) and its peak resident memory (command_peak_mb). Last, the \
            time the reader then takes to index the posts stored for search (index_after_ms), \
            which a sync leaves waiting.
            """)

    @OptionGroup var options: BenchOptions
    @Option(help: "Feeds the server follows.") var feeds = 20
    @Option(help: "Posts in each feed.") var items = 500
    @Option(help: "Runs of each sync replayed with no server (client_ms is their median).") var runs = 5
    @Option(name: .customLong("initial-runs"), help: "First syncs, each into a fresh store and against its own floor (the initial row's ms, floor_ms and over_floor are their medians).")
    var initialRuns = 3
    @Option(name: .customLong("server-script"), help: "FreshRSS's serve.sh.") var serverScript = "../shared/freshrss/serve.sh"

    /// The requests of one sync, in order.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [HTTPDataLoader.Request] = []

        func append(_ request: HTTPDataLoader.Request) { lock.withLock { requests.append(request) } }
        func take() -> [HTTPDataLoader.Request] { lock.withLock { defer { requests = [] }; return requests } }
    }

    /// A request of a sync and its reply, whose body waits in a file.
    struct RecordedExchange {
        var request: HTTPDataLoader.Request
        var status: Int
        var headers: [(name: String, value: String)]
        var body: URL
    }

    /// Replies recorded, given back in order to a sync that makes the same requests.
    final class Replay: @unchecked Sendable {
        typealias Exchange = (request: HTTPDataLoader.Request, reply: HTTPReply)
        private let lock = NSLock()
        private let exchanges: [Exchange]
        private var next = 0

        init(_ exchanges: [Exchange]) { self.exchanges = exchanges }

        /// The reply recorded for `request`, which must be the next one recorded.
        func reply(to request: HTTPDataLoader.Request) throws(HTTPLoadingError) -> HTTPReply {
            let reply: HTTPReply? = lock.withLock {
                guard next < exchanges.count, exchanges[next].request.url == request.url else { return nil }
                defer { next += 1 }
                return exchanges[next].reply
            }
            guard let reply else { throw .connectionFailed("the replayed sync asked \(request.url) where the recorded one asked another") }
            return reply
        }

        var isUsedUp: Bool { lock.withLock { next == exchanges.count } }
    }

    /// The posts each feed serves now.
    final class FeedCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count: Int
        init(_ count: Int) { self.count = count }
        var value: Int {
            get { lock.withLock { count } }
            set { lock.withLock { count = newValue } }
        }
    }

    func run() async throws {
        guard FileManager.default.fileExists(atPath: serverScript) else {
            throw ValidationError("no FreshRSS script at \(serverScript) (see --server-script)")
        }
        // The programs the bench runs, found before a server starts that a missing one would
        // leave behind.
        _ = try BenchExecutables.measure
        _ = try BenchExecutables.scrollwork
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let count = FeedCount(items)
        let feedServer = try await LoopbackHTTPServer.start { request, _ in
            let index = Int(request.path.split(separator: "-").last?.split(separator: ".").first ?? "") ?? 0
            return .text(200, Self.feed(index, posts: count.value), headers: [("Content-Type", "application/rss+xml")])
        }
        // A port free now, for the PHP server: a server left by an earlier run on a fixed port
        // would answer instead, with its own feeds.
        let probe = try await LoopbackHTTPServer.start { _, _ in .silent }
        let port = probe.port
        try await probe.stop()
        let serverScript = serverScript
        let cleanUp = OnceOnly {
            // Through the shell, as it started, not through scrollwork-measure: whatever
            // failed, the server stops before its directory goes.
            Self.stopServer(script: serverScript, directory: directory.appendingPathComponent("freshrss"))
            try? FileManager.default.removeItem(at: directory)
        }
        let server: Server
        do {
            server = try Self.startServer(script: serverScript, directory: directory.appendingPathComponent("freshrss"), port: port)
        } catch {
            cleanUp.run()
            throw error
        }
        // Interrupted (Ctrl-C, a time limit), the bench stops the server too: serve.sh starts it
        // in a session of its own, which the terminal's signal does not reach, and a signal
        // skips the `defer` below. A PHP server was found running after a bench that had died.
        // (A child still running then, FreshRSS's refresh, can leave files in the directory.)
        // Watched from here on: the signals are ignored while their sources watch them, and
        // the server, which `system` starts, would inherit that.
        let interruptions = Self.onInterruption { signal in
            cleanUp.run()
            Foundation.exit(128 + signal)
        }
        let loader = HTTPDataLoader(configuration: .sync)
        defer {
            interruptions.forEach { $0.cancel() }
            cleanUp.run()
        }
        printError("bench sync: FreshRSS fetches \(feeds) feeds of \(items) posts…")
        let other = try await Self.logIn(server, loader)
        for index in 0..<feeds {
            _ = try await Self.post(server, loader, other, "reader/api/0/subscription/quickadd", ["quickadd": feedServer.url("/feed-\(index).xml").absoluteString])
        }
        _ = try BenchExecutables.run("/bin/bash", [serverScript, "refresh", directory.appendingPathComponent("freshrss").path], environment: ["PATH": "/usr/bin:/bin"])

        let store = try FeedStore(path: directory.appendingPathComponent("bench.sqlite").path)
        let recorder = Recorder()
        let account = SyncAccount(kind: .freshrss, serverURL: server.base, username: server.user)
        let secret = SyncSecret(server.password)
        let runtime = Self.recordingRuntime(account: account, secret: secret, store: store, folder: directory, loader: loader, recorder: recorder)

        var report = BenchReport(columns: ["case", "requests", "items", "ms", "floor_ms", "over_floor", "client_ms",
                                           "client_cpu_ms", "server_cpu_ms", "cpu_bound_ms", "added_mb",
                                           "process_peak_mb", "command_ms", "command_peak_mb", "index_after_ms"])
        // The user's process: a second store with the account, synced by `scrollwork` itself.
        let userDatabase = directory.appendingPathComponent("user.sqlite").path
        let environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_CONFIG_HOME": directory.path, "XDG_DATA_HOME": directory.path]
        let userCommands = [
            ["account", "add", "freshrss", server.base.absoluteString, "--user", server.user,
             "--password-command", "printf %s '\(server.password)'", "--database", userDatabase],
            ["sync", "--database", userDatabase],
            ["sync", "--database", userDatabase],
        ]
        var replays: [(store: URL, exchanges: [RecordedExchange])] = []
        /// Each first sync's milliseconds, its floor's and its CPU time.
        var initialPairs: [FirstSync] = []
        func measure(_ name: String) async throws {
            // The store and the token as the sync finds them, for its replay.
            try await store.checkpoint()
            let before = try Self.copyStore(in: directory, to: directory.appendingPathComponent("before-\(report.rows.count)"))
            let start = ContinuousClock.now
            let ((outcome, cpu), added, peak) = await PeakMemory.measureWithTotal { await CPUTime.during(server: server.pid) { await runtime.sync() } }
            let milliseconds = (ContinuousClock.now - start).milliseconds
            if let failure = outcome.failure { throw ValidationError("bench sync: \(name): \(failure)") }
            let requests = recorder.take()
            // The replies, asked again (kept during the sync, they would count in its memory; the
            // server answers the same, since these syncs push nothing and nothing changes
            // meanwhile) and kept on disk for the replay, which runs after the last sync: the
            // memory it leaves to the allocator would count in the next sync's process peak.
            var recorded: [RecordedExchange] = []
            for (index, request) in requests.enumerated() {
                let reply = try await loader.send(request)
                let body = before.appendingPathComponent("reply-\(index)")
                try Data(reply.body).write(to: body)
                recorded.append(RecordedExchange(request: request, status: reply.status, headers: reply.headers, body: body))
            }
            replays.append((before, recorded))
            // The posts stored wait for the search index, which the reader builds after the
            // sync: timed on its own.
            let indexStart = ContinuousClock.now
            try await store.indexAllWaitingPosts()
            let indexMilliseconds = (ContinuousClock.now - indexStart).milliseconds
            let floor = try Self.curlFloor(requests, directory: directory)
            let command = try MeasuredChild.run(try BenchExecutables.scrollwork, userCommands[report.rows.count], environment: environment)
            guard command.status == 0 else { throw ValidationError("bench sync: \(name): scrollwork \(userCommands[report.rows.count][0]) failed") }
            if report.rows.isEmpty { initialPairs.append(FirstSync(ms: milliseconds, floor: floor, cpu: cpu)) }
            report.append([
                .text(name), .number(Double(requests.count)), .number(Double(outcome.summary.received)), .number(milliseconds),
                .number(floor), .number(milliseconds / floor), .missing,
                .number(cpu.client), .number(cpu.server), .number(cpu.boundMilliseconds), BenchValue(added.map { Double($0) / 1_048_576 }),
                BenchValue(peak.map { Double($0) / 1_048_576 }),
                .number(command.milliseconds), .number(Double(command.peakBytes) / 1_048_576), .number(indexMilliseconds),
            ])
        }
        try await measure("initial-\(feeds * items)")
        try await measure("nothing-new")
        // More first syncs, each into a fresh store of its own and against its own floor, while
        // the server holds what the first found (after the syncs whose memory is measured: the
        // allocator keeps some of theirs).
        for run in 1..<max(initialRuns, 1) {
            printError("bench sync: first sync \(run + 1) of \(initialRuns)…")
            initialPairs.append(try await Self.firstSync(into: directory.appendingPathComponent("initial-\(run)"), account: account,
                                                         secret: secret, loader: loader, server: server, floorDirectory: directory))
        }
        // Another client reads 500 posts; the feeds gain 5 posts each.
        let ids = try await Self.post(server, loader, other, "reader/api/0/stream/items/ids", [(String, String)](),
                                      query: "s=user/-/state/com.google/reading-list&n=500&output=json")
        let itemIDs = (try? JSONSerialization.jsonObject(with: Data(ids)) as? [String: Any])?["itemRefs"] as? [[String: Any]] ?? []
        let token = String(decoding: try await Self.get(server, loader, other, "reader/api/0/token"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for batch in stride(from: 0, to: itemIDs.count, by: 250) {
            let fields = itemIDs[batch..<min(batch + 250, itemIDs.count)].compactMap { $0["id"] as? String }.map { ("i", $0) }
                + [("a", "user/-/state/com.google/read"), ("T", token)]
            _ = try await Self.post(server, loader, other, "reader/api/0/edit-tag", fields)
        }
        count.value = items + 5
        // The server skips a feed it fetched within the same second.
        try await Task.sleep(for: .seconds(1.1))
        _ = try BenchExecutables.run("/bin/bash", [serverScript, "refresh", directory.appendingPathComponent("freshrss").path], environment: ["PATH": "/usr/bin:/bin"])
        try await measure("changes-\(feeds * 5)-new-\(itemIDs.count)-read")
        var withClient = BenchReport(columns: report.columns)
        for (index, (row, replay)) in zip(report.rows, replays).enumerated() {
            let client = try await Self.replay(replay.exchanges, from: replay.store, account: account, secret: secret, runs: runs)
            var values = row
            values[report.columns.firstIndex(of: "client_ms")!] = .number(client)
            if index == 0 {
                // The first sync's time, floor, ratio and CPU times: the medians of its runs.
                for (column, figure) in FirstSync.columns {
                    values[report.columns.firstIndex(of: column)!] = .number(Stopwatch.median(initialPairs.map { $0[keyPath: figure] }))
                }
            }
            withClient.append(values)
        }
        withClient.print(json: options.json)
        try? await loader.shutdown()
        try? await feedServer.stop()
    }

    /// Calls `handler` with the signal, on a queue of its own, when SIGINT, SIGTERM or SIGHUP
    /// comes: their sources, to cancel once the work that needs them is done.
    static func onInterruption(_ handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.setCancelHandler { signal(number, SIG_DFL) }
            source.resume()
            return source
        }
    }

    /// The median milliseconds the sync of `exchanges` takes with no server, over `runs` runs:
    /// the same sync, each time from a copy of the store and token it started with (in
    /// `directory`), given the recorded replies as soon as it asks. What the client alone
    /// costs: the floor's share is zero.
    static func replay(_ recorded: [RecordedExchange], from directory: URL,
                       account: SyncAccount, secret: SyncSecret, runs: Int) async throws -> Double {
        let exchanges: [Replay.Exchange] = try recorded.map {
            ($0.request, HTTPReply(status: $0.status, headers: $0.headers, body: Array(try Data(contentsOf: $0.body))))
        }
        var times: [Double] = []
        for run in 0..<runs {
            let copy = try copyStore(in: directory, to: directory.appendingPathComponent("run-\(run)"))
            let replay = Replay(exchanges)
            let store = try FeedStore(path: copy.appendingPathComponent("bench.sqlite").path)
            let runtime = SyncRuntime(account: account, store: store, tokens: SyncTokenFile(url: copy.appendingPathComponent("token")),
                                      send: { request throws(HTTPLoadingError) in try replay.reply(to: request) },
                                      password: { .success(secret) })
            let start = ContinuousClock.now
            let outcome = await runtime.sync()
            times.append((ContinuousClock.now - start).milliseconds)
            if let failure = outcome.failure { throw ValidationError("bench sync: the replay failed: \(failure)") }
            guard replay.isUsedUp else { throw ValidationError("bench sync: the replay made fewer requests than the sync") }
        }
        return Stopwatch.median(times)
    }

    /// A runtime that syncs `store` (its token in `folder`) through `loader`, each request it
    /// sends kept by `recorder` for the floor.
    static func recordingRuntime(account: SyncAccount, secret: SyncSecret, store: FeedStore, folder: URL,
                                 loader: HTTPDataLoader, recorder: Recorder) -> SyncRuntime {
        SyncRuntime(
            account: account, store: store, tokens: SyncTokenFile(url: folder.appendingPathComponent("token")),
            send: { request throws(HTTPLoadingError) in
                recorder.append(request)
                return try await loader.send(request)
            },
            password: { .success(secret) })
    }

    /// A first sync's milliseconds, its floor's, and the CPU time it took.
    struct FirstSync {
        var ms: Double
        var floor: Double
        var cpu: CPUTime

        var overFloor: Double { ms / floor }

        /// The report's columns a first sync fills, each with its figure.
        static var columns: [(String, KeyPath<FirstSync, Double>)] { [
            ("ms", \.ms), ("floor_ms", \.floor), ("over_floor", \.overFloor),
            ("client_cpu_ms", \.cpu.client), ("server_cpu_ms", \.cpu.server), ("cpu_bound_ms", \.cpu.boundMilliseconds),
        ] }
    }

    /// A first sync into a fresh store in the new folder `folder`, then the floor of its
    /// requests. The folder is removed after.
    static func firstSync(into folder: URL, account: SyncAccount, secret: SyncSecret, loader: HTTPDataLoader,
                          server: Server, floorDirectory: URL) async throws -> FirstSync {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = Recorder()
        let milliseconds: Double, cpu: CPUTime
        do {
            let store = try FeedStore(path: folder.appendingPathComponent("bench.sqlite").path)
            let runtime = recordingRuntime(account: account, secret: secret, store: store, folder: folder, loader: loader, recorder: recorder)
            let start = ContinuousClock.now
            let outcome: SyncRuntime.Outcome
            (outcome, cpu) = await CPUTime.during(server: server.pid) { await runtime.sync() }
            milliseconds = (ContinuousClock.now - start).milliseconds
            if let failure = outcome.failure { throw ValidationError("bench sync: a first sync failed: \(failure)") }
        }
        return FirstSync(ms: milliseconds, floor: try curlFloor(recorder.take(), directory: floorDirectory), cpu: cpu)
    }

    /// Copies the store (checkpointed: its file alone) and the token file of `directory` into
    /// the new folder `copy`, and returns it.
    static func copyStore(in directory: URL, to copy: URL) throws -> URL {
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for file in ["bench.sqlite", "token"] where FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) {
            try FileManager.default.copyItem(at: directory.appendingPathComponent(file), to: copy.appendingPathComponent(file))
        }
        return copy
    }

    /// A feed of `posts` posts, the same for the same numbers; new posts come first.
    static func feed(_ index: Int, posts: Int) -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench feed \#(index)</title><link>http://127.0.0.1/\#(index)</link>"#
        let paragraph = String(repeating: "Scrolling lists of remote content, loaded in the background and diffed in linear time. ", count: 12)
        for post in (0..<posts).reversed() {
            let date = Date(timeIntervalSince1970: 1_790_000_000 + Double(post) * 600)
            out += "<item><title>Feed \(index), post \(post)</title><link>http://127.0.0.1/\(index)/\(post)</link><guid>bench-\(index)-\(post)</guid>"
                + "<pubDate>\(FeedDate.rfc3339(date))</pubDate><description>&lt;p&gt;\(paragraph)&lt;/p&gt;</description></item>"
        }
        return out + "</channel></rss>"
    }

    /// Work done once, whoever asks first: a second caller waits until it is done. The bench's
    /// clean-up, which an interruption and the error the interruption causes (the server gone
    /// under a request) both ask for, from two threads: the process must not exit while the
    /// other is still removing the directory.
    final class OnceOnly: Sendable {
        private let work: Mutex<(@Sendable () -> Void)?>

        init(_ work: @escaping @Sendable () -> Void) { self.work = Mutex(work) }

        func run() {
            work.withLock { work in
                work?()
                work = nil
            }
        }
    }

    /// What `serve.sh start` prints, read.
    struct Server {
        var base: URL
        var api: URL
        var user: String
        var password: String
        /// The PHP server's process, whose CPU time is read from /proc.
        var pid: Int32?
    }

    /// The CPU time a sync took, in milliseconds: in this process (the client: nothing else
    /// runs in it meanwhile) and in the server's.
    struct CPUTime {
        var client: Double
        var server: Double

        /// The least wall time in which this machine's cores could do both: with the server on
        /// the same machine, no schedule of the client's work makes a sync faster.
        var boundMilliseconds: Double { (client + server) / Double(ProcessInfo.processInfo.activeProcessorCount) }

        /// What `body` returns, and the CPU time this process and the server's took during it.
        static func during<T>(server pid: Int32?, _ body: () async throws -> T) async rethrows -> (T, CPUTime) {
            let client = ownMilliseconds(), server = pid.flatMap(milliseconds(ofProcess:))
            let value = try await body()
            let serverAfter = pid.flatMap(milliseconds(ofProcess:))
            return (value, CPUTime(client: ownMilliseconds() - client, server: server.flatMap { before in serverAfter.map { $0 - before } } ?? .nan))
        }

        /// This process's user and system time.
        static func ownMilliseconds() -> Double {
            var usage = rusage()
            #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
            #else
            getrusage(RUSAGE_SELF, &usage)
            #endif
            let milliseconds = { (time: timeval) in Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
            return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
        }

        /// Another process's user and system time, from `/proc/PID/stat` (in clock ticks); nil
        /// where it cannot be read.
        static func milliseconds(ofProcess pid: Int32) -> Double? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return nil }
            // After the command's closing parenthesis: field 3 (the state) on; utime and stime
            // are fields 14 and 15.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
            return (user + system) * 1_000 / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
    }

    /// `text` quoted for the shell.
    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static func startServer(script: String, directory: URL, port: Int) throws -> Server {
        // Its output goes through a file, and it runs through the shell, not `Process`: the PHP
        // server it leaves running would hold open a pipe, and any descriptor `Process` leaves it.
        let log = directory.deletingLastPathComponent().appendingPathComponent("serve.log")
        let status = system("PORT=\(port) /bin/bash \(shellQuoted(script)) start \(shellQuoted(directory.path)) > \(shellQuoted(log.path)) 2>&1 < /dev/null")
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else { throw ValidationError("serve.sh start failed: \(output)") }
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let api = values["GREADER_URL"].flatMap(URL.init(string:)), let user = values["FR_USER"], let password = values["FR_API_PASS"],
              let base = values["FRESHRSS_URL"].flatMap(URL.init(string:)) else {
            throw ValidationError("serve.sh printed no addresses: \(output)")
        }
        return Server(base: base, api: api, user: user, password: password, pid: values["FR_PID"].flatMap { Int32($0) })
    }

    /// Stops the server `startServer` started in `directory`, if it runs.
    static func stopServer(script: String, directory: URL) {
        _ = system("PATH=/usr/bin:/bin /bin/bash \(shellQuoted(script)) stop \(shellQuoted(directory.path)) > /dev/null 2>&1 < /dev/null")
    }

    /// Logs in as another client; its `Authorization` header.
    static func logIn(_ server: Server, _ loader: HTTPDataLoader) async throws -> String {
        let body = "Email=\(server.user)&Passwd=\(server.password)"
        let reply = try await loader.send(HTTPDataLoader.Request(
            method: .post, url: URL(string: server.api.absoluteString + "/accounts/ClientLogin")!,
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8)))
        let auth = String(decoding: reply.body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Auth=") }?.dropFirst(5)
        guard let auth else { throw ValidationError("bench sync: the server refused the login") }
        return "GoogleLogin auth=\(auth)"
    }

    static func get(_ server: Server, _ loader: HTTPDataLoader, _ auth: String, _ path: String) async throws -> [UInt8] {
        try await loader.send(HTTPDataLoader.Request(method: .get, url: URL(string: server.api.absoluteString + "/" + path)!,
                                                     headers: [("Authorization", auth)])).body
    }

    static func post(_ server: Server, _ loader: HTTPDataLoader, _ auth: String, _ path: String, _ fields: [(String, String)],
                     query: String? = nil) async throws -> [UInt8] {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        let url = URL(string: server.api.absoluteString + "/" + path + (query.map { "?" + $0 } ?? ""))!
        return try await loader.send(HTTPDataLoader.Request(
            method: query == nil ? .post : .get, url: url,
            headers: [("Authorization", auth), ("Content-Type", "application/x-www-form-urlencoded")], body: query == nil ? Array(body.utf8) : [])).body
    }

    static func post(_ server: Server, _ loader: HTTPDataLoader, _ auth: String, _ path: String, _ fields: [String: String]) async throws -> [UInt8] {
        try await post(server, loader, auth, path, fields.map { ($0.key, $0.value) })
    }

    /// The milliseconds one curl process takes to make `requests` in sequence, each with its
    /// method, headers and body, reading every reply whole.
    static func curlFloor(_ requests: [HTTPDataLoader.Request], directory: URL) throws -> Double {
        var arguments: [String] = []
        for (index, request) in requests.enumerated() {
            if index > 0 { arguments.append("--next") }
            arguments += ["-s", "-o", "/dev/null"]
            for header in request.headers { arguments += ["-H", "\(header.name): \(header.value)"] }
            if request.method == .post {
                let file = directory.appendingPathComponent("body-\(index)")
                try Data(request.body).write(to: file)
                arguments += ["--data-binary", "@" + file.path]
            }
            arguments.append(request.url.absoluteString)
        }
        return try BenchExecutables.run("/usr/bin/curl", arguments, environment: ["PATH": "/usr/bin:/bin"]).milliseconds
    }
}
