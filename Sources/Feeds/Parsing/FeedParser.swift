import Foundation

/// A streaming feed parser: bytes go in as they arrive, entries come out in batches while the
/// rest of the document is still being read.
///
/// ```swift
/// var parser = FeedParser(url: feedURL, charset: response.charset)
/// for try await chunk in body {
///     for batch in try parser.consume(chunk) { await store.upsert(batch) }
/// }
/// let end = try parser.finish()   // the feed's details, the last partial batch, malformed or not
/// ```
///
/// RSS and Atom are parsed by libxml2's push parser as they arrive; memory is the current
/// chunk, the entry being read, and at most one partial batch, whatever the feed's size.
/// JSON Feed is buffered (up to ``Configuration/maxFeedBytes``) and decoded by ``finish()``,
/// which then returns all its entries. An HTML page is recognized from its first bytes or its
/// root element, and ``finish()`` throws ``FeedParsingError/htmlPage(feedLinks:)``.
///
/// The format is read from the bytes, never the URL. Encodings: a byte order mark wins, then
/// the `charset` given (from HTTP), then the XML declaration; UTF-8, UTF-16, ISO-8859-1,
/// Windows-1252 and whatever else libxml2 and iconv know. Nothing is ever loaded from the
/// network or the file system during a parse: external entities and DTDs are refused, and
/// entities the document declares expand within ``Configuration/maxEntityExpansionBytes``.
/// HTML's named entities (`&nbsp;`), which RSS uses undeclared, decode to their characters.
///
/// A thumbnail is, in order: `media:thumbnail`; `media:content` with an image medium or
/// type; an `enclosure` of an image type; `itunes:image`; else the first `<img src>` of the
/// content, then of the summary. All links are resolved against `xml:base` and the feed URL.
///
/// The parser is not copyable: a parse in progress has one owner. Parse off the main actor.
/// - Complexity: O(n) in the document's size.
public struct FeedParser: ~Copyable {
    private let stream: FeedStream

    /// A parser for a document fetched from `url` (the base for relative links), with
    /// `charset` the HTTP `Content-Type` charset, if any.
    public init(url: URL? = nil, charset: String? = nil, configuration: Configuration = Configuration()) {
        precondition(configuration.batchSize > 0, "a batch holds at least one entry")
        stream = FeedStream(url: url, charset: charset, configuration: configuration)
    }

    /// Parses the next bytes of the document and returns the batches of entries they
    /// completed (each of ``Configuration/batchSize`` entries), possibly none.
    ///
    /// - Throws: ``FeedParsingError`` when the document breaks a limit or is not a feed; the
    ///   parse is over then.
    /// - Complexity: O(n) in the number of bytes.
    public mutating func consume(_ bytes: some Collection<UInt8>) throws(FeedParsingError) -> [[FeedEntry]] {
        try stream.consume(bytes)
    }

    /// Ends the document and returns what the feed says about itself, the entries not yet
    /// delivered (fewer than a batch, or all of a JSON Feed's), and whether it was malformed.
    ///
    /// - Throws: ``FeedParsingError``: the document is an HTML page, not a feed, empty, or
    ///   over a limit.
    public consuming func finish() throws(FeedParsingError) -> Completion {
        try stream.finish()
    }

    /// What the feed has said about itself so far (its title and link usually precede the
    /// entries), or `nil` before the format is known.
    public var info: FeedInfo? { stream.info }

    /// Entries parsed but held until their batch fills: always fewer than a batch.
    package var bufferedEntryCount: Int { stream.bufferedEntryCount }
}

extension FeedParser {
    /// The end of a parse: the feed's details and the entries not yet delivered.
    public struct Completion: Sendable, Hashable {
        /// What the feed says about itself.
        public var info: FeedInfo
        /// Entries not delivered in a batch yet, in document order.
        public var entries: [FeedEntry]
        /// Whether the document was not well-formed and the entries were salvaged by recovery.
        public var isMalformed: Bool
        /// The encoding the document was read in for want of one it named that is known;
        /// such a document is also ``isMalformed``.
        public var assumedEncoding: AssumedEncoding? = nil
    }

    /// Batch size and the limits that bound a parse's time and memory.
    public struct Configuration: Sendable, Hashable {
        /// Entries per batch. Ten rows is what a list animates as "posts arriving one after
        /// another" without a frame spent on each.
        public var batchSize = 10
        /// The largest document accepted. 64 MiB: the biggest real feeds (podcast archives of
        /// thousands of episodes) are tens of megabytes.
        public var maxFeedBytes = 64 << 20
        /// The most bytes kept of one field (a title, a content); the rest is cut and the
        /// entry marked ``FeedEntry/isTruncated``. 1 MiB holds any real article.
        public var maxFieldBytes = 1 << 20
        /// The most text that entities declared in the document may expand to, in total. Real
        /// feeds declare none; 1 MiB stops "billion laughs" at a millionth of its size.
        public var maxEntityExpansionBytes = 1 << 20
        /// Whether a UTF-8 document is read by libxml2 alone instead of Feeds' own scanner
        /// first: the reference the scanner is fuzzed against, slower and never needed.
        package var readsWithLibXML2Only = false

        /// The defaults described on each property.
        public init() {}

        /// Defaults with a different batch size.
        public init(batchSize: Int) {
            self.batchSize = batchSize
        }
    }
}
