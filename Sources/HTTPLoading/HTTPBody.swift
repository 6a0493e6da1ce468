import AsyncHTTPClient
import NIOCore

/// A response body as it arrives: pieces of bytes, at most a limit in all (decompressed),
/// failing with ``HTTPLoadingError`` on a broken or oversized transfer.
public struct HTTPBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    enum Source: Sendable {
        case http(HTTPClientResponse.Body)
        case bytes([UInt8])
    }

    let source: Source
    /// The most bytes the body may have.
    public let limit: Int

    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .http(let body): AsyncIterator(http: body.makeAsyncIterator(), bytes: nil, limit: limit)
        case .bytes(let bytes): AsyncIterator(http: nil, bytes: bytes, limit: limit)
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
        var http: HTTPClientResponse.Body.AsyncIterator?
        var bytes: [UInt8]?
        let limit: Int
        var received = 0

        /// The next piece, or nil at the end.
        ///
        /// - Throws: ``HTTPLoadingError``.
        public mutating func next() async throws -> [UInt8]? {
            if let bytes {
                self.bytes = nil
                return bytes.isEmpty ? nil : bytes
            }
            guard http != nil else { return nil }
            let buffer: ByteBuffer?
            do {
                buffer = try await http!.next()
            } catch {
                throw HTTPLoadingError(error)
            }
            guard let buffer else {
                http = nil
                return nil
            }
            received += buffer.readableBytes
            guard received <= limit else { throw HTTPLoadingError.bodyTooLarge(limit: limit) }
            return Array(buffer.readableBytesView)
        }
    }
}
