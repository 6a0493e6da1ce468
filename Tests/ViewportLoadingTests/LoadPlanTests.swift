import ContentLoading
import ListViewport
import Testing
@testable import ViewportLoading

/// `LoadPlan`: a frame's rows to load, followed by item from frame to frame.
@Suite struct LoadPlanTests {
    struct Picture: ContentRequest {
        let item: Int
        var dataKey: Int { item }
    }

    @Test func aPlanStartsChangesAndStopsByIdentityMostUrgentLast() {
        var plan = LoadPlan<Int>()
        // 1,000 rows of height 2 in a viewport of 20 (ten rows), from row 500.
        let geometry = RowGeometry(heights: Array(repeating: 2, count: 1_000))
        var scroll = ScrollModel()
        scroll.setSizes(content: geometry.totalHeight, viewport: 20)
        scroll.scroll(to: 1_000, animated: false, at: .zero)
        let ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        let first = plan.update(ranges) { $0 }
        #expect(first.start.count == ranges.preload.count && first.stop.isEmpty && first.reprioritize.isEmpty)
        #expect(first.start.last?.priority == .visible, "a newest-first queue starts the screen first")
        #expect(first.start.first?.priority == .prefetch)

        // Two rows inserted above: the same items, two rows lower; nothing changes.
        let moved = plan.update(ViewportRanges.compute(geometry: RowGeometry(heights: Array(repeating: 2, count: 1_002)),
                                                      scroll: { var shifted = scroll; shifted.setSizes(content: 2_004, viewport: 20); shifted.shift(by: 4); return shifted }(),
                                                      direction: .down, at: .zero)) { $0 - 2 }
        #expect(moved.start.isEmpty && moved.stop.isEmpty && moved.reprioritize.isEmpty)

        // Half a screen further: rows behind leave, rows ahead start, rows move between ranges.
        var further = scroll
        further.scroll(to: 1_010, animated: false, at: .zero)
        let next = plan.update(ViewportRanges.compute(geometry: geometry, scroll: further, direction: .down, at: .zero)) { $0 }
        #expect(next.stop == [485, 486, 487, 488, 489])
        #expect(Set(next.start.map(\.id)) == Set(535..<540))
        #expect(next.reprioritize.contains { $0.id == 510 && $0.priority == .visible })
    }

    @Test func eachTierLoadsAtThePriorityOfItsName() {
        #expect(LoadTier.allCases.map(LoadPriority.init) == [.prefetch, .display, .visible])
    }

    @Test func changesBecomePrefetchesOfTheItemsThatHaveARequest() {
        var changes = LoadPlan<Int>.Changes()
        changes.stop = [1, 2]
        changes.reprioritize = [(3, .visible), (4, .display)]
        changes.start = [(5, .prefetch), (6, .visible)]
        let prefetches = changes.prefetches { $0.isMultiple(of: 2) ? Picture(item: $0) : nil }
        #expect(prefetches.stop == [Picture(item: 2)])
        #expect(prefetches.reprioritize.map(\.request) == [Picture(item: 4)] && prefetches.reprioritize.map(\.priority) == [.display])
        #expect(prefetches.start.map(\.request) == [Picture(item: 6)] && prefetches.start.map(\.priority) == [.visible])
    }
}
