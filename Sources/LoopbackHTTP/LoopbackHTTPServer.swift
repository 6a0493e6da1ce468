import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 server on 127.0.0.1, on a free port: the reader's embedded demo serves its feed
/// and pictures with it, and tests script replies with it.
///
/// A handler decides each reply from the request and how many times its path was asked for
/// before; the server counts hits per path and reports every connection it sees closed, so a
/// test can prove that a cancelled transfer really hung up. It listens on the loopback
/// address only: nothing outside the machine can reach it.
package final class LoopbackHTTPServer: Sendable {
    /// What the server received.
    package struct Request: Sendable {
        package let method: String
        package let path: String
        package let headers: [(name: String, value: String)]
        /// The body, whole (empty for a GET).
        package let body: [UInt8]

        /// The first value of header `name`, compared case-insensitively.
        package func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// How to answer.
    package enum Reply: Sendable {
        /// A complete response; `Content-Length` is added.
        case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
        /// No answer at all: the client must time out.
        case silent
        /// The head, declaring `declaredLength` bytes, and only `body` of them; then nothing.
        case partial(status: Int, declaredLength: Int, body: [UInt8])
        /// As `partial`, then the connection is closed: a transfer broken off mid-body.
        case brokenOff(status: Int, declaredLength: Int, body: [UInt8])
        /// `reply`, sent after `delay`: a server far away, or a slow one.
        indirect case delayed(Duration, Reply)
        /// The head, declaring `declaredLength` bytes, then one byte every `interval` until
        /// they are all sent or the client goes: a server that holds a client as long as it can.
        case trickle(status: Int, declaredLength: Int, interval: Duration)

        /// A complete response with a text body.
        package static func text(_ status: Int, _ body: String, headers: [(String, String)] = []) -> Reply {
            .respond(status: status, headers: headers, body: Array(body.utf8))
        }
    }

    /// Decides the reply to a request; `hit` is 1 for the first request of its path.
    package typealias Handler = @Sendable (_ request: Request, _ hit: Int) -> Reply

    private let channel: any Channel
    private let hitCounts: Counter
    /// Yields once for every connection the server sees closed.
    package let connectionClosed: AsyncStream<Void>
    /// Yields the path of every request once its reply (all of it the route sends) is written.
    package let requestsAnswered: AsyncStream<String>

    /// The port the server listens on.
    package var port: Int { channel.localAddress!.port! }

    /// `http://127.0.0.1:PORT` followed by `path`.
    package func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// How many requests asked for `path` (with its query).
    package func hits(_ path: String) -> Int { hitCounts.count(path) }

    private init(channel: any Channel, hitCounts: Counter, connectionClosed: AsyncStream<Void>, requestsAnswered: AsyncStream<String>) {
        self.channel = channel
        self.hitCounts = hitCounts
        self.connectionClosed = connectionClosed
        self.requestsAnswered = requestsAnswered
    }

    /// Starts a server answering with `handler`.
    package static func start(_ handler: @escaping Handler) async throws -> LoopbackHTTPServer {
        let hitCounts = Counter()
        let (closed, closedSink) = AsyncStream<Void>.makeStream()
        let (answered, answeredSink) = AsyncStream<String>.makeStream()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(
                        Connection(handler: handler, hitCounts: hitCounts, closed: closedSink, answered: answeredSink))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return LoopbackHTTPServer(channel: channel, hitCounts: hitCounts, connectionClosed: closed, requestsAnswered: answered)
    }

    /// Stops listening.
    package func stop() async throws {
        try await channel.close()
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]

        func increment(_ path: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            counts[path, default: 0] += 1
            return counts[path]!
        }

        func count(_ path: String) -> Int {
            lock.lock()
            defer { lock.unlock() }
            return counts[path, default: 0]
        }
    }

    private final class Connection: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let handler: Handler
        let hitCounts: Counter
        let closed: AsyncStream<Void>.Continuation
        let answered: AsyncStream<String>.Continuation
        /// The request being received: its head, and its body so far. It is answered once it
        /// has all arrived.
        private var receiving: (head: HTTPRequestHead, body: [UInt8])?

        init(
            handler: @escaping Handler, hitCounts: Counter, closed: AsyncStream<Void>.Continuation,
            answered: AsyncStream<String>.Continuation
        ) {
            self.handler = handler
            self.hitCounts = hitCounts
            self.closed = closed
            self.answered = answered
        }

        func channelInactive(context: ChannelHandlerContext) {
            closed.yield()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                receiving = (head, [])
            case .body(let buffer):
                receiving?.body += buffer.readableBytesView
            case .end:
                guard let (head, body) = receiving else { return }
                receiving = nil
                let request = Request(
                    method: head.method.rawValue, path: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: body)
                send(handler(request, hitCounts.increment(head.uri)), for: head.uri, context: context)
            }
        }

        private func send(_ reply: Reply, for uri: String, context: ChannelHandlerContext) {
            switch reply {
            case let .delayed(delay, reply):
                let (seconds, attoseconds) = delay.components
                let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                    let (connection, context) = loopBound.value
                    connection.send(reply, for: uri, context: context)
                }
                return
            case .silent:
                break
            case let .respond(status, extra, body):
                var headers = HTTPHeaders(extra)
                headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
                context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: .init(statusCode: status), headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            case let .trickle(status, declaredLength, interval):
                var headers = HTTPHeaders()
                headers.add(name: "Content-Length", value: String(declaredLength))
                context.writeAndFlush(wrapOutboundOut(.head(.init(version: .http1_1, status: .init(statusCode: status), headers: headers))), promise: nil)
                let (seconds, attoseconds) = interval.components
                let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                let sent = NIOLoopBoundBox(0, eventLoop: context.eventLoop)
                context.eventLoop.scheduleRepeatedTask(initialDelay: .nanoseconds(nanoseconds), delay: .nanoseconds(nanoseconds)) { task in
                    let (connection, context) = loopBound.value
                    guard context.channel.isActive, sent.value < declaredLength else {
                        task.cancel()
                        return
                    }
                    sent.value += 1
                    context.writeAndFlush(connection.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: [0x20])))), promise: nil)
                }
            case let .partial(status, declaredLength, body), let .brokenOff(status, declaredLength, body):
                var headers = HTTPHeaders()
                headers.add(name: "Content-Length", value: String(declaredLength))
                context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: .init(statusCode: status), headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                if case .brokenOff = reply { context.close(promise: nil) }
            }
            answered.yield(uri)
        }
    }
}
