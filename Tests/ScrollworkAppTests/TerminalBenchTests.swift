import TerminalUI
import Testing
@testable import ScrollworkApp
@testable import ScrollworkBench

@Suite struct TerminalBenchTests {
    @Test func everyScreenShowsEightPicturesWorthOfHalfBlocks() {
        let screen = ReaderScreen()
        for offset in [100, 101, 107, 118, 250] {
            let frame = screen.frame(at: ReaderScreen.Moment(offset: offset, changedRow: nil))
            let pictureCells = frame.cells.filter { $0.grapheme == "▀" || $0.grapheme == "▄" }.count
            #expect(pictureCells == 8 * 16 * 8, "offset \(offset)")
        }
    }

    @Test func theChangedRowIsOneRowOfText() {
        let screen = ReaderScreen()
        let before = screen.frame(at: ReaderScreen.Moment(offset: 100, changedRow: nil))
        let after = screen.frame(at: ReaderScreen.Moment(offset: 100, changedRow: 1))
        let changedRows = Set(before.cells.indices.filter { before.cells[$0] != after.cells[$0] }.map { $0 / before.columns })
        #expect(changedRows.count == 1)
    }

    @Test func theFlingSlowsDownAndNeverGoesBack() {
        let offsets = TerminalBench.flingOffsets(from: 100, seconds: 3, framesPerSecond: 60)
        let steps = zip(offsets.dropFirst(), offsets).map { $0 - $1 }
        #expect(offsets.count == 180 && offsets[0] == 100)
        #expect(steps.allSatisfy { $0 >= 0 })
        #expect(steps.first! > 5 && steps.last! <= 1)
    }

    @Test func percentilesAreNearestRank() {
        let samples = (1...100).map(Double.init)
        #expect(TerminalBench.percentile(samples, 0.5) == 50)
        #expect(TerminalBench.percentile(samples, 0.99) == 99)
        #expect(TerminalBench.percentile([7], 0.99) == 7)
    }
}
