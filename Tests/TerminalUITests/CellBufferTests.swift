import Testing
import TerminalUI

@Suite struct CellBufferTests {
    @Test func writesAWideCharacterAsALeadingCellAndAContinuation() {
        var buffer = CellBuffer(columns: 6, rows: 1)
        let end = buffer.write("a日b", row: 0, column: 0)
        #expect(end == 4)
        #expect(buffer[0, 1].grapheme == "日" && buffer[0, 1].width == 2)
        #expect(buffer[0, 2].grapheme == nil && buffer[0, 2].width == 0)
        #expect(buffer[0, 3].grapheme == "b")
    }

    @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var buffer = CellBuffer(columns: 6, rows: 1)
        buffer.write("日本", row: 0, column: 0)
        buffer.write("x", row: 0, column: 1)
        #expect(buffer[0, 0] == .blank)
        #expect(buffer[0, 1].grapheme == "x")
        buffer.write("y", row: 0, column: 2)
        #expect(buffer[0, 3] == .blank)
        #expect(buffer.cells.allSatisfy { $0.width == 1 })
    }

    @Test func aWideCharacterThatWouldCrossTheEdgeBecomesABlank() {
        var buffer = CellBuffer(columns: 3, rows: 1)
        #expect(buffer.write("ab日", row: 0, column: 0) == 3)
        #expect(buffer[0, 2] == .blank)
        #expect(buffer.write("日日", row: 0, column: 0, limit: 3) == 3)
        #expect(buffer[0, 0].grapheme == "日" && buffer[0, 2] == .blank)
    }

    @Test func drawnTextIsSanitisedOntoOneRow() {
        var buffer = CellBuffer(columns: 12, rows: 2)
        buffer.write("a\u{1B}[2J\nb\u{9B}", row: 0, column: 0)
        let row = buffer.text(ofRow: 0)
        #expect(row == "a^[[2J^Jb\u{FFFD}  ")
        #expect(buffer[1, 0] == .blank)
    }

    @Test func aLoneCombiningMarkSitsOnADottedCircleAndInvisibleCharactersTakeNoCell() {
        var buffer = CellBuffer(columns: 4, rows: 1)
        #expect(buffer.write("\u{301}\u{200B}x", row: 0, column: 0) == 2)
        #expect(buffer[0, 0].grapheme == "\u{25CC}\u{301}")
        #expect(buffer[0, 1].grapheme == "x")
    }

    @Test func aJoinerIsDrawnOnlyBeforeAWideCharacter() {
        var buffer = CellBuffer(columns: 12, rows: 1)
        // tmux 3.3a would pull the next wide character into a joiner's cell, wherever it is.
        buffer.write("a\u{200D}中🏃\u{200D}♂\u{FE0F}क्\u{200D}ष👨‍👩‍👧‍👦", row: 0, column: 0)
        #expect(buffer.text(ofRow: 0) == "a中🏃क्ष👨‍👩‍👧‍👦   ")
        #expect(buffer.text(ofRow: 0, trailingBlanks: false) == "a中🏃क्ष👨‍👩‍👧‍👦")
        #expect(buffer[0, 5].grapheme == Character("क्ष"))
        #expect(buffer[0, 7].grapheme == Character("👨‍👩‍👧‍👦"))
        // A Hangul vowel alone would join the cell before: it is made a syllable with a filler.
        buffer.write("a\u{1161}", row: 0, column: 0)
        #expect(buffer[0, 1].grapheme == Character("\u{115F}\u{1161}"))
        #expect(buffer[0, 1].width == 2)
    }
}
