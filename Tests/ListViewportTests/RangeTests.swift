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
        let configuration = ViewportRanges.Configuration()
        let stop = scroll.predictedStopTime!
        #expect(stop > .seconds(3))
        let atStart = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        #expect(atStart.isGliding)
        #expect(atStart.landing.isEmpty && atStart.passing.isEmpty, "nothing is due yet: a touch may still cut the fling short")
        #expect(atStart.preload == atStart.visible, "rows ahead would flash by")
        // Views reach the rows the glide brings on screen within the display lead (at most a
        // screen): a touch may stop it on them.
        let ahead = min(20, scroll.velocity(at: .zero) * 0.3)
        #expect(atStart.display == geometry.rows(inOffset: 0, length: 20 + ahead))
        #expect(atStart.display.count == 20, "a screen ahead at 3,000 points a second")
        #expect(atStart.rowsToLoad.isEmpty)

        // From the lead before the stop, the landing loads.
        let due = stop - configuration.landingLead
        scroll.tick(at: due)
        let ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: due)
        let landingRow = geometry.row(atOffset: scroll.predictedLanding)!
        #expect(ranges.landing.contains(landingRow))
        #expect((landingRow + 10...landingRow + 11).contains(ranges.landing.upperBound), "the landing screen")
        #expect((15...16).contains(ranges.landing.count), "and half a screen on the side the glide comes from")
        // Rows on the way are requested only if they stay on screen long enough once loaded.
        for row in ranges.passing {
            let enters = scroll.predictedTime(reaching: geometry.offset(ofRow: row) - 20) ?? due
            let leaves = scroll.predictedTime(reaching: geometry.offset(ofRow: row + 1))
            #expect(leaves == nil || leaves! - max(enters, due + configuration.expectedLoadTime) >= configuration.minimumTimeOnScreen)
        }
    }

    /// A glide that slows fast reaches its rest before the display lead: the display range
    /// stops where it rests.
    @Test func theGlidesDisplayLeadStopsWhereItRests() {
        let geometry = RowGeometry(heights: Array(repeating: 2, count: 1_000))
        var scroll = ScrollModel(decelerationRate: .fast)
        scroll.setSizes(content: geometry.totalHeight, viewport: 20)
        scroll.startFling(velocity: 100, at: .zero)
        let ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        let resting = geometry.rows(inOffset: scroll.predictedLanding, length: 20)
        #expect(scroll.predictedLanding < 100 * 0.3, "it rests before the speed now would carry it in the lead")
        #expect(ranges.display.upperBound <= resting.upperBound)
        #expect(ranges.display.upperBound > ranges.visible.upperBound)
    }

    /// An animated scroll (a jump to the top) loads the screen it rests on, at once, and not
    /// the half screen before it, which its ease-out passes in an instant.
    @Test func anAnimatedScrollLoadsTheScreenItRestsOnOnly() {
        var (geometry, scroll) = setup(offset: 1_000)
        scroll.scroll(to: 0, animated: true, at: .zero)
        let ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .up, at: .zero)
        #expect(ranges.isGliding)
        #expect(ranges.landing == 0..<10)
        #expect(Set(ranges.rowsToLoad.map(\.row)) == Set(0..<10))
    }

    @Test func theTrackerFollowsItemsNotIndices() {
        var tracker = RangeTracker<String>()
        var items = (0..<100).map { "item\($0)" }
        let (geometry, scroll) = setup(offset: 100)
        var ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        let first = tracker.update(ranges) { items[$0] }
        #expect(first.display.entered == Array(ranges.display).map { "item\($0)" })
        #expect(first.display.left.isEmpty)

        // Five rows inserted above; the list keeps its place by shifting the offset by their height.
        items.insert(contentsOf: (0..<5).map { "new\($0)" }, at: 0)
        var shifted = scroll
        shifted.setSizes(content: geometry.totalHeight + 10, viewport: 20)
        shifted.shift(by: 10)
        ranges = ViewportRanges.compute(geometry: RowGeometry(heights: Array(repeating: 2, count: 1_005)), scroll: shifted,
                                        direction: .down, at: .zero)
        let second = tracker.update(ranges) { items[$0] }
        #expect(second.display.isEmpty, "the same items are displayed: nothing entered or left")
    }

    @Test func aShortGlideLoadsItsLandingAtOnceButNotRowsItLeavesBeforeItSlows() {
        var (geometry, scroll) = setup(offset: 0)
        // 200 units per second: the glide stops within the lead, 100 units (five rows) away,
        // and the rows on screen now are gone before it is slow enough to read them.
        scroll.startFling(velocity: 200, at: .zero)
        #expect(scroll.predictedStopTime! < ViewportRanges.Configuration().landingLead)
        let ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        #expect(ranges.landing.lowerBound == 44 && ranges.landing.upperBound == 60, "landing at 99.9, half a screen before it")
        #expect(ranges.passing.isEmpty)
        #expect(!ranges.rowsToLoad.contains { $0.row < 5 })
    }

    @Test func tiers() {
        let (geometry, scroll) = setup(offset: 1_000)
        let rest = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        let atRest = Dictionary(uniqueKeysWithValues: rest.rowsToLoad.map { ($0.row, $0.tier) })
        #expect(atRest.count == rest.preload.count)
        #expect(rest.visible.allSatisfy { atRest[$0] == .visible })
        #expect(atRest[rest.display.upperBound - 1] == .display)
        #expect(atRest[rest.preload.upperBound - 1] == .prefetch)

        var gliding = scroll
        gliding.startFling(velocity: 200, at: .zero)
        let glide = ViewportRanges.compute(geometry: geometry, scroll: gliding, direction: .down, at: .zero)
        #expect(!glide.landing.isEmpty)
        let inGlide = Dictionary(uniqueKeysWithValues: glide.rowsToLoad.map { ($0.row, $0.tier) })
        #expect(glide.passing.allSatisfy { inGlide[$0] == .visible }, "rows on the way are needed first")
        #expect(glide.landing.allSatisfy { inGlide[$0] == .display })
        #expect(inGlide.count == glide.landing.count + glide.passing.count, "nothing else: the rest flashes by")
    }

    @Test func aFingerThatStopsAGlideLoadsOnlyTheScreenUntilItMoves() {
        var (geometry, scroll) = setup(offset: 1_000)
        scroll.startFling(velocity: 3_000, at: .zero)
        scroll.tick(at: .milliseconds(100))
        scroll.drag(by: 0)
        #expect(scroll.isHoldingAfterGlide)
        var ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .milliseconds(100))
        #expect(!ranges.isGliding)
        #expect(ranges.display == ranges.visible && ranges.preload == ranges.visible)
        #expect(Set(ranges.rowsToLoad.map(\.row)) == Set(ranges.visible))

        scroll.drag(by: 1)
        #expect(!scroll.isHoldingAfterGlide)
        ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .milliseconds(120))
        #expect(ranges.preload.count > ranges.visible.count * 4, "moving again, the preload range is back")
    }

    @Test func loadingWhenStoppedListsTheVisibleRowsAtRestAndNothingInMotion() {
        var (geometry, scroll) = setup(offset: 1_000)
        var configuration = ViewportRanges.Configuration()
        configuration.loading = .whenStopped
        let rest = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero, configuration: configuration)
        #expect(rest.rowsToLoad.map(\.row) == Array(rest.visible))
        #expect(rest.rowsToLoad.allSatisfy { $0.tier == .visible })
        #expect(rest.display.count > rest.visible.count, "views are still made ahead")

        scroll.startFling(velocity: 200, at: .zero)
        let glide = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero, configuration: configuration)
        #expect(glide.rowsToLoad.isEmpty && glide.landing.isEmpty)
        scroll.drag(by: 3)
        let drag = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero, configuration: configuration)
        #expect(drag.rowsToLoad.isEmpty)
    }
}
