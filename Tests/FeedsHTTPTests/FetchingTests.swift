import FeedsTestSupport
import Foundation
import ScrollworkTestSupport
import Testing
@testable import Feeds
@testable import FeedsHTTP

/// The fetcher against a loopback server.
@Suite(.serialized) struct FetchingTests {
    static let feed = #"<rss version="2.0"><channel><title>Plain</title><item><title>One</title><guid>1</guid></item></channel></rss>"#

    /// The feed below, gzip-compressed (Python's `gzip.compress(..., mtime=0)`):
    /// `<rss version="2.0"><channel><title>Zipped</title><item><title>One</title><guid>1</guid></item></channel></rss>`
    static let gzipped: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xB3, 0x29, 0x2A, 0x2E, 0x56, 0x28, 0x4B, 0x2D,
        0x2A, 0xCE, 0xCC, 0xCF, 0xB3, 0x55, 0x32, 0xD2, 0x33, 0x50, 0xB2, 0xB3, 0x49, 0xCE, 0x48, 0xCC, 0xCB, 0x4B,
        0xCD, 0xB1, 0xB3, 0x29, 0xC9, 0x2C, 0xC9, 0x49, 0xB5, 0x8B, 0xCA, 0x2C, 0x28, 0x48, 0x4D, 0xB1, 0xD1, 0x87,
        0xF0, 0x6C, 0x32, 0x4B, 0x52, 0x73, 0x61, 0x52, 0xFE, 0x79, 0xA9, 0x70, 0xF1, 0xF4, 0xD2, 0xCC, 0x14, 0x3B,
        0x43, 0x1B, 0x7D, 0x30, 0x6D, 0xA3, 0x0F, 0x51, 0xA6, 0x0F, 0x37, 0x4B, 0x1F, 0x68, 0x91, 0x1D, 0x00, 0xF1,
        0x52, 0xCE, 0xDA, 0x6E, 0x00, 0x00, 0x00,
    ]

    /// `/feed` answers with validators and 304 when they match; `/zipped` is gzip; `/old`
    /// moved permanently to `/feed` (via `/older` with a 308 first); `/temporary` 302s to
    /// `/feed`; `/loop` redirects to itself; `/gone` is 410; `/silent` never answers.
    private func withServer(
        _ configure: (inout FeedFetcher.Configuration) -> Void = { _ in },
        _ body: (LoopbackHTTPServer, FeedFetcher) async throws -> Void
    ) async throws {
        let server = try await LoopbackHTTPServer.start { request, _ in
            switch request.path {
            case "/feed":
                if request.header("If-None-Match") == "\"v1\"" || request.header("If-Modified-Since") == "Sat, 02 Mar 2024 10:00:00 GMT" {
                    return .respond(status: 304)
                }
                return .text(200, Self.feed, headers: [
                    ("ETag", "\"v1\""), ("Last-Modified", "Sat, 02 Mar 2024 10:00:00 GMT"),
                    ("Content-Type", "application/rss+xml; charset=\"ISO-8859-1\""),
                ])
            case "/zipped":
                return .respond(status: 200, headers: [("Content-Encoding", "gzip")], body: Self.gzipped)
            case "/old": return .text(308, "", headers: [("Location", "/older")])
            case "/older": return .text(301, "", headers: [("Location", "/feed")])
            case "/temporary": return .text(302, "", headers: [("Location", "/feed")])
            case "/loop": return .text(302, "", headers: [("Location", "/loop")])
            case "/silent": return .silent
            default: return .text(410, "gone")
            }
        }
        var configuration = FeedFetcher.Configuration()
        configure(&configuration)
        let fetcher = FeedFetcher(configuration: configuration)
        do {
            try await body(server, fetcher)
        } catch {
            Issue.record(error)
        }
        try await fetcher.shutdown()
        try await server.stop()
    }

    private func fetched(_ result: FeedFetchResult) -> FetchedFeed? {
        if case .fetched(let feed) = result { feed } else { nil }
    }

    @Test func fetchesAFeedWithItsValidatorsAndCharset() async throws {
        try await withServer { server, fetcher in
            let feed = try #require(fetched(try await fetcher.fetch(FeedFetchRequest(url: server.url("/feed")))))
            #expect(feed.body == Array(Self.feed.utf8))
            #expect(feed.etag == "\"v1\"")
            #expect(feed.lastModified == "Sat, 02 Mar 2024 10:00:00 GMT")
            #expect(feed.charset == "ISO-8859-1")
            #expect(feed.permanentRedirect == nil)
        }
    }

    @Test func aConditionalFetchOfAnUnchangedFeedIsNotModified() async throws {
        try await withServer { server, fetcher in
            let byETag = try await fetcher.fetch(FeedFetchRequest(url: server.url("/feed"), etag: "\"v1\""))
            let byDate = try await fetcher.fetch(
                FeedFetchRequest(url: server.url("/feed"), lastModified: "Sat, 02 Mar 2024 10:00:00 GMT"))
            for result in [byETag, byDate] {
                guard case .notModified(nil) = result else {
                    Issue.record("expected not modified, got \(result)")
                    continue
                }
            }
        }
    }

    @Test func decompressesGzip() async throws {
        try await withServer { server, fetcher in
            let feed = try #require(fetched(try await fetcher.fetch(FeedFetchRequest(url: server.url("/zipped")))))
            let parsed = try FeedDocumentParser().parse(feed.body, url: server.url("/zipped"), charset: nil)
            #expect(parsed.info.title == "Zipped")
        }
    }

    @Test func onlyPermanentRedirectsMoveTheFeed() async throws {
        try await withServer { server, fetcher in
            let moved = try #require(fetched(try await fetcher.fetch(FeedFetchRequest(url: server.url("/old")))))
            #expect(moved.permanentRedirect == server.url("/feed"))
            #expect(moved.finalURL == server.url("/feed"))
            let temporary = try #require(fetched(try await fetcher.fetch(FeedFetchRequest(url: server.url("/temporary")))))
            #expect(temporary.permanentRedirect == nil)
            #expect(temporary.finalURL == server.url("/feed"))
        }
    }

    @Test func failuresAreTyped() async throws {
        // Long enough for the answers of a loaded machine (300 ms once timed out /gone's 410
        // under the full suite), short enough for /silent, which never answers.
        try await withServer({ $0.timeout = .seconds(2) }) { server, fetcher in
            for (path, expected) in [("/gone", FeedFetchError.status(410)), ("/loop", .tooManyRedirects), ("/silent", .timedOut)] {
                await #expect(throws: expected, "\(path)") { try await fetcher.fetch(FeedFetchRequest(url: server.url(path))) }
            }
            await #expect(throws: FeedFetchError.unsupportedScheme("gopher")) {
                try await fetcher.fetch(FeedFetchRequest(url: URL(string: "gopher://example.com/feed")!))
            }
        }
    }

    @Test func readsFilesAndRefusesOversizedOnes() async throws {
        try await withServer({ $0.maxBodySize = 50 }) { _, fetcher in
            let scratch = ScratchDirectory("scrollwork-fetch")
            let small = try scratch.file("<rss/>", suffix: "xml")
            #expect(fetched(try await fetcher.fetch(FeedFetchRequest(url: small)))?.body == Array("<rss/>".utf8))
            let large = scratch.path("large.xml")
            try Data(repeating: 32, count: 51).write(to: large)
            await #expect(throws: FeedFetchError.tooLarge(limit: 50)) { try await fetcher.fetch(FeedFetchRequest(url: large)) }
            await #expect(throws: FeedFetchError.fileUnreadable("/nonexistent/feed.xml")) {
                try await fetcher.fetch(FeedFetchRequest(url: URL(fileURLWithPath: "/nonexistent/feed.xml")))
            }
        }
    }

    @Test func manyFeedsAreFetchedInOrderAtMostTheLimitAtOnce() async throws {
        // How a refresh of every feed opens them: results in the order of the feeds, at most
        // `limit` under way, a failure staying with its own feed.
        let counter = ConcurrencyCounter()
        let paths = ["/feed", "/gone", "/zipped", "/temporary", "/gone", "/feed", "/old"]
        try await withServer { server, fetcher in
            let results = await mapConcurrently(paths, limit: 2) { path in
                await counter.enter()
                let outcome: String
                do throws(FeedFetchError) {
                    _ = try await fetcher.fetch(FeedFetchRequest(url: server.url(path)))
                    outcome = path
                } catch {
                    outcome = "\(path): \(error)"
                }
                await counter.leave()
                return outcome
            }
            #expect(results == paths.map { $0 == "/gone" ? "/gone: the server answered HTTP 410" : $0 })
            #expect(server.hits("/gone") == 2)
        }
        #expect(await counter.highest <= 2)
        #expect(await counter.highest >= 1)
    }

    @Test func charsetIsReadFromContentType() {
        #expect(FeedFetcher.charset("text/xml; charset=windows-1252") == "windows-1252")
        #expect(FeedFetcher.charset("text/xml;Charset=\"utf-8\"") == "utf-8")
        #expect(FeedFetcher.charset("application/rss+xml") == nil)
    }
}

/// The most tasks inside a section at once.
private actor ConcurrencyCounter {
    private(set) var highest = 0
    private var inside = 0

    func enter() {
        inside += 1
        highest = max(highest, inside)
    }

    func leave() { inside -= 1 }
}
