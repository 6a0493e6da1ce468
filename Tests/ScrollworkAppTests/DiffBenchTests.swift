import CAllocationCount
import ListDiff
@testable import ScrollworkBench
import Testing

@Suite struct DiffBenchTests {
    @Test func postsFiveHundredIsARefreshOfFiftyNewPostsOnTop() throws {
        let workload = try #require(DiffWorkload.all.first { $0.name == "posts-500" })
        let data = workload.make()
        let (old, new) = (data.old[0].items, data.new[0].items)
        #expect(old.count == 500 && new.count == 500)
        #expect(Set(new.prefix(50).map(\.id)).isDisjoint(with: old.map(\.id)), "50 new posts on top")
        #expect(new.dropFirst(50).map(\.id) == old.prefix(450).map(\.id), "then the rest in order, the 50 oldest gone")
        #expect(zip(new.dropFirst(50), old).filter { $0.content != $1.content }.count == 10, "10 edited")
        let update = try #require(StagedChanges(from: data.old, to: data.new).first?.update)
        #expect((update.inserts.count, update.deletes.count, update.reloads.count, update.moves.count) == (50, 50, 10, 0))
    }

    @Test func everyWorkloadIsTheSameEachTime() {
        for workload in DiffWorkload.all where workload.sections * workload.itemsPerSection <= 100_000 {
            let (first, second) = (workload.make(), workload.make())
            #expect(first.old == second.old && first.new == second.new, "\(workload.name)")
        }
    }

    @Test func anAllocationCountCountsAllocationsOrSaysItCannot() {
        scrollwork_allocations_count_begin()
        let arrays = (0..<10).map { [Int](repeating: $0, count: 1_000 + $0) }
        let count = scrollwork_allocations_count_end()
        withExtendedLifetime(arrays) {}
        // -1 under a sanitizer, which owns malloc; else at least the ten arrays.
        #expect(count == -1 || count >= 10, "\(count)")
    }
}
