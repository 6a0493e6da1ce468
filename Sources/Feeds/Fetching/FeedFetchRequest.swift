import Foundation

/// What to fetch: a feed's address and the validators of its last fetch.
public struct FeedFetchRequest: Hashable, Sendable {
    /// The feed's address: `http:`, `https:` or `file:`.
    public var url: URL
    /// The `ETag` of the last response, sent as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` of the last response, sent as `If-Modified-Since`.
    public var lastModified: String?

    /// Creates a request; without validators the fetch is unconditional.
    public init(url: URL, etag: String? = nil, lastModified: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
    }
}
