import Foundation

/// A feed the reader follows, as OPML lists it.
public struct Subscription: Sendable, Hashable {
    /// The feed's address.
    public var feedURL: URL
    /// The name the user knows it by.
    public var title: String?
    /// The web site the feed belongs to.
    public var siteURL: URL?
    /// The folders it sits in, outermost first: OPML's nested outlines.
    public var categories: [String]

    /// A subscription to `feedURL`.
    public init(feedURL: URL, title: String? = nil, siteURL: URL? = nil, categories: [String] = []) {
        self.feedURL = feedURL
        self.title = title
        self.siteURL = siteURL
        self.categories = categories
    }
}

/// Why an OPML document could not be read. Every case is caused by the input.
public enum OPMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is XML, but not OPML.
    case notOPML(rootElement: String)
    /// The document is not XML, or breaks a limit (size, entity expansion).
    case unreadable(reason: String)
    /// The document's folders nest deeper than `limit` (``OPML/maxCategoryDepth``); `line` is
    /// where the outline that goes too deep is.
    case foldersTooDeep(line: Int, limit: Int)
    /// A subscription to export sits in categories `depth` levels deep, more than `limit`
    /// (``OPML/maxCategoryDepth``), which import would refuse.
    case categoryTooDeep(feedURL: URL, depth: Int, limit: Int)

    /// The message, with whatever text of the document or server it quotes through ``FeedText``.
    public var description: String { FeedText.line(message) }

    private var message: String {
        switch self {
        case .notOPML(let root): "not OPML: the root element is <\(root)>"
        case .unreadable(let reason): "unreadable OPML: \(reason)"
        case .foldersTooDeep(let line, let limit):
            "unreadable OPML: line \(line): folders nest more than \(limit) levels deep, the most a category may"
        case .categoryTooDeep(let url, let depth, let limit):
            "\(url.absoluteString): its category is \(depth) levels deep; categories nest at most \(limit) levels"
        }
    }
}
