import TerminalUI

/// The bars every reader screen has: a title bar on the first row and a status line on the
/// last, drawn after the body so that nothing half scrolled out shows through them.
extension CellBuffer {
    /// Fills the first row with `accent` and writes `title` in it, cut to the width.
    mutating func drawTitleBar(_ title: String, accent: TerminalColor) {
        let style = CellStyle(foreground: .ansi(15), background: accent, attributes: .bold)
        fill(row: 0, column: 0, width: columns, height: 1, with: Cell(" ", style: style))
        write(TextLayout.truncated(" " + title, toWidth: columns), row: 0, column: 0, style: style)
    }

    /// Fills the last row and writes `status` in it, cut to the width.
    mutating func drawStatusLine(_ status: String) {
        let style = CellStyle(foreground: .indexed(250), background: .indexed(236))
        fill(row: rows - 1, column: 0, width: columns, height: 1, with: Cell(" ", style: style))
        write(TextLayout.truncated(" " + status, toWidth: columns), row: rows - 1, column: 0, style: style)
    }
}
