/// How urgent a request is. Waiting work of a higher tier always starts before work of a lower one.
///
/// The tiers follow a list's ranges: rows on screen, rows about to be displayed, rows where a
/// fling is predicted to stop, rows in the preload range ahead of the scroll, and work nobody
/// is looking at yet. Within a tier, the pipeline's ``QueueOrder`` decides, and a consumer can
/// move its work to the front of its tier (``ContentSlot/bind(_:priority:)`` does so when a row
/// re-enters view). Priorities can change at any time, prefetches' included
/// (``ContentLoader/setPrefetchPriority(_:for:)``); shared work follows the highest priority
/// among its consumers.
public enum LoadPriority: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible {
    /// Work nobody is looking at yet.
    case background = 0
    /// Rows in the preload range, ahead of the scroll.
    case prefetch = 1
    /// Rows around the offset where a fling is predicted to stop: above prefetch, as they will
    /// be on screen when the scroll ends; below display, as display rows are needed sooner and
    /// a prediction can change while the fling decelerates.
    case landing = 2
    /// Rows about to be displayed, just outside the screen.
    case display = 3
    /// Rows on screen.
    case visible = 4

    public static func < (lhs: LoadPriority, rhs: LoadPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .background: "background"
        case .prefetch: "prefetch"
        case .landing: "landing"
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
