import Feeds
import Foundation
import TerminalUI
import Testing
@testable import ScrollworkReader

/// What the runtime once decided and the state now does: the refresh held for the first
/// screen, the rest after a burst of events, the terminal's answers, a font change and tmux's
/// focus. Event by event, no store, terminal or frames.
@MainActor
@Suite struct ReaderStateRuntimeTests {
    typealias Fixture = ReaderStateTests

    static func refreshes(_ effects: [ReaderEffect]) -> Bool {
        effects.contains { if case .refresh(nil) = $0 { true } else { false } }
    }

    @Test func theFirstRefreshWaitsForTheFirstScreenOfPosts() {
        let list = Fixture.list(30)
        var state = ReaderState(title: "Test", options: ReaderOptions(), layout: ScreenLayout(columns: 80, rows: 27))
        let started = state.start(holdingRefresh: true)
        #expect(started.contains(.wake(.firstScreenDeadline, after: .milliseconds(250))))
        #expect(!Self.refreshes(started))
        // The rows arrive: no refresh yet, their frame is not out.
        #expect(!Self.refreshes(state.update(Fixture.snapshot(list.posts), list: Fixture.list(0), now: .zero)))
        // A frame with the posts on it: the refresh starts, once.
        #expect(Self.refreshes(state.update(.frameTick, list: list, now: .milliseconds(16))))
        #expect(!Self.refreshes(state.update(.frameTick, list: list, now: .milliseconds(33))))
        #expect(!Self.refreshes(state.update(.timer(.firstScreenDeadline), list: list, now: .milliseconds(250))))
    }

    @Test(arguments: ["empty store", "deadline"])
    func aStoreWithNothingToShowOrNoScreenInTimeStartsTheRefresh(_ way: String) {
        let empty = Fixture.list(0)
        var state = ReaderState(title: "Test", options: ReaderOptions(), layout: ScreenLayout(columns: 80, rows: 27))
        _ = state.start(holdingRefresh: true)
        #expect(!Self.refreshes(state.update(.frameTick, list: empty, now: .milliseconds(16))), "a frame of no posts is no first screen")
        let event = way == "empty store" ? Fixture.snapshot([]) : .timer(.firstScreenDeadline)
        #expect(Self.refreshes(state.update(event, list: empty, now: .milliseconds(250))))
    }

    @Test func aReaderQuitBeforeItsFirstScreenNeverRefreshes() {
        var state = ReaderState(title: "Test", options: ReaderOptions(), layout: ScreenLayout(columns: 80, rows: 27))
        _ = state.start(holdingRefresh: true)
        _ = state.update(Fixture.key("Q"), list: Fixture.list(0), now: .zero)
        #expect(state.update(.timer(.firstScreenDeadline), list: Fixture.list(0), now: .milliseconds(250)).isEmpty)
    }

    @Test func withoutAHoldTheRefreshIsTheRuntimesToStart() {
        let list = Fixture.list(5)
        var state = Fixture.state(list)
        #expect(!Self.refreshes(state.update(.frameTick, list: list, now: .milliseconds(16))))
    }

    @Test func theReaderIsAtRestOnlyIfNoEventCameAfterTheRestWasAskedFor() throws {
        let list = Fixture.list(5)
        var state = Fixture.state(list)
        let asked = state.idle()
        let wake = try #require(asked.first)
        guard case .wake(.rest(let taken), after: let delay) = wake else { Issue.record("\(asked)"); return }
        #expect(delay == ReaderState.restDelay)
        #expect(state.idle().isEmpty, "asked once for the same events")
        #expect(state.update(.timer(.rest(taken)), list: list, now: .milliseconds(200)) == [.atRest])
        #expect(state.idle().isEmpty, "a rest said is not asked for again")
        // An event after the ask: the rest asked before it is not said; the one after it is.
        let again = state.update(Fixture.key("j"), list: list, now: .milliseconds(300))
        #expect(!again.contains(.atRest))
        guard case .wake(.rest(let later), _)? = state.idle().first else { Issue.record("no rest asked"); return }
        _ = state.update(.frameTick, list: list, now: .milliseconds(320))
        #expect(state.update(.timer(.rest(later)), list: list, now: .milliseconds(500)).isEmpty)
    }

    @Test func theTerminalsLastAnswerDecidesThePicturesAndAKeyAmongTheAnswersIsAKey() {
        let list = Fixture.list(30)
        var state = Fixture.state(list)
        state.kernelCellPixels = CellPixelSize(width: 8, height: 16)
        let asked = state.askCapabilities(throughTmux: false, insideTmux: false) { PictureMode.resolve(.auto, capabilities: $0, environment: [:]) }
        #expect(asked == [.writeTerminal(TerminalCapabilities.query(throughTmux: false, insideTmux: false))])
        #expect(state.awaitedAnswers(now: .zero) == 1)
        #expect(state.update(.input(.kittyGraphicsReply("i=31;OK")), list: list, now: .zero).isEmpty)
        #expect(state.update(Fixture.key("j"), list: list, now: .zero).contains(.draw), "a key among the answers moves the cursor")
        let decided = state.update(.input(.deviceAttributes([62, 4])), list: list, now: .zero)
        // No cell size in the answers: the kernel's.
        let kitty = PictureMode.kitty(cellPixels: CellPixelSize(width: 8, height: 16), placing: .direct)
        #expect(decided == [.drawPictures(kitty), .repaint])
        #expect(state.options.pictures == kitty)
        #expect(state.awaitedAnswers(now: .zero) == 0)
        // Answers after the question closed are input like any other: nothing.
        #expect(state.update(.input(.deviceAttributes([62])), list: list, now: .zero).isEmpty)
    }

    @Test func throughTmuxTheOuterTerminalsAnswersAreAwaitedForASecond() {
        let list = Fixture.list(5)
        var state = Fixture.state(list)
        _ = state.askCapabilities(throughTmux: true, insideTmux: true) { _ in (.blocks, nil) }
        #expect(state.awaitedAnswers(now: .zero) == 2)
        _ = state.update(.input(.deviceAttributes([1, 2])), list: list, now: .seconds(1))
        #expect(state.awaitedAnswers(now: .milliseconds(1_500)) == 1)
        #expect(state.awaitedAnswers(now: .milliseconds(2_001)) == 0, "the outer terminal answers within a second or never")
    }

    @Test func aNewFontSizeRedrawsPixelPicturesAtTheKernelsCellSize() {
        let list = Fixture.list(5)
        var options = ReaderOptions()
        options.pictures = .sixel(cellPixels: CellPixelSize(width: 10, height: 20))
        var state = Fixture.state(list, options: options)
        state.kernelCellPixels = CellPixelSize(width: 10, height: 20)
        #expect(state.update(.kernelCellPixels(CellPixelSize(width: 10, height: 20)), list: list, now: .zero).isEmpty, "no change")
        let bigger = CellPixelSize(width: 12, height: 24)
        #expect(state.update(.kernelCellPixels(bigger), list: list, now: .zero) == [.drawPictures(.sixel(cellPixels: bigger)), .repaint])
        // In half blocks, a font change is only a resize.
        var blocks = Fixture.state(list)
        #expect(blocks.update(.kernelCellPixels(bigger), list: list, now: .zero).isEmpty)
    }

    @Test func backInFrontInTmuxPlaceholderPicturesAreSentAgain() {
        let list = Fixture.list(5)
        var options = ReaderOptions()
        options.pictures = .kitty(cellPixels: CellPixelSize(width: 10, height: 20), placing: .placeholders(throughTmux: true))
        var state = Fixture.state(list, options: options)
        #expect(state.update(.input(.focusGained), list: list, now: .zero) == [.resendPictures])
        // Outside tmux, or drawn another way, the terminal kept them.
        options.pictures = .kitty(cellPixels: CellPixelSize(width: 10, height: 20), placing: .placeholders(throughTmux: false))
        var outside = Fixture.state(list, options: options)
        #expect(outside.update(.input(.focusGained), list: list, now: .zero).isEmpty)
    }
}
