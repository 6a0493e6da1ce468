import ContentLoading
import ListViewport

/// A ``LoadPlan`` whose items have requests: from each frame's ranges, the prefetches to stop,
/// change and start, for a ``LoaderFront`` or a ``ContentLoader``.
///
/// It remembers the request of each item it plans, so that an item that has left the list
/// (deleted, or replaced by a refresh) can still be stopped.
public struct PrefetchPlan<ID: Hashable & Sendable, Request: ContentRequest>: Sendable {
    private var plan = LoadPlan<ID>()
    private var requests: [ID: Request] = [:]

    /// A plan prefetching nothing.
    public init() {}

    /// The requests the plan prefetches now.
    public var planned: Dictionary<ID, Request>.Values { requests.values }

    /// Takes this frame's ranges, with `id(row)` the item at a row and `request(row)` its
    /// request (nil for a row with nothing to load), and returns the prefetch changes, in the
    /// plan's order.
    /// - Complexity: O(r log r) for the r rows to load now and before.
    public mutating func update(_ ranges: ViewportRanges, id: (Int) -> ID, request: (Int) -> Request?) -> PrefetchChanges<Request> {
        let changes = plan.update(ranges, id: id)
        for (item, _) in changes.start {
            requests[item] = plan.current[item].flatMap { request($0.row) }
        }
        let prefetches = changes.prefetches { requests[$0] }
        for item in changes.stop { requests[item] = nil }
        return prefetches
    }
}
