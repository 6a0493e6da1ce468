import Foundation

/// The capability of parsing a whole feed document: what the fetcher and the `parse` command
/// need, and what tests replace.
public protocol FeedParsing: Sendable {
    /// Parses `bytes`, a whole document fetched from `url`, with `charset` the HTTP charset
    /// hint if any.
    ///
    /// - Throws: ``FeedParsingError`` when the document is not a feed or breaks a limit.
    func parse(_ bytes: [UInt8], url: URL?, charset: String?) throws(FeedParsingError) -> ParsedFeed
}

/// The default ``FeedParsing``: a ``FeedParser`` fed the whole document, its batches collected.
public struct FeedDocumentParser: FeedParsing {
    /// Batch size and limits for every parse.
    public var configuration: FeedParser.Configuration

    /// A parser with `configuration`.
    public init(configuration: FeedParser.Configuration = FeedParser.Configuration()) {
        self.configuration = configuration
    }

    /// Parses a whole document in one go.
    ///
    /// - Complexity: O(n) in the document's size; memory holds every entry, since they are
    ///   all returned.
    public func parse(_ bytes: [UInt8], url: URL? = nil, charset: String? = nil) throws(FeedParsingError) -> ParsedFeed {
        var parser = FeedParser(url: url, charset: charset, configuration: configuration)
        var entries = try parser.consume(bytes).flatMap { $0 }
        let end = try parser.finish()
        entries += end.entries
        return ParsedFeed(info: end.info, entries: entries, isMalformed: end.isMalformed, assumedEncoding: end.assumedEncoding)
    }
}
