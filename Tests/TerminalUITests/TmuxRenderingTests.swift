import ScrollworkTestSupport
import Testing
import TerminalUI

/// Frames drawn into a real tmux (3.3a measures code point by code point, unlike
/// ``DisplayWidth``), read back with `capture-pane`: the reported case of a row of CJK and emoji
/// sequences followed by another post's article. Skipped where tmux is not installed; CI
/// installs it.
@Suite(.enabled(if: TmuxPane.executable != nil, "needs tmux"))
struct TmuxRenderingTests {
    /// A frame of `lines`, with a bar at the right end of the third row: a row that is not
    /// erased to its end, as a post with its date is not.
    private func frame(_ lines: [String], columns: Int) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: lines.count)
        for (row, line) in lines.enumerated() { buffer.write(line, row: row, column: 0) }
        buffer.write("|", row: 2, column: columns - 1)
        return buffer
    }

    /// What tmux shows of `frame`: each row's text, trailing blanks left out.
    private func shown(_ frame: CellBuffer) -> [String] {
        (0..<frame.rows).map { row in
            var text = frame.text(ofRow: row)
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    @Test func emojiSequencesStayInTheirCellsAndLeaveNothingStale() throws {
        let pane = try TmuxPane(columns: 24, rows: 5)
        var renderer = FrameRenderer()
        let excerpt = frame(
            ["中文👨‍👩‍👧‍👦和🏳️‍🌈还有👍🏽中文字", "next row", "👍🏽👍🏽中x", "❤️ and 1️⃣ at the edge 👍🏽", "中中中中中中中中中中中中"], columns: 24)
        try pane.write(renderer.render(excerpt))
        try pane.waitUntilShown()
        let lines = try pane.lines()
        // Each cluster keeps to its columns: what follows it is where the frame has it, and
        // nothing spills onto the next row or scrolls the screen.
        #expect(lines[0].hasPrefix("中文"), "\(lines)")
        #expect(lines[0].hasSuffix("还有👍中文字"), "\(lines)")
        #expect(lines[1] == "next row", "\(lines)")
        #expect(lines[2] == "👍👍中x" + String(repeating: " ", count: 16) + "|", "\(lines)")
        #expect(lines[3].hasPrefix("❤️ "), "\(lines)")
        #expect(lines[3].hasSuffix(" at the edge 👍"), "\(lines)")
        #expect(lines[4] == "中中中中中中中中中中中中", "\(lines)")

        let article = frame(["中文 is not stale here", "Another post's article", "hello", "", "中中中中中 中中中中中中"], columns: 24)
        try pane.write(renderer.render(article))
        try pane.waitUntilShown()
        #expect(try pane.lines() == shown(article))
    }
}
