import ListViewport
import Testing

@Suite struct RowAnimatorTests {
    @Test func insertedRowsFadeInAndPushedRowsSlideDown() {
        var animator = RowAnimator<String>()
        // "b" and "c" were drawn at 0 and 2; "a" is inserted at the top and pushes them down.
        animator.begin(drawn: ["b": 0, "c": 2], layout: ["a": 0, "b": 2, "c": 4], inserted: ["a"], removed: [], at: .zero)
        let layout: [(id: String, offset: Double)] = [("a", 0), ("b", 2), ("c", 4)]
        let start = animator.placements(layout: layout, at: .zero)
        #expect(start.map(\.offset) == [0, 0, 2], "nothing jumps at the start")
        #expect(start[0].opacity == 0)
        let middle = animator.placements(layout: layout, at: .milliseconds(125))
        #expect(middle[1].offset > 0 && middle[1].offset < 2)
        #expect(middle[0].opacity > 0.5 && middle[0].opacity < 1, "ease-out: past half at half time")
        let end = animator.placements(layout: layout, at: .milliseconds(250))
        #expect(end.map(\.offset) == [0, 2, 4] && end.allSatisfy { $0.opacity == 1 })
        #expect(!animator.isAnimating)
    }

    @Test func deletedRowsFadeOutWhereTheyWereWhileTheGapCloses() {
        var animator = RowAnimator<String>()
        animator.begin(drawn: ["a": 0, "b": 2, "c": 4], layout: ["a": 0, "c": 2], inserted: [], removed: [("b", 2)], at: .zero)
        let frame = animator.placements(layout: [("a", 0), ("c", 2)], at: .milliseconds(100))
        let leaving = frame.first { $0.isLeaving }
        #expect(leaving?.id == "b" && leaving?.offset == 2)
        #expect(leaving.map { $0.opacity > 0 && $0.opacity < 1 } == true)
        #expect(frame[1].offset > 2 && frame[1].offset < 4, "c slides up into the gap")
        #expect(animator.placements(layout: [("a", 0), ("c", 2)], at: .milliseconds(300)).count == 2)
    }

    @Test func animationsOfRowsNoLongerDrawnEndOnTime() {
        var animator = RowAnimator<String>()
        animator.begin(drawn: ["x": 0, "y": 5], layout: ["x": 10, "y": 0], inserted: ["z"], removed: [], at: .zero)
        _ = animator.placements(layout: [], at: .milliseconds(100))
        #expect(animator.isAnimating)
        _ = animator.placements(layout: [], at: .milliseconds(300))
        #expect(!animator.isAnimating, "rows scrolled away mid-slide do not keep the frame loop running")
    }

    @Test func anUpdateMidAnimationStartsFromWhereRowsAreDrawn() {
        var animator = RowAnimator<String>()
        animator.begin(drawn: ["x": 0], layout: ["x": 10], inserted: [], removed: [], at: .zero)
        let midway = animator.placements(layout: [("x", 10)], at: .milliseconds(100))[0].offset
        // A second update moves it back to 0 before the first slide ended.
        animator.begin(drawn: ["x": midway], layout: ["x": 0], inserted: [], removed: [], at: .milliseconds(100))
        let next = animator.placements(layout: [("x", 0)], at: .milliseconds(100))[0].offset
        #expect(next == midway, "no jump when interrupted")
        #expect(animator.placements(layout: [("x", 0)], at: .milliseconds(350))[0].offset == 0)
    }
}
