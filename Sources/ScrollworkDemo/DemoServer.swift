import Foundation
import ImageFixtures
import LoopbackHTTP
import SeededRandom

/// The reader's embedded demo: an HTTP server on 127.0.0.1 serving ``DemoFeed`` at
/// `/feed.xml` (a new generation every ``generationInterval``, with an ETag so an unchanged
/// feed costs a 304) and its pictures at `/pictures/SEED.jpg`, each reply after a delay drawn
/// from a log-normal distribution (median about 100 ms, one in twenty over about 400 ms), as a
/// real server far away would answer.
///
/// Same code paths as a real feed: HTTP, parsing, the store, content loading, thumbnails.
package final class DemoServer: Sendable {
    /// How often the feed changes.
    package static let generationInterval: Duration = .seconds(20)
    /// The pictures' size: a thumbnail's source, larger than any cell box it is drawn in.
    package static let pictureSize = (width: 320, height: 200)

    private let server: LoopbackHTTPServer
    private let state: State

    /// The feed's address.
    package var feedURL: URL { server.url("/feed.xml") }

    private init(server: LoopbackHTTPServer, state: State) {
        self.server = server
        self.state = state
    }

    /// Starts the server.
    ///
    /// - Parameters:
    ///   - elapsed: time since the demo started, which picks the feed's generation; tests
    ///     inject it.
    ///   - latency: whether replies wait as a distant server's would (tests turn it off).
    package static func start(start: Date = Date(), elapsed: @escaping @Sendable () -> Duration = DemoServer.wallClock(),
                      latency: Bool = true) async throws -> DemoServer {
        let state = State(feed: DemoFeed(start: start), elapsed: elapsed, latency: latency)
        let box = PortBox()
        let server = try await LoopbackHTTPServer.start { request, _ in
            state.reply(to: request, port: box.port)
        }
        box.port = server.port
        return DemoServer(server: server, state: state)
    }

    /// The feed as the server would send it now, at once: the reader stores it before the
    /// server answers, so the demo's first screen has its posts.
    package func document() -> [UInt8] {
        state.document(port: server.port)
    }

    /// Stops listening.
    package func stop() async throws {
        try await server.stop()
    }

    /// Time since now, from the continuous clock.
    package static func wallClock() -> @Sendable () -> Duration {
        let origin = ContinuousClock.now
        return { ContinuousClock.now - origin }
    }

    /// The port, known once the server listens; read by the handler for the pictures' URLs.
    private final class PortBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        var port: Int {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// The feed, the pictures made so far, and the latency generator, behind one lock.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var feed: DemoFeed
        private var pictures: [UInt64: [UInt8]] = [:]
        private var random = SeededGenerator(seed: 100)
        private let elapsed: @Sendable () -> Duration
        private let latency: Bool

        init(feed: DemoFeed, elapsed: @escaping @Sendable () -> Duration, latency: Bool) {
            self.feed = feed
            self.elapsed = elapsed
            self.latency = latency
        }

        func reply(to request: LoopbackHTTPServer.Request, port: Int) -> LoopbackHTTPServer.Reply {
            let reply: LoopbackHTTPServer.Reply
            let path = request.path.split(separator: "?").first.map(String.init) ?? request.path
            if path == "/feed.xml" {
                reply = feedReply(ifNoneMatch: request.header("If-None-Match"), port: port)
            } else if path.hasPrefix("/pictures/"), path.hasSuffix(".jpg"),
                      let seed = UInt64(path.dropFirst("/pictures/".count).dropLast(".jpg".count)) {
                reply = .respond(status: 200, headers: [("Content-Type", "image/jpeg")], body: picture(seed))
            } else {
                reply = .text(404, "not found")
            }
            guard latency else { return reply }
            return .delayed(delay(), reply)
        }

        func document(port: Int) -> [UInt8] {
            let target = Int(elapsed() / DemoServer.generationInterval)
            return lock.withLock {
                while feed.generation < target { feed.advance() }
                return Array(feed.rss { "http://127.0.0.1:\(port)/pictures/\($0).jpg" }.utf8)
            }
        }

        private func feedReply(ifNoneMatch: String?, port: Int) -> LoopbackHTTPServer.Reply {
            let target = Int(elapsed() / DemoServer.generationInterval)
            let (generation, body): (Int, String?) = lock.withLock {
                while feed.generation < target { feed.advance() }
                let etag = "\"g\(feed.generation)\""
                if ifNoneMatch == etag { return (feed.generation, nil) }
                return (feed.generation, feed.rss { "http://127.0.0.1:\(port)/pictures/\($0).jpg" })
            }
            let etag = ("ETag", "\"g\(generation)\"")
            guard let body else { return .respond(status: 304, headers: [etag]) }
            return .respond(status: 200, headers: [("Content-Type", "application/rss+xml; charset=utf-8"), etag], body: Array(body.utf8))
        }

        private func picture(_ seed: UInt64) -> [UInt8] {
            if let cached = lock.withLock({ pictures[seed] }) { return cached }
            let (width, height) = DemoServer.pictureSize
            let jpeg = JPEGFixture.encode(pixels: DemoPicture.pixels(width: width, height: height, seed: seed),
                                          width: width, height: height, quality: 82)
            lock.withLock { pictures[seed] = jpeg }
            return jpeg
        }

        /// Log-normal: median 100 ms, σ 0.85, so one reply in twenty takes over about 400 ms.
        private func delay() -> Duration {
            let (u1, u2) = lock.withLock { (Double.random(in: Double.ulpOfOne..<1, using: &random), Double.random(in: 0..<1, using: &random)) }
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            return .microseconds(Int64(100_000 * exp(0.85 * normal)))
        }
    }
}
