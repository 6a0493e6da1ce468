import Feeds
import FeedsHTTP
import FeedsTestSupport
import Foundation
import ScrollworkTestSupport
import Testing

/// Fetch, parse and store together.
@Suite(.serialized) struct RefreshTests {
    static func rss(_ items: [(id: String, title: String)]) -> String {
        let body = items.map { "<item><guid>\($0.id)</guid><title>\($0.title)</title></item>" }.joined()
        return #"<rss version="2.0"><channel><title>Refreshed</title><link>https://site.example/</link>"# + body + "</channel></rss>"
    }

    private let scratch = ScratchDirectory("scrollwork-refresh")

    private func file(_ text: String) throws -> URL {
        try scratch.file(text, suffix: "xml")
    }

    @Test func reportsNewModifiedAndUnchangedEntriesAcrossRefreshes() async throws {
        let store = try FeedStore()
        let fetcher = FeedFetcher()
        let refresher = FeedRefresher(store: store, fetcher: fetcher, parsing: .init(batchSize: 2))
        let url = try file(Self.rss([("1", "One"), ("2", "Two"), ("3", "Three")]))
        let feed = try await store.addFeed(url: url, title: nil, category: nil)

        let first = await refresher.refresh(feed)
        #expect(first.status == .refreshed(new: 3, modified: 0, unchanged: 0, malformed: false))
        try Data(Self.rss([("1", "One"), ("2", "Two, edited"), ("3", "Three"), ("4", "Four")]).utf8).write(to: url)
        let second = await refresher.refresh(try #require(try await store.feed(id: feed.id)))
        #expect(second.status == .refreshed(new: 1, modified: 1, unchanged: 2, malformed: false))
        #expect(try await store.feed(id: feed.id)?.title == "Refreshed")
        #expect(try await store.entries(EntryQuery()).count == 4)
        try await fetcher.shutdown()
    }

    @Test func fiftyDeadFeedsFailAtOnceEachWithOneClearLine() async throws {
        // Ports nothing listens on, and no other test's server can take meanwhile.
        let closed = try (0..<5).map { _ in try ClosedPort() }
        let urls = closed.enumerated().flatMap { index, port in (0..<10).map { port.url("/feed-\(index)-\($0).xml") } }
        let store = try FeedStore()
        let fetcher = FeedFetcher()
        let refresher = FeedRefresher(store: store, fetcher: fetcher)
        for url in urls { _ = try await store.addFeed(url: url, title: nil, category: nil) }

        let start = ContinuousClock.now
        let outcomes = try await refresher.refreshAll()

        #expect(outcomes.count == 50)
        for outcome in outcomes {
            guard case .failed(let message) = outcome.status else {
                Issue.record("expected a failure, got \(outcome.status)")
                continue
            }
            #expect(message.hasPrefix("connection refused by 127.0.0.1:"), "\(message)")
            #expect(!message.contains("\n"))
        }
        // Not the connect timeout (10 seconds a feed, 130 seconds in all before).
        #expect(ContinuousClock.now - start < .seconds(10))
        try await fetcher.shutdown()
    }

    @Test func aFailedRefreshKeepsTheEntriesAndRecordsTheError() async throws {
        let store = try FeedStore()
        let fetcher = FeedFetcher()
        let refresher = FeedRefresher(store: store, fetcher: fetcher)
        let url = try file(Self.rss([("1", "One")]))
        let feed = try await store.addFeed(url: url, title: nil, category: nil)
        _ = await refresher.refresh(feed)
        try Data("<html><body>not a feed</body></html>".utf8).write(to: url)
        let outcome = await refresher.refresh(try #require(try await store.feed(id: feed.id)))
        guard case .failed = outcome.status else {
            Issue.record("expected a failure, got \(outcome.status)")
            return
        }
        #expect(try await store.feed(id: feed.id)?.lastError != nil)
        #expect(try await store.entries(EntryQuery()).map(\.entry.id) == ["1"])
        try await fetcher.shutdown()
    }

    @Test func batchesAreStoredAsTheBodyArrivesSoABrokenTransferKeepsThem() async throws {
        let items = (1...40).map { (String($0), "Entry \($0)") }
        let document = Array(Self.rss(items).utf8)
        // Half the body, then the server hangs up: only what was parsed on the way can be stored.
        let half = Array(document.prefix(document.count / 2))
        let server = try await LoopbackHTTPServer.start { _, _ in
            .brokenOff(status: 200, declaredLength: document.count, body: half)
        }
        let store = try FeedStore()
        let fetcher = FeedFetcher()
        let refresher = FeedRefresher(store: store, fetcher: fetcher, parsing: .init(batchSize: 5))
        let feed = try await store.addFeed(url: server.url("/feed"), title: nil, category: nil)
        let outcome = await refresher.refresh(feed)
        guard case .failed = outcome.status else {
            Issue.record("a broken transfer must fail, got \(outcome.status)")
            return
        }
        let stored = try await store.entries(EntryQuery(limit: 100)).count
        #expect(stored >= 5, "batches parsed before the break are kept")
        #expect(stored % 5 == 0 && stored < 40, "only whole batches, and not the entries after the break")
        #expect(try await store.feed(id: feed.id)?.etag == nil, "validators are recorded only after a complete refresh")
        try await fetcher.shutdown()
        try await server.stop()
    }

    @Test func anUnchangedFeedCostsNoParsingAndAPermanentMoveUpdatesTheAddress() async throws {
        let server = try await LoopbackHTTPServer.start { request, _ in
            switch request.path {
            case "/old": return .text(301, "", headers: [("Location", "/feed")])
            case "/feed":
                if request.header("If-None-Match") == "\"v1\"" { return .respond(status: 304) }
                return .text(200, Self.rss([("1", "One")]), headers: [("ETag", "\"v1\"")])
            default: return .text(404, "")
            }
        }
        let store = try FeedStore()
        let fetcher = FeedFetcher()
        let refresher = FeedRefresher(store: store, fetcher: fetcher)
        let feed = try await store.addFeed(url: server.url("/old"), title: nil, category: nil)

        let first = await refresher.refresh(feed)
        #expect(first.status == .refreshed(new: 1, modified: 0, unchanged: 0, malformed: false))
        #expect(first.movedTo == server.url("/feed"))
        let moved = try #require(try await store.feed(id: feed.id))
        #expect(moved.url == server.url("/feed"))
        #expect(moved.etag == "\"v1\"")

        let second = await refresher.refresh(moved)
        #expect(second.status == .notModified)
        #expect(server.hits("/feed") == 2)
        let outcomes = try await refresher.refreshAll()
        #expect(outcomes.map(\.status) == [.notModified])
        try await fetcher.shutdown()
        try await server.stop()
    }
}

/// A regression: batches completed by the document's last bytes were dropped by `finish()`.
@Suite struct FinishDeliversEveryEntryTests {
    @Test(arguments: [1, 2, 3, 10])
    func everyEntryArrivesOnceWhateverTheBatchSize(batchSize: Int) throws {
        let document = Array(RefreshTests.rss([("1", "One"), ("2", "Two"), ("3", "Three")]).utf8)
        for chunkSize in [1, 7, document.count] {
            var parser = FeedParser(url: nil, charset: nil, configuration: .init(batchSize: batchSize))
            var ids: [String] = []
            var offset = 0
            while offset < document.count {
                let end = min(offset + chunkSize, document.count)
                ids += try parser.consume(document[offset..<end]).joined().map(\.id)
                offset = end
            }
            ids += try parser.finish().entries.map(\.id)
            #expect(ids == ["1", "2", "3"], "batch size \(batchSize), chunks of \(chunkSize)")
        }
    }
}
