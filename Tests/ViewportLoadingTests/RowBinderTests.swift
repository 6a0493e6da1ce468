import ContentLoading
import ListViewport
import Testing
import ViewportLoading

/// `RowBinder`: a slot per displayed row from a pool, and the ranges prefetched frame to frame.
@MainActor
@Suite struct RowBinderTests {
    struct Picture: ContentRequest {
        let item: Int
        var dataKey: Int { item }
    }

    /// A loader that records what its slots and prefetches are asked.
    final class Recorder: RowContentLoader {
        final class Slot: RowContentSlot {
            let number: Int
            private unowned let recorder: Recorder
            init(number: Int, recorder: Recorder) {
                self.number = number
                self.recorder = recorder
            }
            func bind(_ request: Picture, priority: LoadPriority) { recorder.log.append("slot \(number) bind \(request.item) \(priority)") }
            func unbind() { recorder.log.append("slot \(number) unbind") }
        }

        var log: [String] = []
        private var made = 0

        func makeSlot() -> Slot {
            made += 1
            return Slot(number: made, recorder: self)
        }

        func apply(_ changes: PrefetchChanges<Picture>) {
            log.append("stop \(changes.stop.map(\.item).sorted()) start \(changes.start.count) reprioritize \(changes.reprioritize.count)")
        }
    }

    @Test func aRowsSlotIsBoundInTheBackgroundAndReusedOnceTheRowEnds() {
        var rows = RowBinder<Int, Recorder>(loader: Recorder())
        rows.display(1, request: Picture(item: 1))
        rows.display(2, request: Picture(item: 2), priority: .visible)
        rows.endDisplay(1)
        rows.endDisplay(1)
        #expect(rows.slot(for: 1) == nil)
        rows.display(3, request: Picture(item: 3))
        #expect(rows.slot(for: 3)?.number == 1, "the ended row's slot is reused")
        #expect(rows.loader.log == [
            "slot 1 bind 1 background", "slot 2 bind 2 visible", "slot 1 unbind", "slot 1 bind 3 background",
        ])
    }

    @Test func aRowShowingANewVersionOfItsItemKeepsItsSlot() {
        var rows = RowBinder<Int, Recorder>(loader: Recorder())
        rows.display(1, request: Picture(item: 1))
        rows.display(1, request: Picture(item: 10))
        #expect(rows.loader.log == ["slot 1 bind 1 background", "slot 1 bind 10 background"])
    }

    @Test func framesPrefetchTheRangesAndUnbindingAllStopsEverything() throws {
        var rows = RowBinder<Int, Recorder>(loader: Recorder())
        let geometry = RowGeometry(heights: Array(repeating: 2, count: 100))
        var scroll = ScrollModel()
        scroll.setSizes(content: geometry.totalHeight, viewport: 20)
        let ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: .down, at: .zero)
        // Odd rows have nothing to load.
        rows.load(ranges, id: { $0 }, request: { $0.isMultiple(of: 2) ? Picture(item: $0) : nil })
        rows.load(ranges, id: { $0 }, request: { _ in Picture(item: -1) })
        rows.display(0, request: Picture(item: 0))
        rows.unbindAll()
        let planned = ranges.rowsToLoad.map(\.row).filter { $0.isMultiple(of: 2) }.sorted()
        #expect(rows.loader.log == [
            "stop [] start \(planned.count) reprioritize 0",
            "stop [] start 0 reprioritize 0",
            "slot 1 bind 0 background",
            "slot 1 unbind",
            "stop \(planned) start 0 reprioritize 0",
        ])
        #expect(rows.slot(for: 0) == nil)
    }
}
