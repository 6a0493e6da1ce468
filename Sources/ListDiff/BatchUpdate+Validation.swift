extension BatchUpdate {
    /// Checks this batch the way UIKit's `performBatchUpdates` does, given how many items each
    /// section holds before and after the update.
    ///
    /// The rules: every index is in range on its side of the update (deletes, reloads and move
    /// sources before it; inserts and move destinations after it); no section and no item is
    /// named twice on one side (so nothing is both deleted and moved, moved and reloaded, or
    /// inserted where a move lands); item operations never name a section that the batch
    /// deletes, inserts or reloads; the section count after the update is the count before it
    /// minus deletes plus inserts; and every surviving section holds, after the update, its
    /// items before it minus those deleted or moved out plus those inserted or moved in.
    ///
    /// - Parameters:
    ///   - oldCounts: the number of items in each section before the update.
    ///   - newCounts: the number of items in each section after the update.
    /// - Throws: the first rule broken, as a ``BatchUpdateError``.
    /// - Complexity: O(s + o), for s sections and o operations.
    public func validate(oldCounts: [Int], newCounts: [Int]) throws(BatchUpdateError) {
        _ = try plan(oldCounts: oldCounts, newCounts: newCounts)
    }

    /// Validates the batch and works out where each section goes, for ``apply(to:target:)``.
    func plan(oldCounts: [Int], newCounts: [Int]) throws(BatchUpdateError) -> SectionPlan {
        let plan = try sectionPlan(oldSectionCount: oldCounts.count, newSectionCount: newCounts.count)
        try checkItems(plan: plan, oldCounts: oldCounts, newCounts: newCounts)
        return plan
    }

    private func sectionPlan(oldSectionCount: Int, newSectionCount: Int) throws(BatchUpdateError) -> SectionPlan {
        func checkRange(_ operation: BatchUpdateError.Operation, _ section: Int, _ count: Int) throws(BatchUpdateError) {
            guard section >= 0, section < count else {
                throw .sectionOutOfRange(operation, section: section, sectionCount: count)
            }
        }
        var oldNamed = [BatchUpdateError.Operation?](repeating: nil, count: oldSectionCount)
        var newNamed = [BatchUpdateError.Operation?](repeating: nil, count: newSectionCount)
        func nameOld(_ operation: BatchUpdateError.Operation, _ section: Int) throws(BatchUpdateError) {
            try checkRange(operation, section, oldSectionCount)
            if let first = oldNamed[section] { throw .sectionNamedTwice(section: section, first, operation) }
            oldNamed[section] = operation
        }
        func nameNew(_ operation: BatchUpdateError.Operation, _ section: Int) throws(BatchUpdateError) {
            try checkRange(operation, section, newSectionCount)
            if let first = newNamed[section] { throw .sectionNamedTwice(section: section, first, operation) }
            newNamed[section] = operation
        }
        for section in sectionDeletes { try nameOld(.delete, section) }
        for section in sectionReloads { try nameOld(.reload, section) }
        for move in sectionMoves { try nameOld(.moveSource, move.from) }
        for section in sectionInserts { try nameNew(.insert, section) }
        for move in sectionMoves { try nameNew(.moveDestination, move.to) }

        guard oldSectionCount - sectionDeletes.count + sectionInserts.count == newSectionCount else {
            throw .sectionCountMismatch(
                before: oldSectionCount, after: newSectionCount,
                deleted: sectionDeletes.count, inserted: sectionInserts.count)
        }

        // Sections not deleted, inserted or moved keep their order and fill the free indices.
        var plan = SectionPlan(oldSectionCount: oldSectionCount, newSectionCount: newSectionCount)
        for move in sectionMoves { plan.link(old: move.from, new: move.to) }
        for section in sectionReloads { plan.isReloaded[section] = true }
        var next = 0
        for old in 0..<oldSectionCount where oldNamed[old] == nil || oldNamed[old] == .reload {
            while newNamed[next] != nil { next += 1 }
            plan.link(old: old, new: next)
            next += 1
        }
        return plan
    }

    private func checkItems(plan: SectionPlan, oldCounts: [Int], newCounts: [Int]) throws(BatchUpdateError) {
        func checkOld(_ operation: BatchUpdateError.Operation, _ path: ListIndexPath) throws(BatchUpdateError) {
            guard path.section >= 0, path.section < oldCounts.count else {
                throw .itemSectionOutOfRange(operation, path, sectionCount: oldCounts.count)
            }
            guard plan.newIndex[path.section] >= 0 else { throw .itemInDeletedSection(operation, path) }
            guard !plan.isReloaded[path.section] else { throw .itemInReloadedSection(operation, path) }
            guard path.item >= 0, path.item < oldCounts[path.section] else {
                throw .itemOutOfRange(operation, path, itemCount: oldCounts[path.section])
            }
        }
        func checkNew(_ operation: BatchUpdateError.Operation, _ path: ListIndexPath) throws(BatchUpdateError) {
            guard path.section >= 0, path.section < newCounts.count else {
                throw .itemSectionOutOfRange(operation, path, sectionCount: newCounts.count)
            }
            let old = plan.oldIndex[path.section]
            guard old >= 0 else { throw .itemInInsertedSection(operation, path) }
            guard !plan.isReloaded[old] else { throw .itemInReloadedSection(operation, path) }
            guard path.item >= 0, path.item < newCounts[path.section] else {
                throw .itemOutOfRange(operation, path, itemCount: newCounts[path.section])
            }
        }

        var oldNamed: [ListIndexPath: BatchUpdateError.Operation] = [:]
        var newNamed: [ListIndexPath: BatchUpdateError.Operation] = [:]
        func nameOld(_ operation: BatchUpdateError.Operation, _ path: ListIndexPath) throws(BatchUpdateError) {
            try checkOld(operation, path)
            if let first = oldNamed.updateValue(operation, forKey: path) { throw .itemNamedTwice(path, first, operation) }
        }
        func nameNew(_ operation: BatchUpdateError.Operation, _ path: ListIndexPath) throws(BatchUpdateError) {
            try checkNew(operation, path)
            if let first = newNamed.updateValue(operation, forKey: path) { throw .itemNamedTwice(path, first, operation) }
        }

        var removed = [Int](repeating: 0, count: oldCounts.count)
        var movedOut = [Int](repeating: 0, count: oldCounts.count)
        var added = [Int](repeating: 0, count: newCounts.count)
        var movedIn = [Int](repeating: 0, count: newCounts.count)
        for path in deletes {
            try nameOld(.delete, path)
            removed[path.section] += 1
        }
        for path in reloads { try nameOld(.reload, path) }
        for move in moves {
            try nameOld(.moveSource, move.from)
            movedOut[move.from.section] += 1
        }
        for path in inserts {
            try nameNew(.insert, path)
            added[path.section] += 1
        }
        for move in moves {
            try nameNew(.moveDestination, move.to)
            movedIn[move.to.section] += 1
        }

        for old in oldCounts.indices where plan.newIndex[old] >= 0 && !plan.isReloaded[old] {
            let new = plan.newIndex[old]
            let expected = oldCounts[old] - removed[old] - movedOut[old] + added[new] + movedIn[new]
            guard expected == newCounts[new] else {
                throw .itemCountMismatch(
                    oldSection: old, newSection: new, before: oldCounts[old], after: newCounts[new],
                    deleted: removed[old], inserted: added[new], movedOut: movedOut[old], movedIn: movedIn[new])
            }
        }
    }
}

/// Where each section of a valid batch goes: the index it has on the other side of the update.
struct SectionPlan {
    /// For each section before the update, its index after it, or -1 if deleted.
    var newIndex: [Int]
    /// For each section after the update, its index before it, or -1 if inserted.
    var oldIndex: [Int]
    /// For each section before the update, whether the batch reloads it.
    var isReloaded: [Bool]

    init(oldSectionCount: Int, newSectionCount: Int) {
        newIndex = Array(repeating: -1, count: oldSectionCount)
        oldIndex = Array(repeating: -1, count: newSectionCount)
        isReloaded = Array(repeating: false, count: oldSectionCount)
    }

    mutating func link(old: Int, new: Int) {
        newIndex[old] = new
        oldIndex[new] = old
    }
}
