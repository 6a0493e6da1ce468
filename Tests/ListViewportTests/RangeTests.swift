import ListViewport
import Testing

@Suite struct RangeTests {
    /// 1,000 rows of height 2 in a viewport of 20 (ten rows), at `offset`.
    private func setup(offset: Double) -> (RowGeometry, ScrollModel) {
        let geometry = RowGeometry(heights: Array(repeating: 2, count: 1_000))
        var scroll = ScrollModel()
        scroll.setSizes(content: geometry.totalHeight, viewport: 20)
        scroll.scroll(to: offset, animated: false, at: .zero)
        return (geometry, scroll)
    }

    @Test func buffersLeadInTheDirectionOfMotion() {
        let (geometry, scroll) = setup(offset: 1_000)
        let down = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        #expect(down.visible == 500..<510)
        #expect(down.display == 495..<520)  // half a screen behind, one ahead
        #expect(down.preload == 485..<535)  // 1.5 behind, 2.5 ahead
        let up = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .up, at: .zero)
        #expect(up.display == 490..<515)
        #expect(up.preload == 475..<525)
        #expect(down.landing.isEmpty && down.passing.isEmpty, "no landing at rest")
    }

    @Test func aFlingLoadsItsLandingInTimeAndSkipsRowsThatFlashBy() {
        var (geometry, scroll) = setup(offset: 0)
        scroll.startFling(velocity: 3_000, at: .zero)
        let stop = scroll.predictedStopTime!
        #expect(stop > .seconds(3))
        let atStart = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        #expect(atStart.isGliding)
        #expect(atStart.landing.isEmpty, "more than the lead before the stop: a touch may still cut the fling short")

        // From the lead before the stop, the landing loads.
        let due = stop - ViewportRanges.Configuration().landingLead
        scroll.tick(at: due)
        let ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: due)
        let landingRow = geometry.row(atOffset: scroll.predictedLanding)!
        #expect(ranges.landing.contains(landingRow))
        #expect((20...21).contains(ranges.landing.count), "the landing screen plus half a screen each side")
        // Rows still flying past, those on screen now included, are not worth a request.
        #expect(Set(ranges.passing).isDisjoint(with: ranges.visible))
        // Rows close to the landing are passed slowly and are requested.
        #expect(ranges.passing.allSatisfy { $0 >= ranges.visible.lowerBound && $0 < ranges.landing.lowerBound })
        #expect(!ranges.passing.isEmpty)
        for row in ranges.passing {
            let leaves = scroll.predictedTime(reaching: geometry.offset(ofRow: row + 1))
            #expect(leaves == nil || leaves! >= due + .milliseconds(150), "row \(row) leaves at \(String(describing: leaves))")
        }
    }

    @Test func theTrackerFollowsItemsNotIndices() {
        var tracker = RangeTracker<String>()
        var items = (0..<100).map { "item\($0)" }
        let (geometry, scroll) = setup(offset: 100)
        var ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        let first = tracker.update(ranges) { items[$0] }
        #expect(first.visible.entered == (50..<60).map { "item\($0)" })
        #expect(first.visible.left.isEmpty)

        // Five rows inserted above; the list keeps its place by shifting the offset by their height.
        items.insert(contentsOf: (0..<5).map { "new\($0)" }, at: 0)
        var shifted = scroll
        shifted.setSizes(content: geometry.totalHeight + 10, viewport: 20)
        shifted.shift(by: 10)
        ranges = ViewportRanges.compute(geometry: RowGeometry(heights: Array(repeating: 2, count: 1_005)), scroll: shifted,
                                        direction: .down, at: .zero)
        let second = tracker.update(ranges) { items[$0] }
        #expect(second.visible.isEmpty, "the same items are visible: nothing entered or left")
        #expect(second.preload.isEmpty)
    }

    @Test func aSlowGlideKeepsTheRowsOnScreenThatItPassesSlowly() {
        var (geometry, scroll) = setup(offset: 0)
        // 200 units per second: the landing is 100 units (five rows) away, the glide stops
        // within the lead, and the rows on screen now stay there for hundreds of milliseconds.
        scroll.startFling(velocity: 200, at: .zero)
        #expect(scroll.predictedStopTime! < ViewportRanges.Configuration().landingLead)
        let ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        #expect(ranges.landing.lowerBound > ranges.visible.lowerBound)
        #expect(ranges.passing.contains(ranges.visible.lowerBound + 3), "a row on screen for 300 ms or more is requested")
        #expect(!ranges.passing.contains(ranges.visible.lowerBound), "the top row leaves within 150 ms")
    }

    @Test func priorities() {
        let (geometry, scroll) = setup(offset: 1_000)
        let rest = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        let atRest = Dictionary(uniqueKeysWithValues: rest.rowsToLoad.map { ($0.row, $0.priority) })
        #expect(atRest.count == rest.preload.count)
        #expect(rest.visible.allSatisfy { atRest[$0] == .visible })
        #expect(atRest[rest.display.upperBound - 1] == .display)
        #expect(atRest[rest.preload.upperBound - 1] == .prefetch)

        var gliding = scroll
        gliding.startFling(velocity: 200, at: .zero)
        let glide = ViewportRanges.compute(geometry: geometry, scroll: gliding, direction: .down, at: .zero)
        #expect(!glide.landing.isEmpty)
        let inGlide = Dictionary(uniqueKeysWithValues: glide.rowsToLoad.map { ($0.row, $0.priority) })
        #expect(glide.passing.allSatisfy { inGlide[$0] == .visible }, "rows on the way are needed first")
        #expect(glide.landing.allSatisfy { inGlide[$0] == .display })
        #expect(inGlide.count == glide.landing.count + glide.passing.count, "nothing else: the rest flashes by")
    }
}
