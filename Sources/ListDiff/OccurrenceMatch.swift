/// Pairs old elements with new ones by identity.
///
/// Duplicate identities are matched by occurrence: the k-th element with a given identity on
/// the old side pairs with the k-th element with that identity on the new side; surplus
/// occurrences stay unpaired.
///
/// Make one with every new identity in order (``init(newIDs:oldCount:)``), then give it every
/// old one to ``claim(_:)`` in order. Callers walk their own structure (sections of items),
/// which keeps the hot loops free of iterator and key-path overhead.
///
/// **Cost.** Hashing an identity (SipHash, through `Hasher`) is the largest cost of a diff,
/// and a hash table probe is a cache miss on a large list. A ``BitwiseIdentity`` (integers,
/// and UUIDs where a client declares them) is hashed from its bits by a seeded mixer instead. Each new identity is hashed once,
/// into an open-addressing table of its own that keeps a hash tag beside each index, so a
/// probe reads one slot and compares identities only when the tags agree. An old identity is
/// first compared with the new element that follows the previous pair, where it is in a list
/// that keeps its order (most of a refresh): when that element is the next unclaimed
/// occurrence of the identity, the two pair with no hashing and no probe, reading memory in
/// order. Only the others are hashed and looked up.
@usableFromInline
struct OccurrenceMatch<ID: Hashable> {
    /// For each old element claimed so far, the index of its partner on the new side, or -1.
    @usableFromInline var oldToNew: [Int] = []
    /// For each new element, the index of its partner on the old side, or -1.
    @usableFromInline var newToOld: [Int]

    /// The new identities, in order.
    @usableFromInline let newIDs: ContiguousArray<ID>
    /// For each new element, the next and the previous new element of the same identity, or
    /// -1: the chain of an identity's occurrences, claimed from its front.
    @usableFromInline var nextSame: [Int32]
    @usableFromInline var previousSame: [Int32]
    /// For the first occurrence of each identity, the last one (where the chain grows).
    @usableFromInline var lastSame: [Int32]
    /// Open addressing, linear probing: 0 for an empty slot, else the upper half of the
    /// identity's hash (a tag) and, in the lower half, one more than the index of an
    /// occurrence of it from which to look for the first unclaimed one.
    @usableFromInline var slots: [UInt64]
    @usableFromInline let mask: Int
    /// The new index paired with the last old element paired, or -1.
    @usableFromInline var lastPartner = -1
    /// How identities are hashed: their bits, for a ``BitwiseIdentity``.
    @usableFromInline let hasher = IdentityHasher<ID>()

    /// Prepares for the new identities `newIDs`, in order, and `oldCount` old elements: every
    /// new identity hashed into the table at once, in one loop over buffers.
    @inlinable
    init(newIDs: ContiguousArray<ID>, oldCount: Int) {
        let newCount = newIDs.count
        precondition(newCount < Int(Int32.max), "more than 2^31 elements")
        var capacity = 8
        while capacity < 2 * newCount { capacity <<= 1 }
        self.newIDs = newIDs
        mask = capacity - 1
        newToOld = [Int](repeating: -1, count: newCount)
        oldToNew.reserveCapacity(oldCount)
        var slots = [UInt64](repeating: 0, count: capacity)
        var nextSame = [Int32](repeating: -1, count: newCount)
        var previousSame = [Int32](repeating: -1, count: newCount)
        // Meaningful for first occurrences only, each set when its identity is first seen.
        var lastSame = [Int32](repeating: -1, count: newCount)
        let hasher = hasher
        let mask = mask
        newIDs.withUnsafeBufferPointer { ids in
            slots.withUnsafeMutableBufferPointer { slots in
                nextSame.withUnsafeMutableBufferPointer { nextSame in
                    previousSame.withUnsafeMutableBufferPointer { previousSame in
                        lastSame.withUnsafeMutableBufferPointer { lastSame in
                            for index in 0..<newCount {
                                let id = ids[index]
                                let hash = hasher.hash(id)
                                let tag = Self.tag(hash)
                                var position = hash & mask
                                while true {
                                    let slot = slots[position]
                                    if slot == 0 {
                                        slots[position] = tag | UInt64(index + 1)
                                        lastSame[index] = Int32(truncatingIfNeeded: index)
                                        break
                                    }
                                    if slot & Self.tagBits == tag {
                                        // Before any claim a slot holds the first occurrence of its identity.
                                        let first = Self.index(slot)
                                        if ids[first] == id {
                                            let last = Int(lastSame[first])
                                            nextSame[last] = Int32(truncatingIfNeeded: index)
                                            previousSame[index] = Int32(truncatingIfNeeded: last)
                                            lastSame[first] = Int32(truncatingIfNeeded: index)
                                            break
                                        }
                                    }
                                    position = (position + 1) & mask
                                }
                            }
                        }
                    }
                }
            }
        }
        self.slots = slots
        self.nextSame = nextSame
        self.previousSame = previousSame
        self.lastSame = lastSame
    }

    /// The upper half of a slot, where its tag is.
    @inlinable
    static var tagBits: UInt64 { 0xFFFF_FFFF_0000_0000 }

    @inlinable
    static func tag(_ hash: Int) -> UInt64 { UInt64(truncatingIfNeeded: hash) & tagBits }

    @inlinable
    static func index(_ slot: UInt64) -> Int { Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1 }

    /// Pairs the next element of the old side with the first unclaimed new element of the same
    /// identity, if there is one.
    @inlinable
    mutating func claim(_ id: ID) {
        let index = oldToNew.count
        // The new element after the last pair, if it is the next unclaimed occurrence of `id`:
        // unclaimed, and the occurrence before it, if any, claimed (they are claimed in order).
        let predicted = lastPartner + 1
        if predicted < newIDs.count, newToOld[predicted] < 0, newIDs[predicted] == id {
            let previous = Int(previousSame[predicted])
            if previous < 0 || newToOld[previous] >= 0 {
                pair(old: index, new: predicted)
                return
            }
        }
        let hash = hasher.hash(id)
        let tag = Self.tag(hash)
        var position = hash & mask
        while true {
            let slot = slots[position]
            if slot == 0 { break }
            if slot & Self.tagBits == tag {
                var occurrence = Self.index(slot)
                if newIDs[occurrence] == id {
                    // Past the occurrences claimed already, by this walk or by predictions.
                    while newToOld[occurrence] >= 0, nextSame[occurrence] >= 0 { occurrence = Int(nextSame[occurrence]) }
                    slots[position] = tag | UInt64(occurrence + 1)
                    if newToOld[occurrence] < 0 {
                        pair(old: index, new: occurrence)
                        return
                    }
                    break
                }
            }
            position = (position + 1) & mask
        }
        oldToNew.append(-1)
    }

    @inlinable
    mutating func pair(old: Int, new: Int) {
        oldToNew.append(new)
        newToOld[new] = old
        lastPartner = new
    }

    /// Forgets the pairing of old element `old`, if it has one.
    @inlinable
    mutating func unpair(old: Int) {
        let new = oldToNew[old]
        guard new >= 0 else { return }
        oldToNew[old] = -1
        newToOld[new] = -1
    }
}
