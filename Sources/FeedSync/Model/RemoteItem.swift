import Foundation
import Feeds

/// An item as a server's API gives it, before it becomes an entry of the store (``entry``).
public struct RemoteItem: Sendable, Hashable {
    /// The server's id, normalized.
    public var id: RemoteItemID
    /// The stream (``RemoteSubscription/streamID``) the item belongs to.
    public var streamID: String
    /// The title, as the server gives it (HTML or plain text).
    public var title: String
    /// The web page of the item.
    public var link: URL?
    /// The author's name.
    public var author: String?
    /// When the item was published.
    public var published: Date?
    /// When it last changed.
    public var updated: Date?
    /// When the server fetched it: what "items newer than" compares with.
    public var crawled: Date?
    /// A summary, HTML.
    public var summary: String?
    /// The full content, HTML.
    public var content: String?
    /// The item's own categories (not the server's folders or states).
    public var categories: [String]
    /// Attached media.
    public var enclosures: [FeedEnclosure]
    /// A picture the server chose for the item, when its API has one.
    public var imageURL: URL?
    /// Whether the server has the item read.
    public var isRead: Bool
    /// Whether the server has the item starred.
    public var isStarred: Bool

    /// An item; what a protocol decodes.
    public init(id: RemoteItemID, streamID: String, title: String, link: URL? = nil, author: String? = nil,
                published: Date? = nil, updated: Date? = nil, crawled: Date? = nil, summary: String? = nil,
                content: String? = nil, categories: [String] = [], enclosures: [FeedEnclosure] = [],
                imageURL: URL? = nil, isRead: Bool = false, isStarred: Bool = false) {
        self.id = id
        self.streamID = streamID
        self.title = title
        self.link = link
        self.author = author
        self.published = published
        self.updated = updated
        self.crawled = crawled
        self.summary = summary
        self.content = content
        self.categories = categories
        self.enclosures = enclosures
        self.imageURL = imageURL
        self.isRead = isRead
        self.isStarred = isStarred
    }
}
