/// Pairs the elements of two sequences by identity, in one pass over each.
///
/// Duplicate identities are matched by occurrence: the k-th element with a given identity in
/// the old sequence pairs with the k-th element with that identity in the new one; surplus
/// occurrences stay unpaired. Each side hashes every identity once.
struct OccurrenceMatch {
    /// For each old element, the index of its partner in the new sequence, or -1.
    var oldToNew: [Int]
    /// For each new element, the index of its partner in the old sequence, or -1.
    var newToOld: [Int]

    /// - Complexity: O(n + m) expected, for n old and m new elements.
    init<Old: Sequence, New: Sequence>(
        old: Old, oldCount: Int, new: New, newCount: Int
    ) where Old.Element == New.Element, Old.Element: Hashable {
        // One table entry per distinct identity of the new side: the chain of its new indices,
        // consumed from the front as old occurrences claim them.
        var entries = [New.Element: Int](minimumCapacity: newCount)
        var nextUnclaimed: [Int] = []
        var last: [Int] = []
        var nextSameIdentity = [Int](repeating: -1, count: newCount)
        nextUnclaimed.reserveCapacity(newCount)
        last.reserveCapacity(newCount)
        var index = 0
        for id in new {
            let fresh = nextUnclaimed.count
            let entry = Self.entry(&entries[id, default: fresh])
            if entry == fresh {
                nextUnclaimed.append(index)
                last.append(index)
            } else {
                nextSameIdentity[last[entry]] = index
                last[entry] = index
            }
            index += 1
        }
        precondition(index == newCount, "newCount must be the length of the new sequence")

        var oldToNew = [Int](repeating: -1, count: oldCount)
        var newToOld = [Int](repeating: -1, count: newCount)
        index = 0
        for id in old {
            if let entry = entries[id] {
                let partner = nextUnclaimed[entry]
                if partner >= 0 {
                    oldToNew[index] = partner
                    newToOld[partner] = index
                    nextUnclaimed[entry] = nextSameIdentity[partner]
                }
            }
            index += 1
        }
        precondition(index == oldCount, "oldCount must be the length of the old sequence")
        self.oldToNew = oldToNew
        self.newToOld = newToOld
    }

    /// Reads a table value through `inout`, so that looking up a missing key inserts its
    /// default in the same hash operation.
    private static func entry(_ value: inout Int) -> Int { value }

    /// Forgets the pairing of old element `old`, if it has one.
    mutating func unpair(old: Int) {
        let new = oldToNew[old]
        guard new >= 0 else { return }
        oldToNew[old] = -1
        newToOld[new] = -1
    }
}
