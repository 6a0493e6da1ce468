import ContentLoading
import ListViewport

/// What a host tells ContentLoading from one frame to the next: which items' content to start
/// loading, at which priority, whose priority changed, and which to stop, from each frame's
/// ``ViewportRanges/rowsToLoad`` (its tiers as the priorities of the same name).
///
/// Its changes, as requests (``Changes/prefetches(_:)``), go to a ``LoaderFront`` or a
/// ``ContentLoader``, which stop, change and start prefetches in that order. Items are followed by identity, so rows inserted
/// above change nothing. Every list comes out in a fixed order (starts and changes in the
/// order of ``ViewportRanges/rowsToLoad``, the most urgent last; stops in the rows they last
/// had), so that a run replays exactly.
struct LoadPlan<ID: Hashable & Sendable>: Sendable {
    /// What changed since the last frame.
    struct Changes: Sendable {
        /// Items to start loading, the most urgent last.
        var start: [(id: ID, priority: LoadPriority)] = []
        /// Items already loading whose priority changed, the most urgent last.
        var reprioritize: [(id: ID, priority: LoadPriority)] = []
        /// Items no longer to load.
        var stop: [ID] = []
    }

    /// The items to load now, with their priority and row.
    private(set) var current: [ID: (priority: LoadPriority, row: Int)] = [:]

    /// A plan loading nothing.
    init() {}

    /// Takes this frame's ranges, with `id(row)` the item at a row, and returns the changes.
    /// - Complexity: O(r log r) for the r rows to load now and before.
    mutating func update(_ ranges: ViewportRanges, id: (Int) -> ID) -> Changes {
        var changes = Changes()
        var next: [ID: (priority: LoadPriority, row: Int)] = [:]
        for (row, tier) in ranges.rowsToLoad {
            let item = id(row)
            let priority = LoadPriority(tier)
            next[item] = (priority, row)
            if let previous = current[item] {
                if previous.priority != priority { changes.reprioritize.append((item, priority)) }
            } else {
                changes.start.append((item, priority))
            }
        }
        changes.stop = current.filter { next[$0.key] == nil }.sorted { $0.value.row < $1.value.row }.map(\.key)
        current = next
        return changes
    }
}

extension LoadPlan.Changes {
    /// These changes as prefetches of requests, for ``LoaderFront/apply(_:)`` or
    /// ``ContentLoader/apply(_:)``, in the same order.
    ///
    /// - Parameter request: the request of an item, or nil for an item with nothing to load;
    ///   it must answer for items that have left the list too, as they may be stopped.
    /// - Complexity: O(c) for the c changes.
    func prefetches<Request>(_ request: (ID) -> Request?) -> PrefetchChanges<Request> {
        PrefetchChanges(
            stop: stop.compactMap(request),
            reprioritize: reprioritize.compactMap { change in request(change.id).map { ($0, change.priority) } },
            start: start.compactMap { change in request(change.id).map { ($0, change.priority) } })
    }
}
