/// How a list loads its rows' content: Scrollwork, and the strategies apps ship, as issue 14
/// defines them. Every baseline loads without a cache, as the apps it models do.
package enum LoadingStrategy: String, CaseIterable, Sendable {
    /// Loads every row when it is displayed, all at once, never cancels, and puts the result
    /// in the view that asked, whatever it shows by then.
    case naive
    /// A stack of requests, newest first, six at a time, never cancelled; a result is shown
    /// only if its view still shows the item it was loaded for.
    case lifoStack = "lifo-stack"
    /// A set of row indices needing content; a row leaves it when it ends displaying; six
    /// workers take any pending row, and a result goes to whatever item is at that row index
    /// when it arrives.
    case pendingSet = "pending-set"
    /// An operation queue of width 4, oldest first; a row's operation is cancelled when it ends
    /// displaying.
    case opqueue4 = "opqueue-4"
    /// Only the visible rows, loaded when the list comes to rest, six at a time (Apple's
    /// LazyTableImages sample).
    case loadWhenStopped = "load-when-stopped"
    /// ListViewport's ranges and landing prediction driving ContentLoading's core: priorities
    /// by range, newest first within a tier, cancellation when a row leaves, a memory cache,
    /// and reuse-safe slots.
    case scrollwork
}
