@testable import ContentLoading
import Testing

@Suite struct MemoryCacheTests {
    @Test func evictsTheLeastRecentlyUsedEntryFirst() {
        let cache = MemoryCache<String, Int>(limits: .init(totalCost: 100, count: 3))
        cache.insert(1, for: "a", cost: 1)
        cache.insert(2, for: "b", cost: 1)
        cache.insert(3, for: "c", cost: 1)
        #expect(cache.value(for: "a") == 1)
        cache.insert(4, for: "d", cost: 1)
        #expect(cache.value(for: "b") == nil)
        // From least to most recently used: c, a, d. Each lower limit evicts the next; a
        // lookup that misses touches nothing.
        cache.limits = .init(totalCost: 100, count: 2)
        #expect(cache.value(for: "c") == nil)
        cache.limits = .init(totalCost: 100, count: 1)
        #expect(cache.value(for: "a") == nil)
        #expect(cache.value(for: "d") == 4)
    }

    @Test func staysWithinItsTotalCost() {
        let cache = MemoryCache<String, Int>(limits: .init(totalCost: 10, count: 100, maxEntryCost: 10))
        cache.insert(1, for: "a", cost: 4)
        cache.insert(2, for: "b", cost: 4)
        cache.insert(3, for: "c", cost: 4)
        #expect(cache.value(for: "a") == nil, "the oldest made room")
        #expect(cache.count == 2 && cache.totalCost == 8)
        cache.insert(4, for: "d", cost: 10)
        #expect(cache.count == 1 && cache.totalCost == 10)
        #expect(cache.value(for: "d") == 4)
    }

    @Test func refusesAnEntryCostlierThanTheCap() {
        let cache = MemoryCache<String, Int>(limits: .init(totalCost: 100, count: 10, maxEntryCost: 20))
        cache.insert(1, for: "small", cost: 20)
        cache.insert(2, for: "huge", cost: 21)
        #expect(cache.value(for: "huge") == nil)
        #expect(cache.value(for: "small") == 1)
    }

    @Test func replacingAnEntryUpdatesItsCost() {
        let cache = MemoryCache<String, Int>(limits: .init(totalCost: 10, count: 10, maxEntryCost: 10))
        cache.insert(1, for: "a", cost: 6)
        cache.insert(2, for: "a", cost: 3)
        #expect(cache.totalCost == 3)
        #expect(cache.count == 1)
        #expect(cache.value(for: "a") == 2)
    }

    @Test func trimsRemovesAndLowersLimits() {
        let cache = MemoryCache<Int, Int>(limits: .init(totalCost: 100, count: 100))
        for key in 0..<10 { cache.insert(key, for: key, cost: 5) }
        cache.trim(toCost: 20, count: 100)
        // The four newest stay.
        #expect(cache.count == 4 && cache.totalCost == 20)
        #expect((0...5).allSatisfy { cache.value(for: $0) == nil })
        cache.removeValue(for: 8)
        #expect(cache.count == 3 && cache.value(for: 8) == nil)
        cache.limits = .init(totalCost: 100, count: 1)
        #expect(cache.count == 1 && cache.value(for: 9) == 9, "the newest stays")
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
        cache.insert(1, for: 1, cost: 1)
        #expect(cache.value(for: 1) == 1)
    }

    @Test func isSafeFromManyThreads() async {
        let cache = MemoryCache<Int, Int>(limits: .init(totalCost: 500, count: 200))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<2_000 {
                        let key = (worker * 31 + step) % 300
                        if cache.value(for: key) == nil { cache.insert(key, for: key, cost: 1 + key % 5) }
                    }
                }
            }
        }
        #expect(cache.count <= 200)
        #expect(cache.totalCost <= 500)
        // Every entry held is whole: its value is its key, and the count is what is held.
        let held = (0..<300).filter { cache.value(for: $0) != nil }
        #expect(held.count == cache.count)
        for key in held { #expect(cache.value(for: key) == key) }
    }
}
