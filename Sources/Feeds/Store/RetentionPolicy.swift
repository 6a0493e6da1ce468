import Foundation

/// Which old entries ``FeedStoring/prune(_:feed:now:)`` deletes.
///
/// An entry is kept when it is among the newest ``maxEntriesPerFeed`` of its feed **or** newer
/// than ``maxAge``; with one limit set, that limit alone decides. Whatever the limits, starred
/// entries are always kept, and unread ones are kept unless ``deletesUnread`` is set, because
/// losing what the reader has not seen yet is worse than a larger file.
public struct RetentionPolicy: Sendable, Hashable {
    /// Keep at most this many entries per feed (newest first); `nil` for no count limit.
    public var maxEntriesPerFeed: Int?
    /// Keep entries whose sort date is newer than this many seconds; `nil` for no age limit.
    public var maxAge: TimeInterval?
    /// Whether unread entries may be deleted too.
    public var deletesUnread: Bool

    /// A policy; with no limit set it deletes nothing.
    ///
    /// - Precondition: the limits are not negative.
    public init(maxEntriesPerFeed: Int? = nil, maxAge: TimeInterval? = nil, deletesUnread: Bool = false) {
        precondition((maxEntriesPerFeed ?? 0) >= 0 && (maxAge ?? 0) >= 0, "RetentionPolicy: negative limit")
        self.maxEntriesPerFeed = maxEntriesPerFeed
        self.maxAge = maxAge
        self.deletesUnread = deletesUnread
    }

    /// A policy that keeps entries newer than `days` days.
    public static func days(_ days: Int, deletesUnread: Bool = false) -> RetentionPolicy {
        RetentionPolicy(maxAge: TimeInterval(days) * 86_400, deletesUnread: deletesUnread)
    }
}
