import Foundation

extension FeedParser {
    /// Parses a document that arrives as an asynchronous sequence of chunks (a network body),
    /// handing each batch of entries to `deliver` as soon as it is complete, and returns the
    /// end of the feed once the sequence finishes.
    ///
    /// Runs on the concurrent executor, never on the caller's actor: the parse is CPU work and
    /// must not hold up the main actor. Cancellation is checked between chunks.
    ///
    /// - Throws: ``FeedParsingError``, `CancellationError`, or what `chunks` or `deliver` throw.
    /// - Complexity: O(n) in the document's size; memory as for ``consume(_:)``.
    @concurrent
    public static func parse<Chunks: AsyncSequence>(
        _ chunks: Chunks, url: URL? = nil, charset: String? = nil, configuration: Configuration = Configuration(),
        deliver: ([FeedEntry]) async throws -> Void
    ) async throws -> Completion where Chunks.Element: Collection<UInt8> {
        var parser = FeedParser(url: url, charset: charset, configuration: configuration)
        for try await chunk in chunks {
            try Task.checkCancellation()
            for batch in try parser.consume(chunk) { try await deliver(batch) }
        }
        return try parser.finish()
    }
}
