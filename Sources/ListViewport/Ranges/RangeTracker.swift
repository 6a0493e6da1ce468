/// Turns the display ranges of successive frames into entered and left events, by item
/// identity, so a row that moves (rows inserted above it) does not leave and re-enter: the
/// viewport's display events.
package struct RangeTracker<ID: Hashable & Sendable>: Sendable {
    /// What changed in one range since the last frame.
    public struct Change: Sendable, Equatable {
        /// Items now in the range that were not, in row order.
        public var entered: [ID]
        /// Items no longer in the range, in the order they had in it (a run replays exactly).
        public var left: [ID]

        public var isEmpty: Bool { entered.isEmpty && left.isEmpty }
    }

    /// What changed since the last frame.
    public struct Changes: Sendable, Equatable {
        /// The display range's changes.
        public var display: Change
    }

    /// A range's items, in row order and as a set.
    private struct Members: Sendable {
        var ordered: [ID] = []
        var set: Set<ID> = []
    }

    private var display = Members()

    /// A tracker for which the display range is empty.
    public init() {}

    /// Records the display range of this frame, with `id(row)` the identity of the item at
    /// `row`, and returns what entered and left it. `pinnedRow`, a pinned section header's row,
    /// is displayed too, wherever it is.
    /// - Complexity: O(r) for the r rows in the range.
    public mutating func update(_ ranges: ViewportRanges, pinnedRow: Int? = nil, id: (Int) -> ID) -> Changes {
        func change(_ rows: some Sequence<Int>, _ previous: inout Members) -> Change {
            var current = Members()
            var entered: [ID] = []
            for row in rows {
                let item = id(row)
                guard current.set.insert(item).inserted else { continue }
                current.ordered.append(item)
                if !previous.set.contains(item) { entered.append(item) }
            }
            let left = previous.ordered.filter { !current.set.contains($0) }
            previous = current
            return Change(entered: entered, left: left)
        }
        if let pinnedRow { return Changes(display: change([pinnedRow] + ranges.display, &display)) }
        return Changes(display: change(ranges.display, &display))
    }
}
