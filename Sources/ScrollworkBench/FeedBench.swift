import ArgumentParser
import Feeds
import FeedsHTTP
import Foundation
import ScrollworkReader

/// `scrollwork bench feed`: the Feeds parser against a bare libxml2 SAX walk of the same
/// bytes, on generated RSS and Atom feeds.
struct FeedBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Feed parsing throughput against a bare libxml2 SAX walk of the same bytes.",
        discussion: """
            Cases: generated RSS 2.0 and Atom 1.0 feeds of 500 and 10,000 entries (titles with \
            entities, HTML summaries and contents with an <img>, dates, categories). The Feeds \
            parser does the full job (entries built, dates parsed, thumbnails found) on 64 KB \
            chunks, dropping each batch as a reader would after storing it; libxml2's SAX2 push \
            parser walks the same bytes in the same chunks with callbacks that only count \
            elements (the floor under any parser on libxml2). ratio_to_bare_libxml2 is the bare \
            walk's time over the full parse's, so 0.5 means half its speed. peak_mb is the \
            resident memory a parse adds. Ingest cases (ingest-FORMAT-N) parse and store into a \
            SQLite database on disk, one transaction per batch of 10: the first ingest into an \
            empty database, a second ingest of the unchanged feed, and one with every tenth \
            entry edited (cases reingest-FORMAT-N-unchanged and -10pct-changed), with the \
            resident memory the first ingest adds. ingest-file-rss-20mb refreshes a 20 MB RSS \
            file through the refresher (streamed from disk, stored in batches) and reports the \
            resident memory it adds. snapshot-10000 reads the 10,000 list rows of a stored feed \
            (rows) beside the full entries query of the same page (entries_query_ms). \
            ingest-process-N ingests a generated RSS file of N posts by whole processes, as a \
            person runs them: `scrollwork add` and `scrollwork refresh` into an empty data folder \
            (fresh_ms), then `scrollwork refresh` of the unchanged file (again_ms); where newsboat \
            is installed, `newsboat -x reload` on an empty cache and again, alternating round by \
            round, and newsboat's time over ours (fresh_ratio, again_ratio: above 1, Scrollwork \
            is faster). Rounds: --runs.

            With --file, each given feed file instead: the entries parsed, the median \
            milliseconds of reading the file and parsing it (ms), and the throughput that makes \
            (mb_per_s).

            With --feedparser-rs, also feedparser-rs's median time for the same bytes in its \
            default (sanitising) mode, from python3 (pip install feedparser-rs), and its time \
            over ours (feedparser_rs_ratio: above 1, Scrollwork is faster), from three blocks of \
            runs of each side in turn, the medians of the blocks' medians compared. The cases \
            parse-FORMAT-long-html-N are shaped like the real feeds that parsed slowly: long \
            articles with whitespace at both ends, CDATA, entities, inline markup in titles. \
            parse-rss-podcast-730 is shaped like a real podcast feed: 730 items of iTunes fields, \
            media:content, an enclosure and an escaped HTML description, namespaces declared twice.
            """
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Timed runs per measurement; the median is reported.")
    var runs = 7

    @Option(name: .customLong("case"), help: "Run only these cases (repeat the option); default: all.")
    var only: [String] = []

    @Flag(name: .customLong("feedparser-rs"), help: "Also time feedparser-rs (its default, sanitising mode) on the same bytes (needs python3 with feedparser-rs).")
    var feedparserRS = false

    @Option(name: .customLong("file"), parsing: .upToNextOption, help: "Time the parse of these feed files instead.")
    var files: [String] = []

    /// Network-sized pieces, so the parse streams as it would from a socket.
    static let chunkSize = 64 * 1024

    static let sizes = [500, 10_000]

    static let fileIngestCase = "ingest-file-rss-20mb"
    static let snapshotCase = "snapshot-10000"

    /// Entries in the real-world-shaped feeds: each is about 30 KB.
    static let realWorldSizes = [50, 500]

    static let caseNames = FeedFixture.Format.allCases.flatMap { format in
        sizes.flatMap { [caseName(format, $0), ingestCaseName(format, $0)] } + realWorldSizes.map { realWorldCaseName(format, $0) }
    } + [podcastCase, fileIngestCase, snapshotCase] + ProcessIngestBench.sizes.map(ProcessIngestBench.caseName)

    /// Items in the podcast-shaped feed: as many as the real one that parsed slowly.
    static let podcastEntries = 730
    static let podcastCase = "parse-rss-podcast-730"

    static func realWorldCaseName(_ format: FeedFixture.Format, _ entries: Int) -> String { "parse-\(format.rawValue)-long-html-\(entries)" }

    static func ingestCaseName(_ format: FeedFixture.Format, _ entries: Int) -> String { "ingest-\(format.rawValue)-\(entries)" }

    static func caseName(_ format: FeedFixture.Format, _ entries: Int) -> String { "parse-\(format.rawValue)-\(entries)" }

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be positive") }
        let unknown = Set(only).subtracting(Self.caseNames)
        guard unknown.isEmpty else {
            throw ValidationError("unknown case \(unknown.sorted().joined(separator: ", ")); choose from \(Self.caseNames.joined(separator: ", "))")
        }
    }

    func run() async throws {
        if !files.isEmpty {
            var report = BenchReport(columns: ["file", "entries", "ms", "mb_per_s", "feedparser_rs_ms", "feedparser_rs_ratio"])
            for file in files {
                do {
                    let row = try Self.measure(file: file, runs: runs)
                    let peer = feedparserRS ? try PythonPeer.feedparserRS(file: file, runs: runs) : nil
                    guard case .number(let milliseconds) = row[2] else { continue }
                    report.append(row + [BenchValue(peer), BenchValue(peer.map { $0 / milliseconds })])
                } catch {
                    printError("scrollwork bench feed: \(error)")
                    throw ExitCode.failure
                }
            }
            report.print(json: options.json)
            return
        }
        var report = BenchReport(columns: [
            "case", "entries", "mb", "ms", "mb_per_s", "libxml2_ms", "libxml2_mb_per_s", "ratio_to_bare_libxml2",
            "feedparser_rs_ms", "feedparser_rs_ratio", "peak_mb", "libxml2_peak_mb",
        ])
        let directory = feedparserRS ? try PythonPeer.scratchDirectory() : nil
        defer { if let directory { try? FileManager.default.removeItem(atPath: directory) } }
        let parseCases = FeedFixture.Format.allCases.flatMap { format in
            Self.sizes.map { (Self.caseName(format, $0), $0, { FeedFixture.make(format, entries: $0) }) }
                + Self.realWorldSizes.map { (Self.realWorldCaseName(format, $0), $0, { FeedFixture.makeRealWorld(format, entries: $0) }) }
        } + [(Self.podcastCase, Self.podcastEntries, { FeedFixture.makePodcast(entries: $0) })]
        for (name, entries, make) in parseCases where only.isEmpty || only.contains(name) {
            let bytes = make(entries)
            let parsed = Self.parse(bytes)
            guard parsed == entries else {
                printError("scrollwork bench feed: \(name): parsed \(parsed) entries, expected \(entries)")
                throw ExitCode.failure
            }
            let megabytes = Double(bytes.count) / 1_048_576
            let (feedsMilliseconds, bareMilliseconds) = Stopwatch.interleavedMedianMilliseconds(
                runs: runs, { Self.parse(bytes) }, { Self.walk(bytes) })
            let peak = PeakMemory.measure { Self.parse(bytes) }.peakBytes
            let barePeak = PeakMemory.measure { Self.walk(bytes) }.peakBytes
            var peer: (milliseconds: Double, ratio: Double)?
            if let directory {
                let file = "\(directory)/\(name).xml"
                do {
                    try FileBytes.write(bytes, to: file)
                    peer = try Self.againstFeedparserRS(bytes, file: file, runs: runs)
                } catch {
                    printError("scrollwork bench feed: \(error)")
                    throw ExitCode.failure
                }
            }
            report.append([
                .text(name), .number(Double(entries)), .number(megabytes),
                .number(feedsMilliseconds), .number(megabytes / (feedsMilliseconds / 1000)),
                .number(bareMilliseconds), .number(megabytes / (bareMilliseconds / 1000)),
                .number(bareMilliseconds / feedsMilliseconds),
                BenchValue(peer?.milliseconds), BenchValue(peer?.ratio),
                BenchValue(peak.map { Double($0) / 1_048_576 }), BenchValue(barePeak.map { Double($0) / 1_048_576 }),
            ])
        }
        if !report.rows.isEmpty { report.print(json: options.json) }
        try await runIngest()
        try await runLiveCases()
        try runProcessIngest()
    }

    /// The whole-process ingest cases, against newsboat where it is installed.
    private func runProcessIngest() throws {
        var report = BenchReport(columns: ProcessIngestBench.columns)
        for entries in ProcessIngestBench.sizes where only.isEmpty || only.contains(ProcessIngestBench.caseName(entries)) {
            do {
                report.append(try ProcessIngestBench.measure(entries: entries, rounds: runs))
            } catch {
                printError("scrollwork bench feed: \(ProcessIngestBench.caseName(entries)): \(error)")
                throw ExitCode.failure
            }
        }
        if !report.rows.isEmpty { report.print(json: options.json) }
    }

    /// The cases of Feeds as a list's source: a large file refreshed in bounded memory, and
    /// the light row snapshot against the full query.
    private func runLiveCases() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if only.isEmpty || only.contains(Self.fileIngestCase) {
            var report = BenchReport(columns: ["case", "entries", "mb", "ms", "mb_per_s", "peak_mb"])
            // About 20 MB of RSS: the size at which a file read whole once broke the parser.
            let entries = 11_000
            let bytes = FeedFixture.make(.rss, entries: entries)
            let file = directory.appendingPathComponent("big.xml")
            try Data(bytes).write(to: file)
            let store = try FeedStore(path: directory.appendingPathComponent("file.sqlite").path)
            let feed = try await store.addFeed(url: file)
            let fetcher = FeedFetcher()
            let start = ContinuousClock.now
            let measured = await PeakMemory.measure { await FeedRefresher(store: store, fetcher: fetcher).refresh(feed) }
            let milliseconds = (ContinuousClock.now - start).milliseconds
            try? await fetcher.shutdown()
            guard measured.result.status == .refreshed(new: entries, modified: 0, unchanged: 0, malformed: false) else {
                printError("scrollwork bench feed: \(Self.fileIngestCase): \(measured.result.status)")
                throw ExitCode.failure
            }
            let megabytes = Double(bytes.count) / 1_048_576
            report.append([
                .text(Self.fileIngestCase), .number(Double(entries)), .number(megabytes), .number(milliseconds),
                .number(megabytes / (milliseconds / 1000)), BenchValue(measured.peakBytes.map { Double($0) / 1_048_576 }),
            ])
            report.print(json: options.json)
        }
        if only.isEmpty || only.contains(Self.snapshotCase) {
            var report = BenchReport(columns: ["case", "rows", "ms", "entries_query_ms", "ratio"])
            let (rowsMilliseconds, entriesMilliseconds) = try await Self.snapshotTimes(
                path: directory.appendingPathComponent("snapshot.sqlite").path, runs: runs)
            report.append([
                .text(Self.snapshotCase), .number(10_000), .number(rowsMilliseconds), .number(entriesMilliseconds),
                .number(rowsMilliseconds / entriesMilliseconds),
            ])
            report.print(json: options.json)
        }
    }

    /// The row for one of the user's feed files: the entries it holds, the median time of
    /// reading and parsing it (in chunks, as from a socket), and the throughput that makes.
    static func measure(file: String, runs: Int) throws -> [BenchValue] {
        let parseFile = { () throws -> (entries: Int, bytes: Int) in
            let bytes = try FileBytes.read(file)
            return (try entryCount(bytes, url: URL(fileURLWithPath: file)), bytes.count)
        }
        // A file that fails fails on the first try, before anything is timed.
        let (entries, size) = try parseFile()
        let milliseconds = Stopwatch.medianMilliseconds(runs: runs) { try? parseFile() }
        return [.text(file), .number(Double(entries)), .number(milliseconds), .number(Double(size) / 1_048_576 / (milliseconds / 1000))]
    }

    /// The ingest cases: parse and store, then re-ingest unchanged and with 10% edited.
    private func runIngest() async throws {
        var report = BenchReport(columns: ["case", "entries", "mb", "ms", "mb_per_s", "peak_mb"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var databases = 0
        func freshStore() async throws -> (FeedStore, StoredFeed.ID) {
            databases += 1
            let store = try FeedStore(path: directory.appendingPathComponent("\(databases).sqlite").path)
            return (store, try await store.addFeed(url: URL(string: "https://bench.example/feed")!, title: nil, category: nil).id)
        }
        for format in FeedFixture.Format.allCases {
            for entries in Self.sizes where only.isEmpty || only.contains(Self.ingestCaseName(format, entries)) {
                let bytes = FeedFixture.make(format, entries: entries)
                let edited = FeedFixture.make(format, entries: entries, editedEvery: 10)
                let changedCount = (entries + 9) / 10
                var first: [Double] = []
                var unchanged: [Double] = []
                var changed: [Double] = []
                for _ in 0..<max(1, runs / 2) {
                    let (store, feed) = try await freshStore()
                    first.append(try await Self.timed { try await Self.ingest(bytes, into: store, feed: feed, expecting: (entries, 0, 0)) })
                    unchanged.append(try await Self.timed { try await Self.ingest(bytes, into: store, feed: feed, expecting: (0, 0, entries)) })
                    changed.append(try await Self.timed {
                        try await Self.ingest(edited, into: store, feed: feed, expecting: (0, changedCount, entries - changedCount))
                    })
                }
                let (store, feed) = try await freshStore()
                let peak = await PeakMemory.measure { () async -> Result<Void, any Error> in
                    do { return .success(try await Self.ingest(bytes, into: store, feed: feed, expecting: nil)) } catch { return .failure(error) }
                }
                _ = try peak.result.get()
                let megabytes = Double(bytes.count) / 1_048_576
                let name = Self.ingestCaseName(format, entries)
                for (caseName, samples, peakBytes) in [
                    (name, first, peak.peakBytes), ("re" + name + "-unchanged", unchanged, nil),
                    ("re" + name + "-10pct-changed", changed, nil),
                ] {
                    let milliseconds = Stopwatch.median(samples)
                    report.append([
                        .text(caseName), .number(Double(entries)), .number(megabytes), .number(milliseconds),
                        .number(megabytes / (milliseconds / 1000)), BenchValue(peakBytes.map { Double($0) / 1_048_576 }),
                    ])
                }
            }
        }
        if !report.rows.isEmpty { report.print(json: options.json) }
    }

    /// Median times of the 10,000-row snapshot and of the full query of the same page, on a
    /// store holding one ingested feed of 10,000 entries, each read on GRDB's queue as the
    /// reader reads it; the two alternate, after one untimed read of each.
    private static func snapshotTimes(path: String, runs: Int) async throws -> (rows: Double, entries: Double) {
        let store = try FeedStore(path: path)
        let feed = try await store.addFeed(url: URL(string: "https://bench.example/feed")!, title: "Bench", category: nil)
        try await ingest(FeedFixture.make(.rss, entries: 10_000), into: store, feed: feed.id, expecting: (10_000, 0, 0))
        let query = EntryQuery(limit: 10_000)
        guard try await store.rows(query).count == 10_000, try await store.entries(query).count == 10_000 else {
            printError("scrollwork bench feed: \(snapshotCase): the queries did not return 10,000 rows")
            throw ExitCode.failure
        }
        var (rows, entries): ([Double], [Double]) = ([], [])
        for _ in 0..<runs {
            rows.append(try await timed { _ = try await store.rows(query) })
            entries.append(try await timed { _ = try await store.entries(query) })
        }
        return (Stopwatch.median(rows), Stopwatch.median(entries))
    }

    private static func timed(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        return (ContinuousClock.now - start).milliseconds
    }

    /// Parses `bytes` in chunks and stores each batch as it comes, checking the change counts
    /// (new, modified, unchanged) when given: a benchmark of a wrong result measures nothing.
    static func ingest(
        _ bytes: [UInt8], into store: FeedStore, feed: StoredFeed.ID, expecting expected: (Int, Int, Int)?
    ) async throws {
        var parser = FeedParser(url: URL(string: "https://bench.example/feed"))
        var counts = EntryChangeCounts()
        func keep(_ batch: [FeedEntry]) async throws {
            guard !batch.isEmpty else { return }
            counts.add(try await store.upsert(entries: batch, feed: feed, now: Date()))
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkSize, bytes.count)
            for batch in try parser.consume(bytes[offset..<end]) { try await keep(batch) }
            offset = end
        }
        try await keep(parser.finish().entries)
        if let expected, (counts.new, counts.modified, counts.unchanged) != expected {
            printError("scrollwork bench feed: ingest stored \(counts) (new, modified, unchanged), expected \(expected)")
            throw ExitCode.failure
        }
    }

    /// Blocks of feedparser-rs's runs and of ours, in turn.
    static let peerBlocks = 3

    /// feedparser-rs's median time on `file` and its median over ours (above 1, Scrollwork is
    /// faster): ``peerBlocks`` blocks of `runs` runs of each side in turn, each block's median
    /// kept, and the medians of those compared, so a machine whose speed drifts during the
    /// minute this takes does not favour whichever side ran while it was faster.
    static func againstFeedparserRS(_ bytes: [UInt8], file: String, runs: Int) throws -> (milliseconds: Double, ratio: Double) {
        var ours: [Double] = []
        var theirs: [Double] = []
        for _ in 0..<peerBlocks {
            theirs.append(try PythonPeer.feedparserRS(file: file, runs: runs))
            ours.append(Stopwatch.medianMilliseconds(runs: runs) { Self.parse(bytes) })
        }
        return (Stopwatch.median(theirs), Stopwatch.median(theirs) / Stopwatch.median(ours))
    }

    /// The full parse of a generated feed, streamed in chunks; returns how many entries came out.
    static func parse(_ bytes: [UInt8]) -> Int {
        do {
            return try entryCount(bytes, url: URL(string: "https://bench.example/feed"))
        } catch {
            preconditionFailure("the generated feed failed to parse: \(error)")
        }
    }

    /// The full parse, streamed in `chunkSize` chunks as from a socket; returns how many
    /// entries came out.
    static func entryCount(_ bytes: [UInt8], url: URL?) throws -> Int {
        var parser = FeedParser(url: url)
        var count = 0
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkSize, bytes.count)
            for batch in try parser.consume(bytes[offset..<end]) { count += batch.count }
            offset = end
        }
        return count + (try parser.finish().entries.count)
    }

    /// libxml2's SAX walk over the same bytes in the same chunks, building nothing; returns
    /// the element count.
    static func walk(_ bytes: [UInt8]) -> Int {
        guard let elements = BareXMLWalk.elementCount(bytes, chunkSize: chunkSize) else {
            preconditionFailure("libxml2 could not be loaded, yet the feed parsed")
        }
        return elements
    }
}
