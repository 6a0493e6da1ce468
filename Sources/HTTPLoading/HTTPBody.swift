import AsyncHTTPClient
import NIOCore

/// A response body as it arrives: pieces of bytes, at most a limit in all (decompressed),
/// failing with ``HTTPLoadingError`` on a broken or oversized transfer.
public struct HTTPBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    enum Source: Sendable {
        case http(HTTPClientResponse.Body)
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
        case .http(let body): AsyncIterator(piece: .http(body.makeAsyncIterator()), limit: limit)
        case .file(let reader): AsyncIterator(piece: .file(reader), limit: limit)
        case .stream(let stream): AsyncIterator(piece: .stream(stream.makeAsyncIterator()), limit: limit)
        }
    }

    /// The whole body.
    ///
    /// - Complexity: O(n) in the body's size.
    public func collect() async throws(HTTPLoadingError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            for try await piece in self { bytes += piece }
        } catch {
            throw HTTPLoadingError(error)
        }
        return bytes
    }

    /// Hands out the body's pieces, counting them against the limit.
    public struct AsyncIterator: AsyncIteratorProtocol {
        enum Piece {
            case http(HTTPClientResponse.Body.AsyncIterator)
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
                case .http(var iterator):
                    bytes = try await iterator.next().map { Array($0.readableBytesView) }
                    piece = .http(iterator)
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
                throw HTTPLoadingError(error)
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
