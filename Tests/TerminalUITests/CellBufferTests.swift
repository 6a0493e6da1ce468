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
}
