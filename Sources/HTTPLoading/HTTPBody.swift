import AsyncHTTPClient
import NIOCore

/// A response body as it arrives: pieces of bytes, at most a limit in all (decompressed),
/// failing with ``HTTPLoadingError`` on a broken or oversized transfer.
public struct HTTPBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    enum Source: Sendable {
        /// A response body, which must have arrived whole by `deadline`, not counting the time
        /// its reader spends with each piece (see ``ReadDeadline``).
        case http(HTTPClientResponse.Body, deadline: NIODeadline)
        case file(FileReader)
        case stream(AsyncThrowingStream<[UInt8], any Error>)
    }

    let source: Source
    /// The most bytes the body may have.
    public let limit: Int

    init(source: Source, limit: Int) {
        self.source = source
        self.limit = limit
    }

    /// A body made of the pieces `stream` yields, at most `limit` bytes in all: for loaders
    /// other than ``HTTPDataLoader``, and for tests that script a transfer.
    public init(_ stream: AsyncThrowingStream<[UInt8], any Error>, limit: Int) {
        self.init(source: .stream(stream), limit: limit)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .http(let body, let deadline): AsyncIterator(piece: .http(Pieces(body.makeAsyncIterator()), ReadDeadline(deadline)), limit: limit)
        case .file(let reader): AsyncIterator(piece: .file(reader), limit: limit)
        case .stream(let stream): AsyncIterator(piece: .stream(stream.makeAsyncIterator()), limit: limit)
        }
    }

    /// The whole body.
    ///
    /// - Complexity: O(n) in the body's size. An HTTP body is read under one watch of its
    ///   deadline, straight into the result: iterating it watches the deadline for each piece
    ///   (two child tasks and a timer each, for pieces of a few kilobytes) and copies each piece
    ///   twice, which made a page of a sync's items take a third longer to arrive than curl's.
    public func collect() async throws(HTTPLoadingError) -> [UInt8] {
        do {
            if case let .http(body, deadline) = source { return try await Self.collect(body, before: deadline, limit: limit) }
            var bytes: [UInt8] = []
            for try await piece in self { bytes += piece }
            return bytes
        } catch {
            throw HTTPLoadingError(error, bodyLimit: limit)
        }
    }

    private static func collect(_ body: HTTPClientResponse.Body, before deadline: NIODeadline, limit: Int) async throws -> [UInt8] {
        try await HTTPBody.run(before: deadline) {
            var bytes: [UInt8] = []
            for try await buffer in body {
                guard buffer.readableBytes <= limit - bytes.count else { throw HTTPLoadingError.bodyTooLarge(limit: limit) }
                bytes.append(contentsOf: buffer.readableBytesView)
            }
            return bytes
        }
    }

    /// What `work` returns, or ``HTTPLoadingError/timedOut`` at `deadline`, when `work` is
    /// cancelled (which closes the connection it reads).
    static func run<Value: Sendable>(before deadline: NIODeadline, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask(operation: work)
            group.addTask {
                let left = (deadline - .now()).nanoseconds
                if left > 0 { try await Task.sleep(nanoseconds: UInt64(left)) }
                throw HTTPLoadingError.timedOut
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Hands out the body's pieces, counting them against the limit.
    public struct AsyncIterator: AsyncIteratorProtocol {
        enum Piece {
            case http(Pieces, ReadDeadline)
            case file(FileReader)
            case stream(AsyncThrowingStream<[UInt8], any Error>.AsyncIterator)
            case finished
        }

        var piece: Piece
        let limit: Int
        var received = 0

        /// The next piece, or nil at the end.
        ///
        /// - Throws: ``HTTPLoadingError``.
        public mutating func next() async throws -> [UInt8]? {
            let bytes: [UInt8]?
            do {
                switch piece {
                case .http(let pieces, var deadline):
                    bytes = try await pieces.next(before: deadline.reading(at: .now()))
                    deadline.handedOut(at: .now())
                    piece = .http(pieces, deadline)
                case .file(let reader):
                    bytes = try await reader.next()
                case .stream(var iterator):
                    bytes = try await iterator.next()
                    piece = .stream(iterator)
                case .finished:
                    return nil
                }
            } catch {
                piece = .finished
                throw HTTPLoadingError(error, bodyLimit: limit)
            }
            guard let bytes else {
                piece = .finished
                return nil
            }
            received += bytes.count
            guard received <= limit else {
                piece = .finished
                throw HTTPLoadingError.bodyTooLarge(limit: limit)
            }
            return bytes
        }
    }
}

/// When the reads of a body must be done: the request's deadline, moved later by the time the
/// reader spends with each piece it was handed.
///
/// The deadline bounds the server's time. A reader that parses and stores each piece (a feed
/// of 20,000 posts on a slow machine) holds the transfer back, since the client asks for no
/// more bytes meanwhile; that time is its own, and counting it failed a whole large feed as
/// timed out although the server had sent it at once. A server that trickles its body still
/// fails at the deadline: the time spent waiting for its pieces adds up.
struct ReadDeadline: Sendable {
    /// The deadline for the next read.
    private(set) var deadline: NIODeadline
    /// When the last piece was handed to the reader, until the reader reads again.
    private var handedOutAt: NIODeadline?

    init(_ deadline: NIODeadline) {
        self.deadline = deadline
    }

    /// The deadline for a read that starts at `now`: the time since the last piece was handed
    /// out is added to it.
    mutating func reading(at now: NIODeadline) -> NIODeadline {
        if let handedOutAt, now > handedOutAt { deadline = deadline + (now - handedOutAt) }
        handedOutAt = nil
        return deadline
    }

    /// A piece was handed to the reader at `now`.
    mutating func handedOut(at now: NIODeadline) {
        handedOutAt = now
    }
}

/// The HTTP client's body iterator, each piece raced against the request's deadline: the
/// client's own deadline ends with the head, so without this a server that sends one byte a
/// second holds a request for as long as it likes.
///
/// `@unchecked Sendable`: the iterator is used by one task at a time, the child that reads the
/// next piece, which the caller awaits before it asks again.
final class Pieces: @unchecked Sendable {
    private var iterator: HTTPClientResponse.Body.AsyncIterator

    init(_ iterator: HTTPClientResponse.Body.AsyncIterator) {
        self.iterator = iterator
    }

    /// The next piece, or nil at the end; ``HTTPLoadingError/timedOut`` at the deadline, when
    /// the read is cancelled, which closes the connection.
    func next(before deadline: NIODeadline) async throws -> [UInt8]? {
        try await HTTPBody.run(before: deadline) { try await self.iterator.next().map { Array($0.readableBytesView) } }
    }
}
