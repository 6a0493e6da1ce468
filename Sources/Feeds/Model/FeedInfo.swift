import Foundation

/// What a feed says about itself, as opposed to its entries.
public struct FeedInfo: Sendable, Hashable {
    /// The format the feed was written in.
    public var format: FeedFormat
    /// The feed's title as plain text.
    public var title: String?
    /// The web page the feed belongs to, absolute.
    public var link: URL?
    /// The feed's description or subtitle, HTML kept.
    public var description: String?
    /// An icon or logo for the feed, absolute.
    public var icon: URL?
    /// When the feed says it last changed; `nil` when absent or unparseable.
    public var updated: Date?

    /// A feed description; every field but the format is optional because feeds omit them.
    public init(format: FeedFormat, title: String? = nil, link: URL? = nil, description: String? = nil,
                icon: URL? = nil, updated: Date? = nil) {
        self.format = format
        self.title = title
        self.link = link
        self.description = description
        self.icon = icon
        self.updated = updated
    }
}
