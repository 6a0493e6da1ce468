import ListDiff
import SeededRandom
import Testing

/// Random snapshots and random edits of them: sections and items inserted, deleted, moved
/// (also across sections), content changed, duplicate identities, empty lists.
struct SnapshotGenerator {
    var random: SeededGenerator
    /// Identities come from small pools, so duplicates and re-used identities are common.
    let sectionPool: Int
    let itemPool: Int

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func item() -> Item { Item(id: "i\(int(0...itemPool - 1))", content: chance(80) ? 0 : int(1...2)) }
    mutating func header() -> Header { Header(id: "S\(int(0...sectionPool - 1))", title: chance(80) ? 0 : int(1...2)) }

    mutating func snapshot(maxSections: Int, maxItems: Int) -> [Section] {
        (0..<int(0...maxSections)).map { _ in
            Section(model: header(), items: (0..<int(0...maxItems)).map { _ in item() })
        }
    }

    /// A random edit of `old`, or, now and then, an unrelated snapshot.
    mutating func edit(_ old: [Section], maxItems: Int) -> [Section] {
        if chance(5) { return snapshot(maxSections: old.count + 1, maxItems: maxItems) }
        var new = old
        for _ in 0..<int(0...6) {
            switch int(0...9) {
            case 0 where !new.isEmpty: new.remove(at: int(0...new.count - 1))
            case 1: new.insert(Section(model: header(), items: (0..<int(0...3)).map { _ in item() }), at: int(0...new.count))
            case 2 where new.count > 1: new.insert(new.remove(at: int(0...new.count - 1)), at: int(0...new.count - 1))
            case 3 where !new.isEmpty: new[int(0...new.count - 1)].model.title = int(0...2)
            case 4 where !new.isEmpty:
                let s = int(0...new.count - 1)
                if !new[s].items.isEmpty { new[s].items.remove(at: int(0...new[s].items.count - 1)) }
            case 5 where !new.isEmpty:
                let s = int(0...new.count - 1)
                new[s].items.insert(item(), at: int(0...new[s].items.count))
            case 6 where !new.isEmpty, 7 where !new.isEmpty:
                let from = int(0...new.count - 1), to = int(0...new.count - 1)
                guard !new[from].items.isEmpty else { break }
                let moved = new[from].items.remove(at: int(0...new[from].items.count - 1))
                new[to].items.insert(moved, at: int(0...new[to].items.count))
            case 8 where !new.isEmpty:
                let s = int(0...new.count - 1)
                guard !new[s].items.isEmpty else { break }
                new[s].items[int(0...new[s].items.count - 1)].content = int(0...2)
            case 9 where !new.isEmpty:
                let s = int(0...new.count - 1)
                new[s].items.shuffle(using: &random)
            default: break
            }
        }
        return new
    }
}

@Suite struct RandomizedTests {
    @Test(arguments: [
        (cases: 20_000, sectionPool: 6, itemPool: 12, maxSections: 4, maxItems: 6),
        (cases: 8_000, sectionPool: 30, itemPool: 400, maxSections: 8, maxItems: 30),
        (cases: 4_000, sectionPool: 3, itemPool: 3, maxSections: 3, maxItems: 8),
    ])
    func everyStageIsValidAndTheStagesProduceTheNewSnapshot(
        cases: Int, sectionPool: Int, itemPool: Int, maxSections: Int, maxItems: Int
    ) {
        let seed = randomizedTestSeed()
        print("ListDiff randomized diff: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var generator = SnapshotGenerator(random: SeededGenerator(seed: seed), sectionPool: sectionPool, itemPool: itemPool)
        var failures = 0
        for index in 0..<cases where failures < 3 {
            let old = generator.snapshot(maxSections: maxSections, maxItems: maxItems)
            let new = generator.edit(old, maxItems: maxItems)
            let changes = Changes(from: old, to: new)
            if let problem = Self.problem(changes, from: old, to: new) {
                failures += 1
                Issue.record("seed \(seed), case \(index): \(problem)\nold: \(old)\nnew: \(new)")
            }
        }
    }

    /// What breaks the contract, or nil: each stage non-empty and valid, producing its data;
    /// at most two stages; the stages end at `new`.
    static func problem(_ changes: Changes, from old: [Section], to new: [Section]) -> String? {
        if changes.count > 2 { return "\(changes.count) stages" }
        if old == new && !changes.isEmpty { return "stages for an unchanged snapshot" }
        var data = old
        for (index, stage) in changes.enumerated() {
            if stage.update.isEmpty { return "stage \(index) is empty" }
            do {
                try stage.update.validate(oldCounts: data.map(\.items.count), newCounts: stage.data.map(\.items.count))
                let applied = try stage.apply(to: data)
                if applied != stage.data { return "stage \(index) does not produce its data: \(stage.update)" }
            } catch {
                return "stage \(index) is invalid: \(error): \(stage.update)"
            }
            data = stage.data
        }
        return data == new ? nil : "the stages end at \(data)"
    }

    @Test func aValidatedBatchAlwaysApplies() {
        // Corrupt valid batches at random: whatever the validator accepts must apply without
        // trapping, and whatever it rejects must be rejected with a reason, never a crash.
        let seed = randomizedTestSeed()
        print("ListDiff validator fuzz: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var generator = SnapshotGenerator(random: SeededGenerator(seed: seed), sectionPool: 6, itemPool: 10)
        var rejected = 0
        for _ in 0..<10_000 {
            let old = generator.snapshot(maxSections: 4, maxItems: 6)
            let new = generator.edit(old, maxItems: 6)
            guard let stage = Changes(from: old, to: new).first else { continue }
            var update = stage.update
            Self.corrupt(&update, using: &generator)
            do {
                _ = try update.apply(to: old, target: stage.data)
            } catch {
                rejected += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(rejected > 0, "the corruptions never produced an invalid batch: seed \(seed)")
    }

    private static func corrupt(_ update: inout BatchUpdate, using generator: inout SnapshotGenerator) {
        let nudge = generator.int(-1...1)
        func shift(_ path: ListIndexPath) -> ListIndexPath {
            generator.chance(50) ? ListIndexPath(item: path.item + nudge, section: path.section)
                : ListIndexPath(item: path.item, section: path.section + nudge)
        }
        switch generator.int(0...7) {
        case 0: if !update.deletes.isEmpty { update.deletes.removeLast() }
        case 1: if let last = update.inserts.last { update.inserts.append(shift(last)) }
        case 2: if let move = update.moves.first { update.moves[0] = .init(from: shift(move.from), to: move.to) }
        case 3: if let move = update.moves.first { update.moves[0] = .init(from: move.from, to: shift(move.to)) }
        case 4: if let reload = update.reloads.first { update.reloads.append(shift(reload)) }
        case 5: if let section = update.sectionDeletes.first { update.sectionDeletes.append(section + nudge) }
        case 6: update.sectionReloads.append(generator.int(-1...4))
        default: update.sectionMoves.append(.init(from: generator.int(0...4), to: generator.int(0...4)))
        }
    }
}
