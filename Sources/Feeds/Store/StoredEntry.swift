import Foundation

/// An entry as the store keeps it: the feed's fields and the reader's state.
public struct StoredEntry: Sendable, Hashable, Identifiable {
    /// The store's identifier for an entry, stable across refreshes and never reused, so a list
    /// can use it as a row identity.
    public typealias ID = Int64

    /// The store's identifier.
    public var id: ID
    /// The feed the entry belongs to.
    public var feedID: StoredFeed.ID
    /// The fields from the feed, as of the last upsert that changed them.
    public var entry: FeedEntry
    /// Whether the reader has read it; kept across refreshes.
    public var isRead: Bool
    /// Whether the reader starred it; kept across refreshes, and never removed by retention.
    public var isStarred: Bool
    /// When the store first saw the entry.
    public var firstSeen: Date

    /// The date the entry sorts by: published, else updated, else first seen.
    public var sortDate: Date {
        entry.published ?? entry.updated ?? firstSeen
    }

    /// A stored entry.
    public init(id: ID, feedID: StoredFeed.ID, entry: FeedEntry, isRead: Bool, isStarred: Bool, firstSeen: Date) {
        self.id = id
        self.feedID = feedID
        self.entry = entry
        self.isRead = isRead
        self.isStarred = isStarred
        self.firstSeen = firstSeen
    }
}
