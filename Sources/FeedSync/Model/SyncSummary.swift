/// What a sync changed, as `scrollwork sync` reports it: `42 new, 7 marked read, 3 starred,
/// 2 pushed`.
///
/// The core counts what it sees on the wire (``pushed``, ``received``, ``requests``); the
/// counts of what changed in the store (``new``, ``markedRead``, …) are the runtime's, which
/// adds them as it applies each ``SyncStoreChange``.
public struct SyncSummary: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Entries the store did not have before.
    public var new = 0
    /// Stored entries that became read.
    public var markedRead = 0
    /// Stored entries that became unread.
    public var markedUnread = 0
    /// Stored entries that became starred.
    public var starred = 0
    /// Stored entries that stopped being starred.
    public var unstarred = 0
    /// Local changes the server accepted (each item's state counts once).
    public var pushed = 0
    /// Items the server sent, new or not.
    public var received = 0
    /// Requests sent, logins included.
    public var requests = 0

    /// An empty summary.
    public init() {}

    /// `42 new, 7 marked read, 3 starred, 2 pushed`, and the marked-unread and unstarred counts
    /// after those when they are not zero.
    public var description: String {
        var parts = ["\(new) new", "\(markedRead) marked read", "\(starred) starred", "\(pushed) pushed"]
        if markedUnread > 0 { parts.insert("\(markedUnread) marked unread", at: 2) }
        if unstarred > 0 { parts.insert("\(unstarred) unstarred", at: parts.count - 1) }
        return parts.joined(separator: ", ")
    }
}
