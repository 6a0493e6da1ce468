import Foundation

/// Why a document could not be parsed as a feed. Every case is caused by the input.
public enum FeedParsingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is an HTML page; `feedLinks` are the feeds it advertises with
    /// `<link rel="alternate">`, resolved against the page's URL, so a reader can offer them.
    case htmlPage(feedLinks: [FeedLink])
    /// The document is XML, but its root element is not one a feed format uses.
    case notAFeed(rootElement: String)
    /// Nothing could be salvaged: no root element, or JSON that is not a JSON Feed.
    case unreadable(reason: String)
    /// The document is larger than ``FeedParser/Configuration/maxFeedBytes``.
    case feedTooLarge(limit: Int)
    /// Entities declared in the document expand to more than
    /// ``FeedParser/Configuration/maxEntityExpansionBytes`` (a "billion laughs" attack), or
    /// nest deeper or are declared in greater number than the parser allows.
    case entityExpansionLimitExceeded(limit: Int)

    /// The message, with whatever text of the document or server it quotes through ``FeedText``.
    public var description: String { FeedText.line(message) }

    private var message: String {
        switch self {
        case .htmlPage(let links) where links.isEmpty:
            "an HTML page, not a feed, and it advertises no feed"
        case .htmlPage(let links):
            "an HTML page, not a feed; it advertises " + links.map(\.url.absoluteString).joined(separator: ", ")
        case .notAFeed(let root):
            switch root.lowercased() {
            case "opml": "an OPML list of feeds, not a feed (`scrollwork import` subscribes to them)"
            case "urlset", "sitemapindex": "a sitemap, not a feed"
            case "svg": "an SVG image, not a feed"
            case "kml": "a KML map, not a feed"
            case "soap:envelope", "envelope": "a SOAP message, not a feed"
            default: "not a feed: the root element is <\(root)>"
            }
        case .unreadable(let reason): "unreadable: \(reason)"
        case .feedTooLarge(let limit): "the feed is larger than \(limit) bytes"
        case .entityExpansionLimitExceeded(let limit): "entity expansion exceeds \(limit) bytes (billion laughs?)"
        }
    }
}

/// A feed an HTML page advertises with `<link rel="alternate" type="application/rss+xml" href="...">`.
public struct FeedLink: Sendable, Hashable {
    /// The feed's address, absolute.
    public var url: URL
    /// The advertised MIME type, such as `application/atom+xml`.
    public var type: String
    /// The link's title attribute, when there is one.
    public var title: String?

    /// An advertised feed.
    public init(url: URL, type: String, title: String? = nil) {
        self.url = url
        self.type = type
        self.title = title
    }
}
