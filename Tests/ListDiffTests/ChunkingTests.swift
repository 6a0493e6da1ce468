import ListDiff
import SeededRandom
import Testing

@Suite struct ChunkingTests {
    /// Applies every chunk in turn, checking each the way a list view would: valid for the
    /// counts, and the batch with the chunk's content gives exactly what `apply(to:)` left.
    private func check(_ old: [Section], _ new: [Section], maxChanges: Int, _ context: @autoclosure () -> String) {
        let chunks = StagedChanges(from: old, to: new).chunked(maxChanges: maxChanges)
        var data = old
        for chunk in chunks {
            let before = data
            chunk.apply(to: &data)
            do {
                let replayed = try chunk.update.apply(to: before, target: data)
                #expect(replayed == data, "\(context()): chunk \(chunk.update) does not describe its data")
            } catch {
                Issue.record("\(context()): invalid chunk \(chunk.update): \(error)")
                return
            }
            let sectionChanges = chunk.update.sectionDeletes.count + chunk.update.sectionInserts.count
                + chunk.update.sectionMoves.count + chunk.update.sectionReloads.count
            if sectionChanges == 0 && chunk.update.moves.isEmpty {
                #expect(chunk.changeCount <= maxChanges, "\(context())")
                #expect(chunk.sections == nil)
            }
            #expect(chunk.changeCount > 0, "\(context()): an empty chunk")
        }
        #expect(data == new, "\(context()): the chunks do not produce the new snapshot")
    }

    @Test(arguments: [
        (cases: 6_000, sectionPool: 6, itemPool: 12, maxSections: 4, maxItems: 6),
        (cases: 2_000, sectionPool: 30, itemPool: 400, maxSections: 8, maxItems: 30),
        (cases: 2_000, sectionPool: 1, itemPool: 60, maxSections: 1, maxItems: 40),
    ])
    func everyChunkIsValidAndTheChunksProduceTheNewSnapshot(
        cases: Int, sectionPool: Int, itemPool: Int, maxSections: Int, maxItems: Int
    ) {
        let seed = randomizedTestSeed()
        print("ListDiff chunking: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var generator = SnapshotGenerator(random: SeededGenerator(seed: seed), sectionPool: sectionPool, itemPool: itemPool)
        for index in 0..<cases {
            let old = generator.snapshot(maxSections: maxSections, maxItems: maxItems)
            let new = generator.edit(old, maxItems: maxItems)
            let maxChanges = generator.int(1...12)
            check(old, new, maxChanges: maxChanges, "seed \(seed), case \(index), chunks of \(maxChanges)")
        }
    }

    @Test func aRefreshOfFiveHundredPostsArrivesTenAtATimeFromTheTop() {
        let old = (0..<300).map { Item(id: "old\($0)", content: 0) }
        var new = (0..<500).map { Item(id: "new\($0)", content: 0) } + old
        new.remove(at: 600)
        new[700].content = 1
        let chunks = StagedChanges(from: old, to: new).chunked(maxChanges: 10)
        #expect(chunks.count == 1 + 50 + 1)
        #expect(chunks[0].update.deletes == [ListIndexPath(item: 100, section: 0)])
        #expect(chunks[1].update.inserts == (0..<10).map { ListIndexPath(item: $0, section: 0) })
        #expect(chunks[2].update.inserts == (10..<20).map { ListIndexPath(item: $0, section: 0) })
        #expect(chunks.last?.update.reloads == [ListIndexPath(item: 700, section: 0)])
        #expect(chunks.last?.reloadedItems == [new[700]])
    }
}
