import Foundation

/// A subscribed feed as the store keeps it: where it is, what it is called, and how its last
/// refresh went.
public struct StoredFeed: Sendable, Hashable, Identifiable {
    /// The store's identifier for the feed, stable for the feed's lifetime and never reused.
    public typealias ID = Int64

    /// The store's identifier.
    public var id: ID
    /// Where the feed is fetched from; unique among stored feeds.
    public var url: URL
    /// The feed's title, from the subscription or the last successful refresh.
    public var title: String?
    /// The web page the feed belongs to.
    public var link: URL?
    /// The `ETag` of the last successful response, for a conditional GET.
    public var etag: String?
    /// The `Last-Modified` of the last successful response, verbatim, for a conditional GET.
    public var lastModified: String?
    /// When the feed was last refreshed, successfully or not.
    public var lastRefresh: Date?
    /// Why the last refresh failed; `nil` after a success. The entries already stored stay.
    public var lastError: String?
    /// The folder the feed is filed under (an OPML outline), if any.
    public var category: String?
    /// The feed server's identifier for the feed (its stream id) when the account's server
    /// follows it: its entries come from the server, not from the feed itself.
    public var remoteID: String?

    /// A stored feed; only the identifier and the URL are required.
    public init(id: ID, url: URL, title: String? = nil, link: URL? = nil, etag: String? = nil,
                lastModified: String? = nil, lastRefresh: Date? = nil, lastError: String? = nil,
                category: String? = nil, remoteID: String? = nil) {
        self.id = id
        self.url = url
        self.title = title
        self.link = link
        self.etag = etag
        self.lastModified = lastModified
        self.lastRefresh = lastRefresh
        self.lastError = lastError
        self.category = category
        self.remoteID = remoteID
    }
}
