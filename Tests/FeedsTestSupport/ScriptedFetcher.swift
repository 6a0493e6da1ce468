import Feeds
import Foundation

/// A fetcher that serves documents from memory, in pieces, for refresher tests that need no
/// network; an unknown address fails as an unreachable server would.
public struct ScriptedFetcher: FeedFetching {
    public var documents: [URL: [UInt8]]
    public var pieceSize: Int
    public var maxConcurrentFetches: Int

    public init(documents: [URL: [UInt8]], pieceSize: Int = 4096, maxConcurrentFetches: Int = 4) {
        self.documents = documents
        self.pieceSize = pieceSize
        self.maxConcurrentFetches = maxConcurrentFetches
    }

    public func open(_ request: FeedFetchRequest) async throws(FeedFetchError) -> FeedOpening {
        guard let document = documents[request.url] else { throw .connectionFailed("no route to \(request.url.host ?? "")") }
        let pieces = stride(from: 0, to: document.count, by: pieceSize).map { Array(document[$0..<min($0 + pieceSize, document.count)]) }
        let stream = AsyncThrowingStream<[UInt8], any Error> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        return .opened(FeedResponse(finalURL: request.url), FeedBody(stream))
    }
}
