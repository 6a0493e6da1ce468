import Foundation

/// What a server said about a feed it is sending, before the body.
public struct FeedResponse: Sendable, Hashable {
    /// The charset declared in `Content-Type`, for the parser.
    public var charset: String?
    /// Validators for the next conditional fetch.
    public var etag: String?
    public var lastModified: String?
    /// Where the feed was finally found, after redirects.
    public var finalURL: URL
    /// The feed's new address, when every redirect on the way was permanent.
    public var permanentRedirect: URL?

    /// A response; without a charset the parser reads the document's own declaration.
    public init(charset: String? = nil, etag: String? = nil, lastModified: String? = nil, finalURL: URL,
                permanentRedirect: URL? = nil) {
        self.charset = charset
        self.etag = etag
        self.lastModified = lastModified
        self.finalURL = finalURL
        self.permanentRedirect = permanentRedirect
    }
}
