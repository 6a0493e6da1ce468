extension StagedChanges {
    /// Computes the staged batch updates that turn `old` into `new`.
    ///
    /// Sections and items are matched by identity (`id`) with one hash table each, Heckel
    /// style; matched items whose content differs (`!=`) are reloaded. Of the items that stay
    /// in the same section, the longest run that keeps its relative order stays in place and
    /// the rest move, so a reorder uses the fewest moves; the same holds for sections. Items
    /// that change section move across sections, except into a section the change inserts or
    /// out of one it deletes, which UIKit cannot animate as a move: those are deleted and
    /// inserted. See ``StagedChanges`` for how the operations are split into stages.
    ///
    /// **Duplicate identities** never crash and never produce an invalid stage. They are
    /// matched by occurrence: the k-th item with an identity in `old` (counting across all
    /// sections, in order) is the same item as the k-th item with that identity in `new`;
    /// surplus occurrences are deleted or inserted. Sections with duplicate identities are
    /// matched the same way.
    ///
    /// - Complexity: O(n) expected time and memory for n sections and items in both snapshots,
    ///   plus O(k log n) for k items or sections whose relative order changed (choosing the
    ///   fewest moves). Content is compared once per matched item.
    @inlinable
    public init(from old: [ListSection<Model, Item>], to new: [ListSection<Model, Item>]) {
        self.init(stages: Differ(old: old, new: new).stages())
    }
}

/// The diff of two snapshots; one value per computation.
///
/// Inlinable, like the rest of the diff, so that clients get code specialized for their item
/// types: unspecialized, hashing and comparing through witness tables is about ten times slower.
@usableFromInline
struct Differ<Model: Identifiable & Equatable, Item: Identifiable & Equatable> {
    @usableFromInline typealias Section = ListSection<Model, Item>
    @usableFromInline typealias Stage = StagedChanges<Model, Item>.Stage

    @usableFromInline let old: [Section]
    @usableFromInline let new: [Section]

    @inlinable
    init(old: [Section], new: [Section]) {
        self.old = old
        self.new = new
    }

    @inlinable
    func stages() -> [Stage] {
        var sections = OccurrenceMatch<Model.ID>(newIDs: ContiguousArray(new.lazy.map(\.model.id)), oldCount: old.count)
        for section in old { sections.claim(section.model.id) }
        let oldStart = Self.startOffsets(old)
        let newStart = Self.startOffsets(new)
        var newItemIDs = ContiguousArray<Item.ID>()
        newItemIDs.reserveCapacity(newStart[new.count])
        for section in new {
            for item in section.items { newItemIDs.append(item.id) }
        }
        var items = OccurrenceMatch<Item.ID>(newIDs: newItemIDs, oldCount: oldStart[old.count])
        for section in old {
            for item in section.items { items.claim(item.id) }
        }
        var oldSectionOf = [Int32](repeating: 0, count: oldStart[old.count])
        for section in old.indices {
            for index in oldStart[section]..<oldStart[section + 1] { oldSectionOf[index] = Int32(section) }
            if sections.oldToNew[section] < 0 {
                for index in oldStart[section]..<oldStart[section + 1] { items.unpair(old: index) }
            }
        }
        for section in new.indices where sections.newToOld[section] < 0 {
            for index in newStart[section]..<newStart[section + 1] where items.newToOld[index] >= 0 {
                items.unpair(old: items.newToOld[index])
            }
        }

        var first = BatchUpdate()
        var second = BatchUpdate()

        // Sections: deletes, inserts, and moves for those outside the longest ordered run.
        first.sectionDeletes = old.indices.filter { sections.oldToNew[$0] < 0 }
        first.sectionInserts = new.indices.filter { sections.newToOld[$0] < 0 }
        let matchedSections = new.indices.compactMap { sections.newToOld[$0] >= 0 ? sections.newToOld[$0] : nil }
        let sectionStays = longestIncreasingSubsequenceMask(matchedSections)
        var sectionMoved = [Bool](repeating: false, count: old.count)
        for (rank, source) in matchedSections.enumerated() where !sectionStays[rank] {
            first.sectionMoves.append(.init(from: source, to: sections.oldToNew[source]))
            sectionMoved[source] = true
        }

        // Items. `reshaped[s]`: old section s loses, gains or reorders items in this change.
        var reshaped = [Bool](repeating: false, count: old.count)
        for section in old.indices where sections.oldToNew[section] >= 0 {
            for index in oldStart[section]..<oldStart[section + 1] where items.oldToNew[index] < 0 {
                first.deletes.append(ListIndexPath(item: index - oldStart[section], section: section))
                reshaped[section] = true
            }
        }
        // Moved items whose content changed: reloaded in the second stage, at the new position.
        var movedAndChanged: [(new: ListIndexPath, old: ListIndexPath)] = []
        var keptOrder: [Int] = []
        var keptRun = LongestIncreasingRun()
        for section in new.indices {
            let source = sections.newToOld[section]
            guard source >= 0 else { continue }
            let range = newStart[section]..<newStart[section + 1]
            keptOrder.removeAll(keepingCapacity: true)
            for index in range {
                let partner = items.newToOld[index]
                if partner >= 0, Int(oldSectionOf[partner]) == source { keptOrder.append(partner - oldStart[source]) }
            }
            keptRun.mark(keptOrder)
            var rank = 0
            for index in range {
                let to = ListIndexPath(item: index - newStart[section], section: section)
                let partner = items.newToOld[index]
                guard partner >= 0 else {
                    first.inserts.append(to)
                    reshaped[source] = true
                    continue
                }
                let fromSection = Int(oldSectionOf[partner])
                let from = ListIndexPath(item: partner - oldStart[fromSection], section: fromSection)
                let changed = old[fromSection].items[from.item] != new[section].items[to.item]
                if fromSection == source {
                    let staysInPlace = keptRun.mask[rank]
                    rank += 1
                    if staysInPlace {
                        if changed { first.reloads.append(from) }
                        continue
                    }
                }
                first.moves.append(.init(from: from, to: to))
                reshaped[source] = true
                reshaped[fromSection] = true
                if changed { movedAndChanged.append((to, from)) }
            }
        }

        // Section content: reloaded with the items if the section stays put and keeps its
        // shape (the section reload then covers its item reloads), else in the second stage.
        var reloadedNow = [Bool](repeating: false, count: old.count)
        var reloadedLater = [Bool](repeating: false, count: old.count)
        for section in new.indices {
            let source = sections.newToOld[section]
            guard source >= 0, old[source].model != new[section].model else { continue }
            if !sectionMoved[source] && !reshaped[source] {
                first.sectionReloads.append(source)
                reloadedNow[source] = true
            } else {
                second.sectionReloads.append(section)
                reloadedLater[source] = true
            }
        }
        if !first.sectionReloads.isEmpty {
            first.reloads.removeAll { reloadedNow[$0.section] }
        }
        second.reloads = movedAndChanged.lazy.map(\.new).filter { !reloadedLater[sections.newToOld[$0.section]] }

        guard !first.isEmpty else { return [] }
        guard !second.isEmpty else { return [Stage(update: first, data: new)] }
        // Between the stages the list shows the new layout with the content that the second
        // stage has yet to reload.
        var between = new
        for pair in movedAndChanged {
            between[pair.new.section].items[pair.new.item] = old[pair.old.section].items[pair.old.item]
        }
        for section in new.indices where sections.newToOld[section] >= 0 && reloadedLater[sections.newToOld[section]] {
            between[section].model = old[sections.newToOld[section]].model
        }
        return [Stage(update: first, data: between), Stage(update: second, data: new)]
    }

    /// The flat index of each section's first item, and the total item count at the end.
    @inlinable
    static func startOffsets(_ sections: [Section]) -> [Int] {
        var offsets = [Int]()
        offsets.reserveCapacity(sections.count + 1)
        var total = 0
        for section in sections {
            offsets.append(total)
            total += section.items.count
        }
        offsets.append(total)
        return offsets
    }
}
