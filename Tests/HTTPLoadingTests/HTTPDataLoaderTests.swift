import ContentLoading
import ContentLoadingHTTP
import Foundation
import LoopbackHTTP
import ScrollworkTestSupport
import Testing
@testable import HTTPLoading
#if canImport(Glibc)
import Glibc
private let socketStream = Int32(SOCK_STREAM.rawValue)
#else
import Darwin
private let socketStream = SOCK_STREAM
#endif

/// The loader against a real server on 127.0.0.1. Time is real only where the test is about a
/// timeout (a fraction of a second); retry backoff goes through a clock that does not wait.
@Suite(.serialized) struct HTTPDataLoaderTests {
    private func withServer(
        _ configure: (inout HTTPDataLoader.Configuration) -> Void = { _ in },
        _ body: (LoopbackHTTPServer, HTTPDataLoader, RecordingClock) async throws -> Void
    ) async throws {
        let server = try await TestRoutes.start()
        var configuration = HTTPDataLoader.Configuration()
        configure(&configuration)
        let clock = RecordingClock()
        let loader = HTTPDataLoader(configuration: configuration, clock: clock, jitter: { 1 })
        do {
            try await body(server, loader, clock)
        } catch {
            Issue.record(error)
        }
        try await loader.shutdown()
        try await server.stop()
    }

    private func failure(_ load: () async throws -> [UInt8]) async -> (any Error)? {
        do {
            _ = try await load()
            return nil
        } catch {
            return error
        }
    }

    @Test func loadsABody() async throws {
        try await withServer { server, loader, _ in
            let body1 = try await loader.loadData(for: server.url("/ok/hello"))
            #expect(body1 == Array("hello".utf8))
        }
    }

    @Test func aMissingResourceIsA404AndIsNotRetried() async throws {
        try await withServer { server, loader, clock in
            let error = await failure { try await loader.loadData(for: server.url("/missing")) }
            #expect(error as? HTTPLoadingError == .status(404, retryAfter: nil))
            #expect(server.hits("/missing") == 1)
            #expect(clock.sleeps.isEmpty)
        }
    }

    /// The limit holds for the body as it is decompressed, whichever way it is read: a body
    /// that expands past it once failed as a broken connection ("limit"), and was tried again.
    @Test func aCompressedBodyIsLimitedAsItExpands() async throws {
        try await withServer({ $0.maxBodySize = 1_000_000 }) { server, loader, clock in
            #expect(try await loader.loadData(for: server.url("/deflated")) == Array("deflated".utf8))
            let reply = try await loader.send(HTTPDataLoader.Request(method: .get, url: server.url("/deflated")))
            #expect(reply.body == Array("deflated".utf8))
            let loaded = await failure { try await loader.loadData(for: server.url("/deflate-bomb")) }
            #expect(loaded as? HTTPLoadingError == .bodyTooLarge(limit: 1_000_000))
            let sent = await failure { try await loader.send(HTTPDataLoader.Request(method: .get, url: server.url("/deflate-bomb"))).body }
            #expect(sent as? HTTPLoadingError == .bodyTooLarge(limit: 1_000_000))
            let opened = await failure { try await loader.open(server.url("/deflate-bomb")).body.collect() }
            #expect(opened as? HTTPLoadingError == .bodyTooLarge(limit: 1_000_000))
            // Once each: a body too large is not tried again (as a failed connection was).
            #expect(server.hits("/deflate-bomb") == 3)
            #expect(clock.sleeps.isEmpty)
        }
    }

    @Test func aFailedStatusIsReportedWithoutReadingItsBody() async throws {
        // "unknown", 7 bytes, is past the limit: the status is the error, not the body's size.
        try await withServer({ $0.maxBodySize = 5 }) { server, loader, _ in
            let error = await failure { try await loader.loadData(for: server.url("/nothing-here")) }
            #expect(error as? HTTPLoadingError == .status(404, retryAfter: nil))
        }
    }

    @Test func aServerErrorIsRetriedWithBackoff() async throws {
        try await withServer { server, loader, clock in
            let body2 = try await loader.loadData(for: server.url("/flaky"))
            #expect(body2 == Array("recovered".utf8))
            #expect(server.hits("/flaky") == 2)
            // First retry: the base delay, with jitter 1 (scale 1.0).
            #expect(clock.sleeps == [.milliseconds(250)])
        }
    }

    @Test func tooManyRequestsHonoursRetryAfter() async throws {
        try await withServer { server, loader, clock in
            let body3 = try await loader.loadData(for: server.url("/busy"))
            #expect(body3 == Array("served".utf8))
            #expect(clock.sleeps == [.seconds(2)])
        }
    }

    @Test func backoffDoublesAndIsCapped() async throws {
        var configuration = HTTPDataLoader.Configuration()
        configuration.maxRetryDelay = .seconds(1)
        let loader = HTTPDataLoader(configuration: configuration, jitter: { 0 })
        #expect(loader.delay(before: 2, after: .timedOut) == .milliseconds(125))
        #expect(loader.delay(before: 3, after: .timedOut) == .milliseconds(250))
        #expect(loader.delay(before: 9, after: .timedOut) == .seconds(1))
        #expect(loader.delay(before: 2, after: .status(503, retryAfter: 60)) == .seconds(1))
        #expect(HTTPDataLoader.retryAfterSeconds(" 7 ") == 7)
        #expect(HTTPDataLoader.retryAfterSeconds("soon") == nil)
        try await loader.shutdown()
    }

    @Test func aSilentServerTimesOut() async throws {
        try await withServer({
            $0.requestTimeout = .milliseconds(300)
            $0.maxAttempts = 2
        }) { server, loader, clock in
            let error = await failure { try await loader.loadData(for: server.url("/silent")) }
            #expect(error as? HTTPLoadingError == .timedOut)
            #expect(server.hits("/silent") == 2, "a timeout is transient: retried once")
            #expect(clock.sleeps.count == 1)
        }
    }

    @Test func aTricklingBodyEndsAtTheRequestsDeadline() async throws {
        try await withServer({
            $0.requestTimeout = .milliseconds(400)
            $0.maxAttempts = 1
        }) { server, loader, _ in
            // Each byte comes well within the read timeout, so only the deadline can stop it.
            let error = await failure { try await loader.loadData(for: server.url("/trickle")) }
            #expect(error as? HTTPLoadingError == .timedOut)
            var closed = server.connectionClosed.makeAsyncIterator()
            _ = await closed.next()
        }
    }

    @Test func aRefusedConnectionFailsAtOnceAndIsNotRetried() async throws {
        // A port nothing listens on, held so that nothing can: a socket bound to it that never
        // listens (a stopped server's port could go to a server of a test running meanwhile,
        // whose answer was retried).
        let held = try RefusingPort()
        defer { held.close() }
        let url = URL(string: "http://127.0.0.1:\(held.port)/feed")!
        try await withServer({ $0.connectTimeout = .seconds(30) }) { _, loader, clock in
            let start = ContinuousClock.now
            let error = await failure { try await loader.loadData(for: url) }
            #expect(error as? HTTPLoadingError == .connectionRefused("127.0.0.1:\(url.port!)"))
            #expect(String(describing: error!) == "connection refused by 127.0.0.1:\(url.port!)")
            #expect(clock.sleeps.isEmpty, "a refusal is not retried")
            // Not the connect timeout's 30 seconds: the pool does not try again.
            #expect(ContinuousClock.now - start < .seconds(10))
        }
    }

    @Test(arguments: [
        "http+unix://%2Ftmp%2Fdocker.sock/containers/json", "unix:///tmp/daemon.sock", "file:///etc/passwd",
        "ftp://127.0.0.1/feed", "gopher://127.0.0.1:70/", "data:text/xml,<rss/>", "javascript:alert(1)",
    ])
    func aRedirectToAnythingButHTTPIsRefusedAndNamed(target: String) async throws {
        try await withServer { server, loader, _ in
            let url = server.url("/to/" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            for attempt in [{ try await loader.loadData(for: url) }, { try await loader.open(url).body.collect() }] {
                let error = await failure(attempt)
                guard case .refused(let refused, let reason) = error as? HTTPLoadingError else {
                    Issue.record("\(target): \(String(describing: error))")
                    continue
                }
                #expect(refused == URL(string: target)!.absoluteString)
                #expect(reason.contains("only http and https"))
            }
        }
    }

    @Test func loadingAnythingButHTTPIsRefusedBeforeAnyConnection() async throws {
        try await withServer { _, loader, _ in
            for target in ["http+unix://%2Ftmp%2Fx.sock/a", "unix:///tmp/x.sock", "https:///no-host"] {
                let error = await failure { try await loader.loadData(for: URL(string: target)!) }
                #expect(error as? HTTPLoadingError != nil && error as? HTTPLoadingError != .connectionFailed(""), "\(target): \(String(describing: error))")
                if case .refused = error as? HTTPLoadingError {} else if case .unsupportedScheme = error as? HTTPLoadingError {} else {
                    Issue.record("\(target): \(String(describing: error))")
                }
            }
        }
    }

    @Test func aLocalServerMayRedirectToALocalOne() async throws {
        try await withServer { server, loader, _ in
            let target = server.url("/ok/local").absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let body = try await loader.loadData(for: server.url("/to/" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))
            #expect(body == Array("local".utf8))
        }
    }

    @Test func cancellingMidBodyClosesTheConnection() async throws {
        try await withServer { server, loader, _ in
            let url = server.url("/slow-body")
            var answered = server.requestsAnswered.makeAsyncIterator()
            let transfer = Task { try await loader.loadData(for: url) }
            // Wait until the server has sent half the body, then hang up from the client side.
            #expect(await answered.next() == "/slow-body")
            transfer.cancel()
            var closed = server.connectionClosed.makeAsyncIterator()
            _ = await closed.next()
            let result = await transfer.result
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        try await withServer({ $0.maxBodySize = 1_000_000 }) { server, loader, _ in
            let error = await failure { try await loader.loadData(for: server.url("/big")) }
            #expect(error as? HTTPLoadingError == .bodyTooLarge(limit: 1_000_000))
            #expect(server.hits("/big") == 1, "a body too large is not retried")
        }
    }

    @Test func followsRedirectsButNotLoops() async throws {
        try await withServer { server, loader, _ in
            let body4 = try await loader.loadData(for: server.url("/redirect"))
            #expect(body4 == Array("redirected".utf8))
            let error = await failure { try await loader.loadData(for: server.url("/loop")) }
            #expect(error as? HTTPLoadingError == .tooManyRedirects)
            // A redirect whose Location is no URL is not followed: it is a failed load, not a
            // body (the whole-body path once returned its empty body as the data).
            let nowhere = server.url("/to/" + "http://[nowhere".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            let unfollowed = await failure { try await loader.loadData(for: nowhere) }
            #expect(unfollowed as? HTTPLoadingError == .status(302, retryAfter: nil))
        }
    }

    @Test func openingReportsEachRedirectAndSendsTheHeaders() async throws {
        try await withServer { server, loader, _ in
            let opening = try await loader.open(server.url("/redirect"), headers: [("X-Probe", "1")])
            #expect(opening.status == 200)
            #expect(opening.redirects == [301])
            #expect(opening.finalURL == server.url("/ok/redirected"))
            #expect(try await opening.body.collect() == Array("redirected".utf8))
            let missing = try await loader.open(server.url("/missing"))
            #expect(missing.status == 404, "opening hands over any status")
        }
    }

    @Test func refusesOtherSchemesAndReadsFiles() async throws {
        try await withServer { _, loader, _ in
            let error = await failure { try await loader.loadData(for: URL(string: "ftp://example.com/a")!) }
            #expect(error as? HTTPLoadingError == .unsupportedScheme("ftp"))
            let scratch = ScratchDirectory("scrollwork-http")
            let file = try scratch.file("on disk")
            #expect(try await loader.loadData(for: file) == Array("on disk".utf8))
            let empty = try scratch.file("")
            #expect(try await loader.loadData(for: empty) == [])
        }
    }

    @Test func theHTTPClientIsMadeOnTheFirstLoadOverHTTPAndNeverAfterTheShutdown() async throws {
        let server = try await TestRoutes.start()
        let loader = HTTPDataLoader(clock: RecordingClock(), jitter: { 1 })
        // Made and dropped without a load: no client, no event loop, and a shutdown is free.
        #expect(!loader.hasClient)
        let scratch = ScratchDirectory("scrollwork-http-lazy")
        #expect(try await loader.loadData(for: scratch.file("on disk")) == Array("on disk".utf8))
        #expect(!loader.hasClient, "a file needs no client")
        #expect(try await loader.loadData(for: server.url("/ok/hello")) == Array("hello".utf8))
        #expect(loader.hasClient)
        try await loader.shutdown()
        let error = await failure { try await loader.loadData(for: server.url("/ok/hello")) }
        #expect(error != nil && !loader.hasClient, "a load after the shutdown fails, and makes no client")
        try await server.stop()
    }

    /// A loader whose owner never reached ``HTTPDataLoader/shutdown()`` (a test that threw, a
    /// task cancelled) shuts its client down as it goes: AsyncHTTPClient trapped on the client
    /// released while running, which ended the whole test process under ThreadSanitizer.
    @Test func aLoaderGivenUpWithoutAShutdownShutsItsClientDown() async throws {
        let server = try await TestRoutes.start()
        var loader: HTTPDataLoader? = HTTPDataLoader(clock: RecordingClock(), jitter: { 1 })
        #expect(try await loader?.loadData(for: server.url("/ok/hello")) == Array("hello".utf8))
        #expect(loader?.hasClient == true)
        loader = nil
        // Still here: the client's shutdown runs in the background. Another loader works.
        let next = HTTPDataLoader(clock: RecordingClock(), jitter: { 1 })
        #expect(try await next.loadData(for: server.url("/ok/hello")) == Array("hello".utf8))
        try await next.shutdown()
        try await server.stop()
    }

    @Test @MainActor func twoSlotsForOneURLCauseOneServerHit() async throws {
        let server = try await TestRoutes.start()
        let loader = HTTPDataLoader()
        let pipeline = ContentPipeline<URLRequestKey, String>(loader: loader, processor: TextProcessor())
        let front = ContentLoader(pipeline: pipeline)
        let (first, second) = (front.makeSlot(), front.makeSlot())
        first.bind(URLRequestKey(url: server.url("/ok/shared")))
        second.bind(URLRequestKey(url: server.url("/ok/shared")))
        var pending = front.deliveriesPending.makeAsyncIterator()
        var delivered = 0
        while delivered < 2 {
            _ = await pending.next()
            delivered += front.deliverPending()
        }
        #expect(first.state.value == "shared")
        #expect(second.state.value == "shared")
        #expect(server.hits("/ok/shared") == 1)
        try await loader.shutdown()
        try await server.stop()
    }
}

/// A request for a URL's text.
struct URLRequestKey: ContentRequest {
    var url: URL
    var dataKey: URL { url }
}

struct TextProcessor: ContentProcessing {
    func process(_ data: [UInt8], for request: URLRequestKey, isCancelled: () -> Bool) throws -> String {
        String(decoding: data, as: UTF8.self)
    }
}

/// A loopback TCP port bound and never listened on: a connection to it is refused, and no
/// other socket can take it while it is held.
private struct RefusingPort {
    struct Failure: Error {}

    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, socketStream, 0)
        guard descriptor >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            closeSocket(descriptor)
            throw Failure()
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { closeSocket(descriptor) }
}

private func closeSocket(_ descriptor: Int32) {
    _ = close(descriptor)
}
