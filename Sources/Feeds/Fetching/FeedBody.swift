/// A feed's body as it arrives: pieces of bytes, at most ``limit`` in all, failing with
/// ``FeedFetchError`` on a broken or oversized transfer.
///
/// A fetcher makes one from the pieces its transfer yields (FeedsHTTP's from an HTTP body);
/// tests make one from a stream they script.
public struct FeedBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    /// The most bytes the body may have; a piece past it fails with
    /// ``FeedFetchError/tooLarge(limit:)``.
    public let limit: Int
    /// Starts one reading of the pieces: the function it returns hands out the next piece, or
    /// nil at the end.
    private let startReading: @Sendable () -> () async throws -> [UInt8]?
    /// The transfer's errors in the feed's terms.
    private let translate: @Sendable (any Error) -> FeedFetchError

    /// A body made of the pieces `pieces` yields, at most `limit` bytes in all (the parser's
    /// limit by default), whose errors `translate` maps to ``FeedFetchError``.
    public init<Pieces: AsyncSequence & Sendable>(
        _ pieces: Pieces,
        limit: Int = FeedParser.Configuration().maxFeedBytes,
        translatingErrors translate: @escaping @Sendable (any Error) -> FeedFetchError = FeedFetchError.init
    ) where Pieces.Element == [UInt8] {
        self.limit = limit
        self.translate = translate
        startReading = {
            var iterator = pieces.makeAsyncIterator()
            return { try await iterator.next() }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(nextPiece: startReading(), translate: translate, limit: limit)
    }

    /// Hands out the body's pieces, counting them against the limit.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// Nil once the body has ended or failed.
        var nextPiece: (() async throws -> [UInt8]?)?
        let translate: @Sendable (any Error) -> FeedFetchError
        let limit: Int
        var received = 0

        /// The next piece, or nil at the end.
        ///
        /// - Throws: ``FeedFetchError``.
        public mutating func next() async throws -> [UInt8]? {
            guard let nextPiece else { return nil }
            let piece: [UInt8]?
            do {
                piece = try await nextPiece()
            } catch {
                self.nextPiece = nil
                throw translate(error)
            }
            guard let piece else {
                self.nextPiece = nil
                return nil
            }
            received += piece.count
            guard received <= limit else {
                self.nextPiece = nil
                throw FeedFetchError.tooLarge(limit: limit)
            }
            return piece
        }
    }
}
