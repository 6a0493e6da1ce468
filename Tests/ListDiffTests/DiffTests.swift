import ListDiff
import Testing

/// Checks the contract every result must meet: each stage validates against the data before
/// and after it, applying it yields its data, and applying all stages yields `new`.
func expectValid(_ changes: Changes, from old: [Section], to new: [Section], sourceLocation: SourceLocation = #_sourceLocation) {
    var data = old
    for (index, stage) in changes.enumerated() {
        #expect(!stage.update.isEmpty, "stage \(index) is empty", sourceLocation: sourceLocation)
        do {
            try stage.update.validate(oldCounts: data.map(\.items.count), newCounts: stage.data.map(\.items.count))
            let applied = try stage.apply(to: data)
            #expect(applied == stage.data, "stage \(index) does not produce its data", sourceLocation: sourceLocation)
            data = stage.data
        } catch {
            Issue.record("stage \(index) is invalid: \(error)\n\(stage.update)", sourceLocation: sourceLocation)
            return
        }
    }
    #expect(data == new, "the stages do not produce the new snapshot", sourceLocation: sourceLocation)
    #expect((try? changes.apply(to: old)) == new, sourceLocation: sourceLocation)
}

@Suite struct DiffTests {
    private func diff(_ old: String, _ new: String) -> (Changes, [Section], [Section]) {
        let (old, new) = (sections(old), sections(new))
        let changes = Changes(from: old, to: new)
        expectValid(changes, from: old, to: new)
        return (changes, old, new)
    }

    @Test func identicalSnapshotsNeedNoStage() {
        #expect(diff("A: a b c | B: d", "A: a b c | B: d").0.isEmpty)
        #expect(diff("A:", "A:").0.isEmpty)
        #expect(Changes(from: [], to: []).isEmpty)
    }

    @Test func insertsDeletesAndReloadsFitOneStage() throws {
        let (changes, _, _) = diff("A: a b c d", "A: x a c#1 d y")
        try #require(changes.count == 1)
        #expect(changes[0].update == BatchUpdate(
            deletes: [path(0, 1)], inserts: [path(0, 0), path(0, 4)], reloads: [path(0, 2)]))
    }

    @Test func aRotationIsOneMove() throws {
        let (changes, _, _) = diff("A: a b c d e f", "A: b c d e f a")
        try #require(changes.count == 1)
        #expect(changes[0].update == BatchUpdate(moves: [.init(from: path(0, 0), to: path(0, 5))]))
        let (back, _, _) = diff("A: a b c d e f", "A: f a b c d e")
        #expect(back[0].update.moves == [.init(from: path(0, 5), to: path(0, 0))])
    }

    @Test func aSwapOfTwoItemsIsOneMove() {
        let (changes, _, _) = diff("A: a b c d", "A: a c b d")
        #expect(changes.count == 1)
        #expect(changes.first?.update.moves.count == 1)
    }

    @Test func itemsMoveAcrossSections() throws {
        let (changes, _, _) = diff("A: a b | B: c", "A: b | B: a c")
        try #require(changes.count == 1)
        #expect(changes[0].update == BatchUpdate(moves: [.init(from: path(0, 0), to: path(1, 0))]))
    }

    @Test func aMovedItemWithNewContentIsReloadedInASecondStageAtItsNewPosition() throws {
        let (changes, old, new) = diff("A: a b c", "A: b c a#1")
        try #require(changes.count == 2)
        #expect(changes[0].update == BatchUpdate(moves: [.init(from: path(0, 0), to: path(0, 2))]))
        #expect(changes[0].data[0].items == old[0].items.dropFirst() + [old[0].items[0]])
        #expect(changes[1].update == BatchUpdate(reloads: [path(0, 2)]))
        #expect(changes[1].data == new)
    }

    @Test func sectionsAreInsertedDeletedAndMovedWithTheirItems() throws {
        let (changes, _, _) = diff("A: a | B: b | C: c", "C: c | A: a x | D: d")
        try #require(changes.count == 1)
        let update = changes[0].update
        #expect(update.sectionDeletes == [1])
        #expect(update.sectionInserts == [2])
        #expect(update.sectionMoves == [.init(from: 2, to: 0)])
        #expect(update.inserts == [path(1, 1)])
        #expect(update.deletes.isEmpty && update.moves.isEmpty)
    }

    @Test func anItemLeavingADeletedSectionOrEnteringAnInsertedOneIsDeletedAndInserted() throws {
        let (changes, _, _) = diff("A: a b | B: c", "A: b c | N: a")
        try #require(changes.count == 1)
        let update = changes[0].update
        #expect(update.sectionDeletes == [1])
        #expect(update.sectionInserts == [1])
        #expect(update.moves.isEmpty)
        #expect(update.deletes == [path(0, 0)])
        #expect(update.inserts == [path(0, 1)])
    }

    @Test func aSectionWhoseHeaderChangedIsReloadedInTheSameStageWhenItKeepsItsShape() throws {
        let (changes, _, _) = diff("A: a b | B: c", "A#1: a b#1 | B: c")
        try #require(changes.count == 1)
        // The section reload covers the reload of b.
        #expect(changes[0].update == BatchUpdate(sectionReloads: [0]))
    }

    @Test func aSectionWhoseHeaderChangedIsReloadedLaterWhenItsItemsMoveOrItMoves() throws {
        let (reshaped, _, _) = diff("A: a b | B: c", "A#1: b a | B: c")
        try #require(reshaped.count == 2)
        #expect(reshaped[1].update == BatchUpdate(sectionReloads: [0]))

        let (moved, _, _) = diff("A: a | B: b", "B#1: b | A: a")
        try #require(moved.count == 2)
        #expect(moved[0].update.sectionMoves.count == 1)
        #expect(moved[1].update == BatchUpdate(sectionReloads: [0]))
    }

    @Test func emptyListsAndSections() {
        _ = diff("A:", "A: a b")
        _ = diff("A: a b", "A:")
        _ = diff("A: a", "B: b | C:")
        let some = sections("A: a | B: b")
        expectValid(Changes(from: [], to: some), from: [], to: some)
        expectValid(Changes(from: some, to: []), from: some, to: [])
    }

    @Test func flatListsDiffAsOneSection() throws {
        let changes = StagedChanges(from: items("a b c"), to: items("c a d"))
        try #require(changes.count == 1)
        #expect(changes[0].update.deletes == [path(0, 1)])
        #expect(changes[0].update.inserts == [path(0, 2)])
        #expect(changes[0].update.moves.count == 1)
    }

    @Test func duplicateItemIdentitiesAreMatchedByOccurrence() throws {
        // Old: a₀ a₁ b. New: a₀ b a₁#1: the second a keeps its place relative to the first
        // and changes content; b moves ahead of it.
        let (changes, _, _) = diff("A: a a b", "A: a b a#1")
        try #require(changes.count == 1)
        #expect(changes[0].update == BatchUpdate(moves: [.init(from: path(0, 2), to: path(0, 1))], reloads: [path(0, 1)]))
        // Surplus occurrences are deleted or inserted.
        let (fewer, _, _) = diff("A: a a a", "A: a")
        #expect(fewer[0].update == BatchUpdate(deletes: [path(0, 1), path(0, 2)]))
        let (more, _, _) = diff("A: x", "A: x x | B: x")
        #expect(more[0].update == BatchUpdate(sectionInserts: [1], inserts: [path(0, 1)]))
    }

    @Test func duplicateSectionIdentitiesAreMatchedByOccurrence() {
        _ = diff("A: a | A: b", "A: b | A: a")
        _ = diff("A: a | A: b | A: c", "A: c")
        _ = diff("A: a", "A: a | A: a")
    }

    @Test func anIncompleteBatchIsCaughtByApply() throws {
        // Valid for UIKit (counts add up) but missing the reload: apply keeps the stale item.
        let old = sections("A: a b")
        let new = sections("A: a b#1")
        let stale = Changes.Stage(update: BatchUpdate(), data: new)
        #expect(try stale.apply(to: old) != new)
        // A reload that names the wrong item is caught too.
        let wrong = Changes.Stage(update: BatchUpdate(reloads: [path(0, 0)]), data: sections("A: b a"))
        #expect(throws: BatchUpdateError.reloadChangedIdentity(path(0, 0))) { try wrong.apply(to: old) }
    }
}
