import Foundation

/// One post of a feed, normalized across formats.
public struct FeedEntry: Sendable, Hashable {
    /// A stable identity within the feed: the guid or id; when missing, the link plus the date,
    /// then the link alone, then `title:` and a 64-bit FNV-1a hash of the title.
    public var id: String
    /// The title as plain text: entities decoded, markup removed, whitespace collapsed.
    public var title: String
    /// The alternate (web page) link, absolute.
    public var link: URL?
    /// The author's name (or address, when that is all the feed gives).
    public var author: String?
    /// Category names, in document order.
    public var categories: [String]
    /// When the entry was first published; `nil` when absent or unparseable, never "now".
    public var published: Date?
    /// When the entry last changed; `nil` when absent or unparseable.
    public var updated: Date?
    /// A short summary, HTML kept.
    public var summary: String?
    /// The full content, HTML kept.
    public var content: String?
    /// Attached media (podcast audio, images), absolute.
    public var enclosures: [FeedEnclosure]
    /// The image that best represents the entry, absolute; see ``FeedParser`` for the rules.
    public var thumbnail: URL?
    /// Whether a field was cut at ``FeedParser/Configuration/maxFieldBytes``.
    public var isTruncated: Bool

    /// An entry; only the identity and the title are required.
    public init(id: String, title: String, link: URL? = nil, author: String? = nil, categories: [String] = [],
                published: Date? = nil, updated: Date? = nil, summary: String? = nil, content: String? = nil,
                enclosures: [FeedEnclosure] = [], thumbnail: URL? = nil, isTruncated: Bool = false) {
        self.id = id
        self.title = title
        self.link = link
        self.author = author
        self.categories = categories
        self.published = published
        self.updated = updated
        self.summary = summary
        self.content = content
        self.enclosures = enclosures
        self.thumbnail = thumbnail
        self.isTruncated = isTruncated
    }
}

/// A file attached to an entry: RSS `enclosure`, Atom `link rel="enclosure"`, a JSON Feed attachment.
public struct FeedEnclosure: Sendable, Hashable {
    /// Where the file is, absolute.
    public var url: URL
    /// Its MIME type, when the feed gives one.
    public var type: String?
    /// Its size in bytes, when the feed gives one.
    public var length: Int?

    /// An enclosure at `url`.
    public init(url: URL, type: String? = nil, length: Int? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}
