import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 server on 127.0.0.1 with a few behaviours the loader must handle, started by a
/// test on a free port and shut down by it. It counts hits per path and reports connections
/// it sees closed, so a test can prove that a cancelled transfer really hung up.
///
/// Paths: `/ok/NAME` answers NAME; `/missing` 404; `/flaky` 500 once, then "recovered";
/// `/busy` 429 with `Retry-After: 2` once, then "served"; `/silent` never answers; `/slow-body`
/// sends its head and half its body, then nothing; `/big` sends `bigSize` bytes;
/// `/redirect` 301 to `/ok/redirected`; `/loop` redirects to itself.
final class TestHTTPServer: Sendable {
    static let bigSize = 2_000_000

    private let channel: any Channel
    private let state: Locked<State>
    let connectionClosed: AsyncStream<Void>

    struct State {
        var hits: [String: Int] = [:]
    }

    var port: Int { channel.localAddress!.port! }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    func hits(_ path: String) -> Int { state.withLock { $0.hits[path, default: 0] } }

    private init(channel: any Channel, state: Locked<State>, connectionClosed: AsyncStream<Void>) {
        self.channel = channel
        self.state = state
        self.connectionClosed = connectionClosed
    }

    static func start() async throws -> TestHTTPServer {
        let state = Locked(State())
        let (closed, closedSink) = AsyncStream<Void>.makeStream()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(state: state, closed: closedSink))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TestHTTPServer(channel: channel, state: state, connectionClosed: closed)
    }

    func stop() async throws {
        try await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let state: Locked<State>
        let closed: AsyncStream<Void>.Continuation

        init(state: Locked<State>, closed: AsyncStream<Void>.Continuation) {
            self.state = state
            self.closed = closed
        }

        func channelInactive(context: ChannelHandlerContext) {
            closed.yield()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data) else { return }
            let path = head.uri
            let hit = state.withLock { state -> Int in
                state.hits[path, default: 0] += 1
                return state.hits[path]!
            }
            switch path {
            case _ where path.hasPrefix("/ok/"):
                respond(context, .ok, body: String(path.dropFirst(4)))
            case "/missing":
                respond(context, .notFound, body: "no")
            case "/flaky":
                hit == 1 ? respond(context, .internalServerError, body: "oops") : respond(context, .ok, body: "recovered")
            case "/busy":
                hit == 1 ? respond(context, .tooManyRequests, body: "later", headers: [("Retry-After", "2")])
                    : respond(context, .ok, body: "served")
            case "/silent":
                break
            case "/slow-body":
                var headers = HTTPHeaders()
                headers.add(name: "Content-Length", value: "1000")
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(repeating: 1, count: 500)))), promise: nil)
            case "/big":
                respond(context, .ok, body: String(repeating: "x", count: TestHTTPServer.bigSize))
            case "/redirect":
                respond(context, .movedPermanently, body: "", headers: [("Location", "/ok/redirected")])
            case "/loop":
                respond(context, .found, body: "", headers: [("Location", "/loop")])
            default:
                respond(context, .notFound, body: "unknown")
            }
        }

        private func respond(
            _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, body: String, headers extra: [(String, String)] = []
        ) {
            var headers = HTTPHeaders(extra)
            headers.add(name: "Content-Length", value: String(body.utf8.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

/// State behind a lock, for the test server's handlers.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// A clock whose sleeps return at once and are recorded, so retry delays are checked exactly
/// and tests never wait for a backoff.
final class RecordingClock: Clock, @unchecked Sendable {
    typealias Duration = Swift.Duration

    struct Instant: InstantProtocol {
        var offset: Swift.Duration
        func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var recorded: [Swift.Duration] = []

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Swift.Duration { .nanoseconds(1) }
    var sleeps: [Swift.Duration] { lock.withLock { recorded } }

    func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        lock.withLock {
            recorded.append(current.duration(to: deadline))
            current = max(current, deadline)
        }
        try Task.checkCancellation()
    }
}
