import ListDiff
import Testing

/// One case per UIKit rule: a batch that breaks it, and the error that says so.
@Suite struct ValidationTests {
    typealias Op = BatchUpdateError.Operation

    private func error(_ update: BatchUpdate, old: [Int], new: [Int]) -> BatchUpdateError? {
        do {
            try update.validate(oldCounts: old, newCounts: new)
            return nil
        } catch {
            return error
        }
    }

    @Test func acceptsAValidMixedBatch() throws {
        // Before: [3 items], [2 items], [1 item]. Section 1 moves to the end, section 2 is deleted,
        // a new section appears at 1; in section 0 one item is deleted, one inserted, one moved
        // into the moved section.
        let update = BatchUpdate(
            sectionDeletes: [2], sectionInserts: [1], sectionMoves: [.init(from: 1, to: 2)],
            deletes: [path(0, 0)], inserts: [path(0, 0)],
            moves: [.init(from: path(0, 2), to: path(2, 0))], reloads: [path(0, 1)])
        try update.validate(oldCounts: [3, 2, 1], newCounts: [2, 4, 3])
    }

    @Test func acceptsAnEmptyBatchOnlyWhenCountsAreUnchanged() {
        #expect(error(BatchUpdate(), old: [1, 2], new: [1, 2]) == nil)
        #expect(error(BatchUpdate(), old: [1, 2], new: [1, 3]) == .itemCountMismatch(
            oldSection: 1, newSection: 1, before: 2, after: 3, deleted: 0, inserted: 0, movedOut: 0, movedIn: 0))
    }

    @Test func rejectsWrongSectionCount() {
        #expect(error(BatchUpdate(sectionInserts: [0]), old: [1], new: [0]) == .sectionCountMismatch(
            before: 1, after: 1, deleted: 0, inserted: 1))
        #expect(error(BatchUpdate(sectionDeletes: [0]), old: [1, 1], new: [1, 1]) == .sectionCountMismatch(
            before: 2, after: 2, deleted: 1, inserted: 0))
    }

    @Test func rejectsSectionIndicesOutOfRange() {
        #expect(error(BatchUpdate(sectionDeletes: [2]), old: [0, 0], new: [0]) == .sectionOutOfRange(.delete, section: 2, sectionCount: 2))
        #expect(error(BatchUpdate(sectionInserts: [1]), old: [], new: [0]) == .sectionOutOfRange(.insert, section: 1, sectionCount: 1))
        #expect(error(BatchUpdate(sectionReloads: [-1]), old: [0], new: [0]) == .sectionOutOfRange(.reload, section: -1, sectionCount: 1))
        #expect(error(BatchUpdate(sectionMoves: [.init(from: 0, to: 1)]), old: [0], new: [0]) == .sectionOutOfRange(.moveDestination, section: 1, sectionCount: 1))
    }

    @Test func rejectsASectionNamedTwice() {
        #expect(error(BatchUpdate(sectionDeletes: [0], sectionMoves: [.init(from: 0, to: 0)]), old: [0, 0], new: [0])
            == .sectionNamedTwice(section: 0, .delete, .moveSource))
        #expect(error(BatchUpdate(sectionMoves: [.init(from: 0, to: 1)], sectionReloads: [0]), old: [0, 0], new: [0, 0])
            == .sectionNamedTwice(section: 0, .reload, .moveSource))
        #expect(error(BatchUpdate(sectionMoves: [.init(from: 0, to: 1), .init(from: 1, to: 1)]), old: [0, 0], new: [0, 0])
            == .sectionNamedTwice(section: 1, .moveDestination, .moveDestination))
        #expect(error(BatchUpdate(sectionInserts: [1], sectionMoves: [.init(from: 0, to: 1)]), old: [0], new: [0, 0])
            == .sectionNamedTwice(section: 1, .insert, .moveDestination))
        #expect(error(BatchUpdate(sectionDeletes: [0, 0]), old: [0, 0], new: []) == .sectionNamedTwice(section: 0, .delete, .delete))
    }

    @Test func rejectsItemIndicesOutOfRange() {
        #expect(error(BatchUpdate(deletes: [path(0, 5)], inserts: [path(0, 0)]), old: [5], new: [5])
            == .itemOutOfRange(.delete, path(0, 5), itemCount: 5))
        #expect(error(BatchUpdate(inserts: [path(0, 6)]), old: [5], new: [6])
            == .itemOutOfRange(.insert, path(0, 6), itemCount: 6))
        #expect(error(BatchUpdate(reloads: [path(1, 0)]), old: [1], new: [1])
            == .itemSectionOutOfRange(.reload, path(1, 0), sectionCount: 1))
        #expect(error(BatchUpdate(moves: [.init(from: path(0, 0), to: path(0, 1))]), old: [1], new: [1])
            == .itemOutOfRange(.moveDestination, path(0, 1), itemCount: 1))
        #expect(error(BatchUpdate(deletes: [path(0, -1)]), old: [1], new: [0])
            == .itemOutOfRange(.delete, path(0, -1), itemCount: 1))
    }

    @Test func rejectsAnItemNamedTwice() {
        let move = BatchUpdate.ItemMove(from: path(0, 0), to: path(0, 1))
        #expect(error(BatchUpdate(deletes: [path(0, 0)], moves: [move]), old: [2], new: [1])
            == .itemNamedTwice(path(0, 0), .delete, .moveSource))
        #expect(error(BatchUpdate(moves: [move], reloads: [path(0, 0)]), old: [2], new: [2])
            == .itemNamedTwice(path(0, 0), .reload, .moveSource))
        #expect(error(BatchUpdate(deletes: [path(0, 1)], inserts: [path(0, 1)], reloads: [path(0, 1)]), old: [2], new: [2])
            == .itemNamedTwice(path(0, 1), .delete, .reload))
        #expect(error(BatchUpdate(deletes: [path(0, 1)], inserts: [path(0, 1)], moves: [move]), old: [2], new: [2])
            == .itemNamedTwice(path(0, 1), .insert, .moveDestination))
        #expect(error(BatchUpdate(inserts: [path(0, 0), path(0, 0)]), old: [0], new: [2])
            == .itemNamedTwice(path(0, 0), .insert, .insert))
    }

    @Test func rejectsItemOperationsInDeletedInsertedOrReloadedSections() {
        #expect(error(BatchUpdate(sectionDeletes: [0], deletes: [path(0, 0)]), old: [1, 0], new: [0])
            == .itemInDeletedSection(.delete, path(0, 0)))
        #expect(error(BatchUpdate(sectionDeletes: [0], moves: [.init(from: path(0, 0), to: path(0, 0))]), old: [1, 0], new: [1])
            == .itemInDeletedSection(.moveSource, path(0, 0)))
        #expect(error(BatchUpdate(sectionInserts: [1], inserts: [path(1, 0)]), old: [0], new: [0, 1])
            == .itemInInsertedSection(.insert, path(1, 0)))
        #expect(error(BatchUpdate(sectionInserts: [1], moves: [.init(from: path(0, 0), to: path(1, 0))]), old: [1], new: [0, 1])
            == .itemInInsertedSection(.moveDestination, path(1, 0)))
        #expect(error(BatchUpdate(sectionReloads: [0], reloads: [path(0, 0)]), old: [1], new: [1])
            == .itemInReloadedSection(.reload, path(0, 0)))
        // Section 0 is reloaded and section 1 deleted, so old section 0 is new section 0.
        #expect(error(BatchUpdate(sectionDeletes: [1], sectionReloads: [0], inserts: [path(0, 1)]), old: [1, 1], new: [2])
            == .itemInReloadedSection(.insert, path(0, 1)))
    }

    @Test func rejectsWrongItemCountsInASurvivingSection() {
        // A move out of section 0 into section 1 without the counts to match.
        let move = BatchUpdate.ItemMove(from: path(0, 0), to: path(1, 0))
        #expect(error(BatchUpdate(moves: [move]), old: [2, 2], new: [2, 3]) == .itemCountMismatch(
            oldSection: 0, newSection: 0, before: 2, after: 2, deleted: 0, inserted: 0, movedOut: 1, movedIn: 0))
        // Counts follow a moved section to its new index.
        let update = BatchUpdate(sectionMoves: [.init(from: 0, to: 1)], inserts: [path(1, 0)])
        #expect(error(update, old: [1, 5], new: [5, 1]) == .itemCountMismatch(
            oldSection: 0, newSection: 1, before: 1, after: 1, deleted: 0, inserted: 1, movedOut: 0, movedIn: 0))
        #expect(error(update, old: [1, 5], new: [5, 2]) == nil)
    }

    @Test func errorsReadLikeUIKit() {
        let mismatch = BatchUpdateError.itemCountMismatch(
            oldSection: 0, newSection: 0, before: 4, after: 5, deleted: 1, inserted: 1, movedOut: 0, movedIn: 0)
        #expect(mismatch.description.contains("invalid number of items in section 0: 5 after the update, but 4 before it"))
        #expect(BatchUpdateError.itemNamedTwice(path(0, 1), .delete, .moveSource).description
            == "item [0, 1] is named twice on one side of the update: delete and move from")
    }
}
