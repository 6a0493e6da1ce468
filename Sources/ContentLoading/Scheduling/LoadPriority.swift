/// How urgent a request is. Waiting work of a higher tier always starts before work of a lower one.
///
/// The tiers follow a list's ranges: rows on screen, rows about to be displayed, rows in the
/// preload range ahead of the scroll, and work nobody is looking at yet.
public enum LoadPriority: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible {
    case background = 0
    case prefetch = 1
    case display = 2
    case visible = 3

    public static func < (lhs: LoadPriority, rhs: LoadPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .background: "background"
        case .prefetch: "prefetch"
        case .display: "display"
        case .visible: "visible"
        }
    }
}

/// Which waiting request of a tier starts first.
public enum QueueOrder: Sendable {
    /// Newest first: after a fling, the rows where the list stopped start before the rows it
    /// passed on the way. The default.
    case lifo
    /// Oldest first.
    case fifo
}
