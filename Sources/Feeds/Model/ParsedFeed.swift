/// A whole feed, parsed: what ``FeedParsing/parse(_:url:charset:)`` returns.
public struct ParsedFeed: Sendable, Hashable {
    /// What the feed says about itself.
    public var info: FeedInfo
    /// Every entry, in document order.
    public var entries: [FeedEntry]
    /// Whether the document was not well-formed and what is here was salvaged by recovery.
    public var isMalformed: Bool
    /// The encoding the document was read in for want of one it named that is known.
    public var assumedEncoding: AssumedEncoding?

    /// A parsed feed.
    public init(info: FeedInfo, entries: [FeedEntry], isMalformed: Bool, assumedEncoding: AssumedEncoding? = nil) {
        self.info = info
        self.entries = entries
        self.isMalformed = isMalformed
        self.assumedEncoding = assumedEncoding
    }
}
