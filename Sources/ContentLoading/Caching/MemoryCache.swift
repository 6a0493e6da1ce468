/// A cache of values in memory, readable and writable from any thread.
public protocol ContentCaching<Key, Value>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Value: Sendable

    /// The value for `key`, if cached; a hit counts as a use for eviction.
    func value(for key: Key) -> Value?
    /// Stores `value` for `key`, with the cost it counts against the cache's limits.
    func insert(_ value: Value, for key: Key, cost: Int)
    /// Removes the value for `key`, if any.
    func removeValue(for key: Key)
    /// Removes every value.
    func removeAll()
}

/// A strict least-recently-used cache bounded by total cost and by count.
///
/// Unlike `NSCache`, which treats its limits as hints and evicts when it likes, this cache
/// evicts exactly the least recently used entries, exactly when an insert takes it past a
/// limit, so what stays cached is predictable and testable. An entry costlier than
/// ``Limits/maxEntryCost`` is not cached at all: one huge image must not flush every
/// thumbnail on screen.
///
/// All operations take a lock and run in O(1) (expected; evictions cost O(1) each).
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: ContentCaching, @unchecked Sendable {
    /// How much the cache holds.
    public struct Limits: Sendable {
        /// The most total cost the cache holds.
        public var totalCost: Int
        /// The most entries the cache holds.
        public var count: Int
        /// The most one entry may cost to be cached.
        public var maxEntryCost: Int

        /// Creates limits; by default 64 MiB of cost (bytes, for decoded images), 1,000
        /// entries, and an eighth of the total for one entry.
        public init(totalCost: Int = 64 << 20, count: Int = 1_000, maxEntryCost: Int? = nil) {
            precondition(totalCost >= 0 && count >= 0, "limits must not be negative")
            self.totalCost = totalCost
            self.count = count
            self.maxEntryCost = maxEntryCost ?? totalCost / 8
        }
    }

    @usableFromInline
    struct Node {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var newer: Int
        @usableFromInline var older: Int

        @inlinable
        init(key: Key, value: Value, cost: Int, newer: Int, older: Int) {
            (self.key, self.value, self.cost, self.newer, self.older) = (key, value, cost, newer, older)
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var limits: Limits
        @usableFromInline var index: [Key: Int] = [:]
        @usableFromInline var nodes: [Node?] = []
        @usableFromInline var free: [Int] = []
        @usableFromInline var newest = -1
        @usableFromInline var oldest = -1
        @usableFromInline var totalCost = 0

        @inlinable
        init(limits: Limits) { self.limits = limits }
    }

    @usableFromInline let state: Locked<State>

    /// Creates an empty cache with `limits`.
    public init(limits: Limits = Limits()) {
        state = Locked(State(limits: limits))
    }

    /// The limits; lowering them evicts at once.
    public var limits: Limits {
        get { state.withLock { $0.limits } }
        set {
            state.withLock { state in
                state.limits = newValue
                Self.evict(&state, toCost: newValue.totalCost, count: newValue.count)
            }
        }
    }

    /// The number of entries.
    public var count: Int { state.withLock { $0.index.count } }

    /// The total cost of the entries.
    public var totalCost: Int { state.withLock { $0.totalCost } }

    @inlinable
    public func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            Self.unlink(&state, slot)
            Self.linkNewest(&state, slot)
            return state.nodes[slot]!.value
        }
    }

    @inlinable
    public func insert(_ value: Value, for key: Key, cost: Int) {
        state.withLock { state in
            if let slot = state.index.removeValue(forKey: key) { Self.release(&state, slot) }
            guard cost <= state.limits.maxEntryCost, cost <= state.limits.totalCost, state.limits.count > 0 else { return }
            Self.evict(&state, toCost: state.limits.totalCost - cost, count: state.limits.count - 1)
            let node = Node(key: key, value: value, cost: cost, newer: -1, older: -1)
            let slot: Int
            if let reused = state.free.popLast() {
                slot = reused
                state.nodes[slot] = node
            } else {
                slot = state.nodes.count
                state.nodes.append(node)
            }
            state.index[key] = slot
            state.totalCost += cost
            Self.linkNewest(&state, slot)
        }
    }

    public func removeValue(for key: Key) {
        state.withLock { state in
            if let slot = state.index.removeValue(forKey: key) { Self.release(&state, slot) }
        }
    }

    public func removeAll() {
        state.withLock { state in
            state = State(limits: state.limits)
        }
    }

    /// Evicts least recently used entries until the cache holds at most `cost` and `count`.
    public func trim(toCost cost: Int, count: Int) {
        state.withLock { Self.evict(&$0, toCost: cost, count: count) }
    }

    @inlinable
    static func evict(_ state: inout State, toCost cost: Int, count: Int) {
        while state.oldest >= 0, state.totalCost > cost || state.index.count > count {
            let slot = state.oldest
            state.index[state.nodes[slot]!.key] = nil
            release(&state, slot)
        }
    }

    /// Unlinks and frees a slot whose key is already out of the index.
    @inlinable
    static func release(_ state: inout State, _ slot: Int) {
        unlink(&state, slot)
        state.totalCost -= state.nodes[slot]!.cost
        state.nodes[slot] = nil
        state.free.append(slot)
    }

    @inlinable
    static func unlink(_ state: inout State, _ slot: Int) {
        let node = state.nodes[slot]!
        if node.newer >= 0 { state.nodes[node.newer]!.older = node.older } else { state.newest = node.older }
        if node.older >= 0 { state.nodes[node.older]!.newer = node.newer } else { state.oldest = node.newer }
    }

    @inlinable
    static func linkNewest(_ state: inout State, _ slot: Int) {
        state.nodes[slot]!.newer = -1
        state.nodes[slot]!.older = state.newest
        if state.newest >= 0 { state.nodes[state.newest]!.newer = slot }
        state.newest = slot
        if state.oldest < 0 { state.oldest = slot }
    }
}
