import Testing
import TerminalUI

@Suite struct InMemoryTerminalTests {
    private func terminal(_ input: String, columns: Int = 5, rows: Int = 3) -> InMemoryTerminal {
        var terminal = InMemoryTerminal(columns: columns, rows: rows)
        terminal.apply(Array(input.utf8))
        return terminal
    }

    private func lines(_ terminal: InMemoryTerminal) -> [String] {
        (0..<terminal.screen.rows).map { terminal.screen.text(ofRow: $0) }
    }

    @Test func theCapabilityQueriesAreKeptAsQueriesAndLeftUnanswered() {
        var terminal = InMemoryTerminal(columns: 10, rows: 2)
        terminal.apply(TerminalCapabilities.query)
        #expect(terminal.queries == ["^[[?2026$p", "^[[16t", "^[[14t", "^[[>0q", "^[[c"])
        #expect(terminal.graphicsCommands.count == 1 && terminal.graphicsCommands[0].hasPrefix("i=31,"))
        #expect(terminal.unsupported.isEmpty)
        #expect(terminal.kittyImages.isEmpty, "a query keeps no image")
    }

    @Test func wrapsOnlyWhenACharacterFollowsTheLastColumn() {
        let held = terminal("abcde")
        #expect((held.cursorRow, held.cursorColumn) == (0, 4))
        #expect(lines(terminal("abcdefg")) == ["abcde", "fg   ", "     "])
        #expect(lines(terminal("abcde\r\nx")) == ["abcde", "x    ", "     "])
    }

    @Test func aLineFeedAtTheBottomScrollsAndAWideCharacterWrapsWhole() {
        #expect(lines(terminal("1\n\r2\n\r3\n\r4")) == ["2    ", "3    ", "4    "])
        #expect(lines(terminal("abcd日")) == ["abcd ", "日   ", "     "])
    }

    @Test func movesTheCursorAndErases() {
        #expect(lines(terminal("abcde\u{1B}[2;3HX\u{1B}[1;2H\u{1B}[K")) == ["a    ", "  X  ", "     "])
        #expect(lines(terminal("abcde\u{1B}[1;3H\u{1B}[1K\u{1B}[2;1Hxy\u{1B}[D\u{1B}[AZ")) == [" Z de", "xy   ", "     "])
        #expect(lines(terminal("abcde\u{1B}[2G\u{1B}[2X\u{1B}[3dq")) == ["a  de", "     ", " q   "])
        #expect(lines(terminal("ab\u{1B}[2;1Hcd\u{1B}[J")) == ["ab   ", "cd   ", "     "])
        #expect(lines(terminal("ab\u{1B}[2;1Hcd\u{1B}[1;2H\u{1B}[1J")) == ["     ", "cd   ", "     "])
        #expect(lines(terminal("ab\u{1B}7\u{1B}[3;3Hz\u{1B}8c")) == ["abc  ", "     ", "  z  "])
    }

    @Test func erasingFillsWithTheBackgroundAndScrollingStaysInsideTheMargins() {
        let erased = terminal("\u{1B}[41m\u{1B}[2K")
        #expect(erased.screen[0, 0] == Cell(" ", style: CellStyle(background: .ansi(1))))
        #expect(lines(terminal("1\r\n2\r\n3\u{1B}[1;2r\u{1B}[S")) == ["2    ", "     ", "3    "])
        #expect(lines(terminal("1\r\n2\r\n3\u{1B}[2;3r\u{1B}[T")) == ["1    ", "     ", "2    "])
    }

    @Test func readsEveryKindOfSGR() {
        let styled = terminal("\u{1B}[1;3;4;7;9;31;42ma\u{1B}[22;23;24;27;29;39;49;95;106mb\u{1B}[38;5;100;48;2;1;2;3mc\u{1B}[mc")
        #expect(styled.screen[0, 0].style == CellStyle(foreground: .ansi(1), background: .ansi(2), attributes: [.bold, .italic, .underline, .reverse, .strikethrough]))
        #expect(styled.screen[0, 1].style == CellStyle(foreground: .ansi(13), background: .ansi(14)))
        #expect(styled.screen[0, 2].style == CellStyle(foreground: .indexed(100), background: .rgb(1, 2, 3)))
        #expect(styled.screen[0, 3].style == .plain)
        #expect(styled.unsupported.isEmpty)
    }

    @Test func recordsWhatItDoesNotUnderstand() {
        let unknown = terminal("\u{1B}]0;title\u{7}\u{1B}[5n\u{1B}[38;9mx\u{1B}Z")
        #expect(unknown.unsupported == ["^[]0;title^G", "^[[5n", "^[[38;9m", "^[Z"])
    }

    @Test func tracksPrivateModesAndSynchronizedUpdates() {
        var modes = terminal("\u{1B}[?1049h\u{1B}[?25h\u{1B}[?2026h")
        #expect(modes.privateModes == [1049, 25, 2026])
        #expect(modes.isInSynchronizedUpdate)
        modes.apply(Array("\u{1B}[?2026l\u{1B}[?1049l".utf8))
        #expect(modes.privateModes == [25])
        #expect(modes.completedSynchronizedUpdates == 1)
    }

    private func tmux(_ input: String, columns: Int = 10) -> InMemoryTerminal {
        var terminal = InMemoryTerminal(columns: columns, rows: 2, widths: .codePoints)
        terminal.apply(Array(input.utf8))
        return terminal
    }

    /// What tmux 3.3a did with each, in a pane: where the cursor went and what the row showed.
    @Test func measuresCodePointsAsTmuxDoes() {
        #expect(tmux("👍🏽|").cursorColumn == 5)
        #expect(tmux("🏳️‍🌈|").cursorColumn == 2)
        #expect(tmux("❤️|").cursorColumn == 2)
        #expect(tmux("👨‍👩‍👧‍👦|").cursorColumn == 3)
        #expect(tmux("🇫🇷|").cursorColumn == 3)
        #expect(tmux("का|").cursorColumn == 3)
        // A joiner waits for the next wide character, past a cursor move or a narrow one.
        #expect(lines(tmux("中\u{200D}\u{1B}[1;3H中|")) == ["中\u{200D}|       ", "          "])
        #expect(lines(tmux("a\u{200D}b中|")) == ["a\u{200D}b|       ", "          "])
        #expect(lines(tmux("\u{1B}[1;8H👍🏽xy")) == ["       👍 ", "🏽xy      "])
    }

    @Test func withoutAutowrapNothingLeavesTheRow() {
        #expect(lines(tmux("\u{1B}[?7l\u{1B}[1;8H👍🏽xy")) == ["       👍y", "          "])
        #expect(lines(tmux("\u{1B}[?7l\u{1B}[1;10H中x")) == ["         x", "          "])
        var terminal = tmux("\u{1B}[?7l")
        #expect(!terminal.autowraps)
        terminal.apply(Array("\u{1B}[?7h\u{1B}[1;10Hab".utf8))
        #expect(lines(terminal) == ["         a", "b         "])
    }

    @Test func leavingASessionWithoutTheAlternateScreenLeavesTheCursorWhereItWas() {
        // What `scrollwork config` does to ask for capabilities between lines it prints.
        var terminal = InMemoryTerminal(columns: 40, rows: 10)
        terminal.apply(Array("one\r\ntwo\r\nthree".utf8))
        terminal.apply(TerminalSession.enterSequence([]) + TerminalSession.leaveSequence([]))

        #expect(terminal.cursorRow == 2 && terminal.cursorColumn == 5)
        terminal.apply(Array("\r\nfour".utf8))
        #expect(terminal.screen.text(ofRow: 0).hasPrefix("one") && terminal.screen.text(ofRow: 3).hasPrefix("four"))
    }
}
