/// A piece of a staged change small enough to animate in one frame: a batch update that is
/// valid on its own, with only the items it brings, so applying it costs the size of the chunk,
/// not the size of the list.
///
/// Made by ``StagedChanges/chunked(maxChanges:)``. A list applies chunks in order, one per
/// frame: set its data with ``apply(to:)``, then animate ``update``.
public struct UpdateChunk<Model: Identifiable & Equatable, Item: Identifiable & Equatable> {
    /// The operations of this chunk, with UIKit's positions: deletes, reloads and move sources
    /// before the chunk; inserts and move destinations after it.
    public var update: BatchUpdate
    /// The items the chunk inserts, in the order of ``BatchUpdate/inserts``.
    public var insertedItems: [Item]
    /// The new content of the items the chunk reloads, in the order of ``BatchUpdate/reloads``.
    public var reloadedItems: [Item]
    /// For a chunk that changes sections (which is never split): the whole data after it.
    public var sections: [ListSection<Model, Item>]?

    /// A chunk; ``StagedChanges/chunked(maxChanges:)`` makes them.
    public init(update: BatchUpdate, insertedItems: [Item] = [], reloadedItems: [Item] = [],
                sections: [ListSection<Model, Item>]? = nil) {
        self.update = update
        self.insertedItems = insertedItems
        self.reloadedItems = reloadedItems
        self.sections = sections
    }

    /// How many rows or sections the chunk changes.
    public var changeCount: Int { update.operationCount }

    /// Brings `data`, the list as it was before this chunk, to the list after it, in place.
    ///
    /// - Precondition: `data` is what the previous chunk left (or the change's old snapshot).
    /// - Complexity: O(c · m) for c changes and m items moved in memory per change (a
    ///   `remove(at:)` or `insert(_:at:)`); no copy of the list is made. A chunk with
    ///   ``sections`` replaces the data with them.
    public func apply(to data: inout [ListSection<Model, Item>]) {
        if let sections {
            data = sections
            return
        }
        for (path, item) in zip(update.reloads, reloadedItems) {
            data[path.section].items[path.item] = item
        }
        // Sources of deletes and moves, last first so earlier positions stay put.
        let removals = (update.deletes.map { ($0, -1) } + update.moves.enumerated().map { ($1.from, $0) })
            .sorted { $0.0 > $1.0 }
        var moving = [Item?](repeating: nil, count: update.moves.count)
        for (path, move) in removals {
            let item = data[path.section].items.remove(at: path.item)
            if move >= 0 { moving[move] = item }
        }
        // Destinations, first first, so each lands where the update says.
        let arrivals = (zip(update.inserts, insertedItems).map { ($0, $1) }
            + update.moves.enumerated().map { ($1.to, moving[$0]!) })
            .sorted { $0.0 < $1.0 }
        for (path, item) in arrivals {
            data[path.section].items.insert(item, at: path.item)
        }
    }
}

extension UpdateChunk: Equatable {}
extension UpdateChunk: Sendable where Model: Sendable, Item: Sendable {}

extension StagedChanges {
    /// These changes as chunks of at most `maxChanges` row changes each, every one a valid
    /// batch update on its own, applied in order: what a list animates as posts arriving one
    /// after another, a few per frame.
    ///
    /// Each stage is split in this order: deletes (last first), then moves, then inserts
    /// (first first, so new rows at the top push the old ones down), then reloads at their
    /// final positions. The moves of a stage travel in one chunk whatever their number: a
    /// reorder is one motion. A stage that inserts, deletes, moves or reloads sections is one
    /// chunk, whole: splitting it would show sections half built.
    ///
    /// - Precondition: `maxChanges` is positive.
    /// - Complexity: O(c log c) for the c changes of all stages, plus O(n) for each stage that
    ///   changes sections; no chunk holds a copy of the list.
    public func chunked(maxChanges: Int = 10) -> [UpdateChunk<Model, Item>] {
        precondition(maxChanges > 0, "a chunk holds at least one change")
        return stages.flatMap { $0.chunked(maxChanges: maxChanges) }
    }
}

extension StagedChanges.Stage {
    /// This stage as chunks; see ``StagedChanges/chunked(maxChanges:)``.
    func chunked(maxChanges: Int) -> [UpdateChunk<Model, Item>] {
        let update = self.update
        guard update.sectionDeletes.isEmpty, update.sectionInserts.isEmpty, update.sectionMoves.isEmpty,
              update.sectionReloads.isEmpty else {
            return [UpdateChunk(update: update, sections: data)]
        }
        var chunks: [UpdateChunk<Model, Item>] = []
        func split<T>(_ elements: [T], _ make: (ArraySlice<T>) -> UpdateChunk<Model, Item>) {
            var start = 0
            while start < elements.count {
                let end = min(start + maxChanges, elements.count)
                chunks.append(make(elements[start..<end]))
                start = end
            }
        }
        let inserts = update.inserts.sorted()
        let moveDestinations = update.moves.map(\.to).sorted()
        let deletes = update.deletes.sorted()
        let moveSources = update.moves.map(\.from).sorted()

        split(deletes.reversed()) { BatchUpdate(deletes: Array($0)).chunk() }

        // Moves: from the list without its deletes to the list without its inserts.
        if !update.moves.isEmpty {
            let moves = update.moves.map { move in
                BatchUpdate.ItemMove(
                    from: ListIndexPath(item: move.from.item - Self.count(in: deletes, before: move.from), section: move.from.section),
                    to: ListIndexPath(item: move.to.item - Self.count(in: inserts, before: move.to), section: move.to.section))
            }
            chunks.append(BatchUpdate(moves: moves).chunk())
        }

        split(inserts) { paths in
            UpdateChunk(update: BatchUpdate(inserts: Array(paths)), insertedItems: paths.map { data[$0.section].items[$0.item] })
        }

        // Reloads, last: the list is the new one by then, so a reload's position is its new one.
        let reloads = update.reloads.map { path in
            Self.newPosition(ofUnnamed: path, deletes: deletes, moveSources: moveSources,
                             inserts: inserts, moveDestinations: moveDestinations,
                             newCount: data[path.section].items.count)
        }.sorted()
        split(reloads) { paths in
            UpdateChunk(update: BatchUpdate(reloads: Array(paths)), reloadedItems: paths.map { data[$0.section].items[$0.item] })
        }
        return chunks
    }

    /// How many of the sorted `paths` are in `path`'s section before it.
    /// - Complexity: O(log p).
    static func count(in paths: [ListIndexPath], before path: ListIndexPath) -> Int {
        partition(paths, below: path) - partition(paths, below: ListIndexPath(item: 0, section: path.section))
    }

    /// The number of sorted `paths` below `bound`.
    private static func partition(_ paths: [ListIndexPath], below bound: ListIndexPath) -> Int {
        var low = 0, high = paths.count
        while low < high {
            let middle = (low + high) / 2
            if paths[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The new position of the item at old position `path`, which the update neither deletes
    /// nor moves: unnamed items keep their order, so it is the k-th unnamed position of the
    /// section after the update as it is the k-th before it.
    /// - Complexity: O(log² n).
    static func newPosition(ofUnnamed path: ListIndexPath, deletes: [ListIndexPath], moveSources: [ListIndexPath],
                            inserts: [ListIndexPath], moveDestinations: [ListIndexPath], newCount: Int) -> ListIndexPath {
        let rank = path.item - count(in: deletes, before: path) - count(in: moveSources, before: path)
        // The smallest new position with `rank + 1` unnamed positions up to and including it.
        var low = 0, high = newCount - 1
        while low < high {
            let middle = (low + high) / 2
            let end = ListIndexPath(item: middle + 1, section: path.section)
            let unnamed = middle + 1 - count(in: inserts, before: end) - count(in: moveDestinations, before: end)
            if unnamed > rank { high = middle } else { low = middle + 1 }
        }
        return ListIndexPath(item: low, section: path.section)
    }
}

extension BatchUpdate {
    /// This batch as a chunk that brings no items.
    fileprivate func chunk<Model, Item>() -> UpdateChunk<Model, Item> {
        UpdateChunk(update: self)
    }
}
