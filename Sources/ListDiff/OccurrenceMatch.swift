/// Pairs old elements with new ones by identity, in one hash operation per element.
///
/// Duplicate identities are matched by occurrence: the k-th element with a given identity on
/// the old side pairs with the k-th element with that identity on the new side; surplus
/// occurrences stay unpaired.
///
/// Feed every new identity to ``addNew(_:)`` in order, then every old one to
/// ``claim(_:)`` in order. Callers walk their own structure (sections of items), which keeps
/// the hot loops free of iterator and key-path overhead.
@usableFromInline
struct OccurrenceMatch<ID: Hashable> {
    /// For each old element claimed so far, the index of its partner on the new side, or -1.
    @usableFromInline var oldToNew: [Int] = []
    /// For each new element, the index of its partner on the old side, or -1.
    @usableFromInline var newToOld: [Int] = []

    // One table entry per distinct new identity: the chain of its new indices, consumed from
    // the front as old occurrences claim them.
    @usableFromInline var entries: [ID: Int]
    @usableFromInline var nextUnclaimed: [Int] = []
    @usableFromInline var lastInChain: [Int] = []
    @usableFromInline var nextSameIdentity: [Int] = []

    /// Prepares for `newCount` new and `oldCount` old elements (capacity hints).
    @inlinable
    init(newCount: Int, oldCount: Int) {
        entries = Dictionary(minimumCapacity: newCount)
        newToOld.reserveCapacity(newCount)
        nextSameIdentity.reserveCapacity(newCount)
        nextUnclaimed.reserveCapacity(newCount)
        lastInChain.reserveCapacity(newCount)
        oldToNew.reserveCapacity(oldCount)
    }

    /// Records the next element of the new side.
    @inlinable
    mutating func addNew(_ id: ID) {
        let index = newToOld.count
        newToOld.append(-1)
        nextSameIdentity.append(-1)
        let fresh = nextUnclaimed.count
        let entry = Self.entry(&entries[id, default: fresh])
        if entry == fresh {
            nextUnclaimed.append(index)
            lastInChain.append(index)
        } else {
            nextSameIdentity[lastInChain[entry]] = index
            lastInChain[entry] = index
        }
    }

    /// Pairs the next element of the old side with the first unclaimed new element of the same
    /// identity, if there is one.
    @inlinable
    mutating func claim(_ id: ID) {
        let index = oldToNew.count
        guard let entry = entries[id], case let partner = nextUnclaimed[entry], partner >= 0 else {
            oldToNew.append(-1)
            return
        }
        oldToNew.append(partner)
        newToOld[partner] = index
        nextUnclaimed[entry] = nextSameIdentity[partner]
    }

    /// Reads a table value through `inout`, so that looking up a missing key inserts its
    /// default in the same hash operation.
    @inlinable
    static func entry(_ value: inout Int) -> Int { value }

    /// Forgets the pairing of old element `old`, if it has one.
    @inlinable
    mutating func unpair(old: Int) {
        let new = oldToNew[old]
        guard new >= 0 else { return }
        oldToNew[old] = -1
        newToOld[new] = -1
    }
}
