extension BatchUpdate {
    /// Applies this batch to `old` the way a list view does, and returns the resulting data.
    ///
    /// `target` plays the part of the data source after the update: it supplies the section
    /// and item counts that the batch is validated against, and the content of what the batch
    /// inserts or reloads. Everything else (items that stay, items that move, and their
    /// order) comes from `old` and the batch alone, so the result equals `target` only if the
    /// batch describes the change exactly: a stale item that should have been reloaded, or an
    /// item left in the wrong place, shows up as a difference.
    ///
    /// - Throws: ``BatchUpdateError`` if the batch is invalid for these counts (see
    ///   ``validate(oldCounts:newCounts:)``), or if a reload names an item or section whose
    ///   identity differs in `target`.
    /// - Complexity: O(n + o) expected, for n items on both sides and o operations.
    public func apply<Model, Item>(
        to old: [ListSection<Model, Item>],
        target: [ListSection<Model, Item>]
    ) throws(BatchUpdateError) -> [ListSection<Model, Item>] {
        let plan = try plan(oldCounts: old.map(\.items.count), newCounts: target.map(\.items.count))

        var leaving = Set<ListIndexPath>(minimumCapacity: deletes.count + moves.count)
        leaving.formUnion(deletes)
        leaving.formUnion(moves.lazy.map(\.from))
        let reloaded = Set(reloads)
        var arrivals: [Int: [(item: Int, value: Item)]] = [:]
        for path in inserts {
            arrivals[path.section, default: []].append((path.item, target[path.section].items[path.item]))
        }
        for move in moves {
            arrivals[move.to.section, default: []].append((move.to.item, old[move.from.section].items[move.from.item]))
        }

        var result: [ListSection<Model, Item>] = []
        result.reserveCapacity(target.count)
        for new in target.indices {
            let source = plan.oldIndex[new]
            if source < 0 {
                result.append(target[new])
                continue
            }
            if plan.isReloaded[source] {
                guard target[new].id == old[source].id else { throw .sectionReloadChangedIdentity(section: source) }
                result.append(target[new])
                continue
            }
            var slots = [Item?](repeating: nil, count: target[new].items.count)
            for arrival in arrivals[new] ?? [] { slots[arrival.item] = arrival.value }
            var free = 0
            for (index, item) in old[source].items.enumerated() {
                let path = ListIndexPath(item: index, section: source)
                if leaving.contains(path) { continue }
                while slots[free] != nil { free += 1 }
                if reloaded.contains(path) {
                    let fresh = target[new].items[free]
                    guard fresh.id == item.id else { throw .reloadChangedIdentity(path) }
                    slots[free] = fresh
                } else {
                    slots[free] = item
                }
            }
            // Validation guarantees every slot is filled: the counts add up.
            result.append(ListSection(model: old[source].model, items: slots.map { $0! }))
        }
        return result
    }
}
