/// A whole feed, parsed: what ``FeedParsing/parse(_:url:charset:)`` returns.
public struct ParsedFeed: Sendable, Hashable {
    /// What the feed says about itself.
    public var info: FeedInfo
    /// Every entry, in document order.
    public var entries: [FeedEntry]
    /// Whether the document was not well-formed and what is here was salvaged by recovery.
    public var isMalformed: Bool

    /// A parsed feed.
    public init(info: FeedInfo, entries: [FeedEntry], isMalformed: Bool) {
        self.info = info
        self.entries = entries
        self.isMalformed = isMalformed
    }
}
