import ArgumentParser
import Feeds
import FeedsHTTP
import Foundation
import ScrollworkReader

/// `scrollwork bench search`: a query typed key by key into a store of many posts, through the
/// full-text index and through the `LIKE` scan the reader used before it; and what the index
/// costs a fresh ingest and the store's size.
struct SearchBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search as you type through the full-text index against a LIKE scan.",
        discussion: """
            Builds a store of --posts generated posts (English-like text under a Zipf law, \
            articles of 1-20 KB of HTML, 50 feeds; a few minutes for 100,000, kept with --store) \
            and types each query of the set one key at a time, as the reader's search does: each \
            keystroke reads the first screen of results (60 rows), ranked, through the index \
            (ms_p50, ms_p99 over every keystroke of every round), and the same text through the \
            LIKE scan of titles and excerpts that the reader searched with before \
            (like_ms_p50, like_ms_p99; ratio_p99 is the scan's p99 over the index's). The ingest \
            rows store the generated 10,000-entry RSS feed of `bench feed` into a fresh store with \
            the index kept and without (ms, without_ms; index_share is the part of the ingest's \
            time the index takes), and the file's size once checkpointed (mb, without_mb): \
            ingest-rss-10000 stores it as `bench feed` does (a transaction per parser batch of \
            10), refresh-rss-10000 as `scrollwork refresh` does (the refresher's transactions of \
            up to 200 entries, the file read from disk).
            """)

    @OptionGroup var options: BenchOptions
    @Option(help: "Posts in the searched store.") var posts = 100_000
    @Option(help: "Rounds of typing every query.") var runs = 5
    @Option(help: "Keep the searched store at this path and reuse it when it holds --posts posts.") var store: String?
    @Option(name: .customLong("case"), help: "Run only these cases (typing, ingest; repeat the option); default: all.") var cases: [String] = []

    /// The queries typed, each one key at a time.
    static let queries = [
        "sqlite wal", "rust async runtime", "climate policy", "\"write ahead log\"", "cafe", "title:rust", "the",
        "checkpoint -sqlite", "is:unread policy",
    ]

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if cases.isEmpty || cases.contains("typing") {
            try await typing(path: store ?? directory.appendingPathComponent("search.sqlite").path)
        }
        if cases.isEmpty || cases.contains("ingest") {
            try await ingestCost(directory: directory)
        }
    }

    private func typing(path: String) async throws {
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        let (store, buildSeconds) = try await Self.searchedStore(path: path, posts: posts, now: now)
        var report = BenchReport(columns: ["case", "posts", "keystrokes", "ms_p50", "ms_p99", "like_ms_p50", "like_ms_p99", "ratio_p99"])
        var indexed: [Double] = []
        var scanned: [Double] = []
        var perQuery: [(String, [Double], [Double])] = []
        let clock = ContinuousClock()
        for round in 0..<runs + 1 {
            for query in Self.queries {
                var queryIndexed: [Double] = []
                var queryScanned: [Double] = []
                for length in 1...query.count {
                    let typed = String(query.prefix(length))
                    let search = SearchQuery(parsing: typed, asYouType: true, now: now)
                    var rows = 0
                    let indexTime = try await clock.measure {
                        rows = try await store.rows(EntryQuery(search: search, matchWindow: ReaderState.searchMatchWindow, limit: 60)).count
                    }.milliseconds
                    let scanTime = try await clock.measure {
                        _ = try await store.rows(EntryQuery(textContains: typed, limit: 60))
                    }.milliseconds
                    if round == 0 {
                        // The first round warms the caches, and checks that the words are there.
                        if length == query.count, rows == 0 {
                            printError("scrollwork bench search: “\(query)” found nothing")
                            throw ExitCode.failure
                        }
                        continue
                    }
                    queryIndexed.append(indexTime)
                    queryScanned.append(scanTime)
                }
                indexed += queryIndexed
                scanned += queryScanned
                if round > 0 {
                    if let index = perQuery.firstIndex(where: { $0.0 == query }) {
                        perQuery[index].1 += queryIndexed
                        perQuery[index].2 += queryScanned
                    } else {
                        perQuery.append((query, queryIndexed, queryScanned))
                    }
                }
            }
        }
        func row(_ name: String, _ indexed: [Double], _ scanned: [Double]) -> [BenchValue] {
            let (p50, p99) = (TerminalBench.percentile(indexed, 0.5), TerminalBench.percentile(indexed, 0.99))
            let (likeP50, likeP99) = (TerminalBench.percentile(scanned, 0.5), TerminalBench.percentile(scanned, 0.99))
            return [.text(name), .number(Double(posts)), .number(Double(indexed.count)), .number(p50), .number(p99),
                    .number(likeP50), .number(likeP99), .number(likeP99 / p99)]
        }
        report.append(row("keystroke", indexed, scanned))
        for (query, indexed, scanned) in perQuery {
            report.append(row("keystroke \(query)", indexed, scanned))
        }
        report.print(json: options.json)
        if let buildSeconds, !options.json {
            print("(the store of \(posts) posts was built in \(String(format: "%.1f", buildSeconds)) s)\n")
        }
    }

    /// The store of `posts` generated posts at `path`, built unless it is there already, and
    /// the seconds building it took.
    private static func searchedStore(path: String, posts: Int, now: Date) async throws -> (FeedStore, Double?) {
        let store = try FeedStore(path: path)
        if try await store.rows(EntryQuery(limit: posts + 1)).count == posts {
            return (store, nil)
        }
        guard try await store.feeds().isEmpty else {
            printError("scrollwork bench search: \(path) holds other posts; give another --store")
            throw ExitCode.failure
        }
        let corpus = SearchCorpus()
        let start = ContinuousClock.now
        let perFeed = (posts + SearchCorpus.feedCount - 1) / SearchCorpus.feedCount
        var stored = 0
        for feed in 0..<SearchCorpus.feedCount where stored < posts {
            let added = try await store.addFeed(url: URL(string: "https://feed\(feed).example/rss")!, title: corpus.feedTitles[feed])
            let entries = corpus.posts(feed: feed, count: min(perFeed, posts - stored), now: now)
            for start in stride(from: 0, to: entries.count, by: 500) {
                _ = try await store.upsert(entries: Array(entries[start..<min(start + 500, entries.count)]), feed: added.id, now: now)
            }
            stored += entries.count
            printError("scrollwork bench search: stored \(stored) of \(posts) posts")
        }
        try await store.indexAllWaitingPosts { done, total in
            if done % 10_000 == 0 || done == total { printError("scrollwork bench search: indexed \(done) of \(total) posts") }
        }
        let unread = try await store.rows(EntryQuery(limit: posts)).enumerated().filter { $0.offset % 3 == 0 }.map(\.element.id)
        try await store.setRead(true, entries: unread)
        return (store, (ContinuousClock.now - start).milliseconds / 1000)
    }

    /// The fresh ingest of `bench feed`'s 10,000 entries with the index and without, median
    /// of `runs` alternating rounds, and the size of each file: stored as `bench feed` stores
    /// them (a transaction per parser batch of 10) and as `scrollwork refresh` does (the
    /// refresher's transactions, up to 200 entries). The ingest leaves its posts waiting for
    /// the index (`ms`, and its share over the ingest without: `ingest_share`); the index is
    /// then built as the reader builds it (`index_ms`), and `whole_share` is its share of both.
    private func ingestCost(directory: URL) async throws {
        var report = BenchReport(columns: ["case", "entries", "ms", "without_ms", "ingest_share", "index_ms", "whole_share", "mb", "without_mb"])
        let bytes = FeedFixture.make(.rss, entries: 10_000)
        let file = directory.appendingPathComponent("feed-10000.xml")
        try Data(bytes).write(to: file)
        var databases = 0
        for refresher in [false, true] {
            var (with, without, indexes): ([Double], [Double], [Double]) = ([], [], [])
            var sizes: (with: Double, without: Double) = (0, 0)
            for _ in 0..<max(1, runs) {
                for indexing in [true, false] {
                    databases += 1
                    let path = directory.appendingPathComponent("ingest-\(databases).sqlite").path
                    let store = try FeedStore(path: path, indexingText: indexing)
                    let start: ContinuousClock.Instant
                    if refresher {
                        let feed = try await store.addFeed(url: file)
                        let fetcher = FeedFetcher()
                        start = .now
                        let outcome = await FeedRefresher(store: store, fetcher: fetcher).refresh(feed)
                        try? await fetcher.shutdown()
                        guard outcome.status == .refreshed(new: 10_000, modified: 0, unchanged: 0, malformed: false) else {
                            printError("scrollwork bench search: the refresh gave \(outcome.status)")
                            throw ExitCode.failure
                        }
                    } else {
                        let feed = try await store.addFeed(url: URL(string: "https://bench.example/feed")!, title: "Bench", category: nil)
                        start = .now
                        try await FeedBench.ingest(bytes, into: store, feed: feed.id, expecting: (10_000, 0, 0))
                    }
                    let milliseconds = (ContinuousClock.now - start).milliseconds
                    if indexing {
                        let indexStart = ContinuousClock.now
                        try await store.indexAllWaitingPosts()
                        indexes.append((ContinuousClock.now - indexStart).milliseconds)
                    }
                    try await store.checkpoint()
                    let megabytes = Self.fileMegabytes(path)
                    if indexing { with.append(milliseconds); sizes.with = megabytes } else { without.append(milliseconds); sizes.without = megabytes }
                }
            }
            let (withMedian, withoutMedian, indexMedian) = (Stopwatch.median(with), Stopwatch.median(without), Stopwatch.median(indexes))
            report.append([
                .text(refresher ? "refresh-rss-10000" : "ingest-rss-10000"), .number(10_000), .number(withMedian), .number(withoutMedian),
                .number((withMedian - withoutMedian) / withMedian), .number(indexMedian),
                .number((withMedian + indexMedian - withoutMedian) / (withMedian + indexMedian)), .number(sizes.with), .number(sizes.without),
            ])
        }
        report.print(json: options.json)
    }

    /// The size of the database file at `path` and its WAL, in megabytes.
    private static func fileMegabytes(_ path: String) -> Double {
        let bytes = [path, path + "-wal"].compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }.reduce(0, +)
        return Double(bytes) / 1_048_576
    }
}
