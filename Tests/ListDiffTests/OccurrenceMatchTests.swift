@testable import ListDiff
import SeededRandom
import Testing

/// The pairing of identities, against a plain reading of its rule: each old element, in
/// order, pairs with the first new element of its identity not paired yet.
@Suite struct OccurrenceMatchTests {
    static func reference(old: [Int], new: [Int]) -> [Int] {
        var taken = [Bool](repeating: false, count: new.count)
        return old.map { id in
            guard let index = new.indices.first(where: { !taken[$0] && new[$0] == id }) else { return -1 }
            taken[index] = true
            return index
        }
    }

    static func match(old: [Int], new: [Int]) -> OccurrenceMatch<Int> {
        var match = OccurrenceMatch<Int>(newIDs: ContiguousArray(new), oldCount: old.count)
        for id in old { match.claim(id) }
        return match
    }

    @Test func aListThatKeepsItsOrderPairsInOrderAndTheRestByIdentity() {
        // Kept in order (paired without a lookup), one deleted, one inserted, one moved up.
        let old = [1, 2, 3, 4, 5, 6]
        let new = [6, 1, 2, 9, 4, 5]
        let match = Self.match(old: old, new: new)
        #expect(match.oldToNew == [1, 2, -1, 4, 5, 0])
        #expect(match.newToOld == [5, 0, 1, -1, 3, 4])
    }

    @Test func duplicatesPairByOccurrenceWhicheverWayTheyAreFound() {
        // The third 7 of the old list follows the second pair in order, but it is the third
        // occurrence: it pairs with the third 7 of the new list, not the one that follows.
        let old = [7, 7, 1, 7]
        let new = [7, 1, 7, 7, 7]
        #expect(Self.match(old: old, new: new).oldToNew == Self.reference(old: old, new: new))
    }

    @Test func randomListsPairAsTheRuleSays() {
        let seed = randomizedTestSeed()
        print("OccurrenceMatch: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for round in 0..<2_000 {
            // Small pools make duplicates common; edits of one list keep runs in order.
            let pool = Int.random(in: 1...12, using: &random)
            let old = (0..<Int.random(in: 0...30, using: &random)).map { _ in Int.random(in: 0..<pool, using: &random) }
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                switch Int.random(in: 0...3, using: &random) {
                case 0 where !new.isEmpty: new.remove(at: Int.random(in: new.indices, using: &random))
                case 1: new.insert(Int.random(in: 0..<pool, using: &random), at: Int.random(in: 0...new.count, using: &random))
                case 2 where !new.isEmpty:
                    let moved = new.remove(at: Int.random(in: new.indices, using: &random))
                    new.insert(moved, at: Int.random(in: 0...new.count, using: &random))
                default: new.shuffle(using: &random)
                }
            }
            let match = Self.match(old: old, new: new)
            let expected = Self.reference(old: old, new: new)
            #expect(match.oldToNew == expected, "round \(round): \(old) → \(new)")
            var inverse = [Int](repeating: -1, count: new.count)
            for (index, partner) in expected.enumerated() where partner >= 0 { inverse[partner] = index }
            #expect(match.newToOld == inverse, "round \(round)")
        }
    }

    /// Identities of sixteen bytes whose equality is their bits, as a UUID's.
    struct Wide: BitwiseIdentity {
        var low: UInt64
        var high: UInt64
    }

    /// An identity hashed through `Hasher`.
    struct Boxed: Hashable {
        var value: Int
    }

    /// A conforming identity of a size the mixer does not take.
    struct Narrow: BitwiseIdentity {
        var value: UInt32
    }

    @Test func bitwiseIdentitiesOfEightAndSixteenBytesAreHashedFromTheirBitsAndOthersByHasher() {
        #expect(IdentityHasher<Int>().isBitwise)
        #expect(IdentityHasher<Int64>().isBitwise)
        #expect(IdentityHasher<Wide>().isBitwise)
        #expect(!IdentityHasher<Boxed>().isBitwise)
        #expect(!IdentityHasher<Narrow>().isBitwise)
        #expect(!IdentityHasher<String>().isBitwise)
        // Equal values hash alike; values that differ in one bit of either half do not, here.
        let hasher = IdentityHasher<Wide>()
        #expect(hasher.hash(Wide(low: 7, high: 9)) == hasher.hash(Wide(low: 7, high: 9)))
        #expect(hasher.hash(Wide(low: 7, high: 9)) != hasher.hash(Wide(low: 7, high: 8)))
        #expect(hasher.hash(Wide(low: 7, high: 9)) != hasher.hash(Wide(low: 6, high: 9)))
    }

    @Test func everyKindOfIdentityPairsAsTheRuleSays() {
        let seed = randomizedTestSeed()
        print("OccurrenceMatch kinds: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        func match<ID: Hashable>(_ old: [ID], _ new: [ID]) -> [Int] {
            var match = OccurrenceMatch<ID>(newIDs: ContiguousArray(new), oldCount: old.count)
            for id in old { match.claim(id) }
            return match.oldToNew
        }
        for round in 0..<500 {
            // Enough elements that the table has collisions and probes.
            let pool = Int.random(in: 1...400, using: &random)
            let old = (0..<Int.random(in: 0...300, using: &random)).map { _ in Int.random(in: 0..<pool, using: &random) }
            var new = old
            new.shuffle(using: &random)
            new.removeLast(min(new.count, Int.random(in: 0...20, using: &random)))
            new += (0..<Int.random(in: 0...20, using: &random)).map { _ in Int.random(in: 0..<pool, using: &random) }
            let expected = Self.reference(old: old, new: new)
            #expect(match(old, new) == expected, "round \(round)")
            #expect(match(old.map(Boxed.init), new.map(Boxed.init)) == expected, "round \(round)")
            let wide = { (value: Int) in Wide(low: UInt64(value) & 0xF, high: UInt64(value) >> 4) }
            #expect(match(old.map(wide), new.map(wide)) == expected, "round \(round)")
        }
    }
}
