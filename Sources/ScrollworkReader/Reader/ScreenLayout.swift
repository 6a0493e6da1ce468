import TerminalUI

/// Where each part of a reader screen goes in a terminal of a given size: the title bar on the
/// first row, the status line on the last, the body between them. Every screen, the frame
/// loop and the key handlers take their rectangles from here, so this is the one place that
/// knows how tall the bars are (the way ratatui's layouts hand each widget its area).
struct ScreenLayout: Equatable, Sendable {
    /// A band of whole rows across the screen.
    struct Band: Equatable, Sendable {
        /// Its first row.
        var top: Int
        /// How many rows it has; 0 when the terminal is too small for it.
        var height: Int
        /// Its rows.
        var rows: Range<Int> { top..<(top + height) }
        /// Whether `row`, a row of the screen, is in the band.
        func contains(_ row: Int) -> Bool { rows.contains(row) }
    }

    /// The screen's width in cells.
    let columns: Int
    /// The screen's height in cells.
    let rows: Int
    /// The title bar.
    let title: Band
    /// What the screen shows: the list, the article, the feeds.
    let body: Band
    /// The status line. In a terminal of one row it shares the row with the title bar and is
    /// drawn over it.
    let status: Band

    /// The layout of a terminal `columns` × `rows` cells (at least 1 × 1).
    init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        title = Band(top: 0, height: 1)
        status = Band(top: self.rows - 1, height: 1)
        body = Band(top: 1, height: max(0, self.rows - 2))
    }
}

extension CellBuffer {
    /// Fills the layout's title bar with `accent` and writes `title` in it, cut to the width.
    mutating func drawTitleBar(_ title: String, accent: TerminalColor, in layout: ScreenLayout) {
        let style = CellStyle(foreground: .ansi(15), background: accent, attributes: .bold)
        fill(row: layout.title.top, column: 0, width: columns, height: layout.title.height, with: Cell(" ", style: style))
        write(TextLayout.truncated(" " + title, toWidth: columns), row: layout.title.top, column: 0, style: style)
    }

    /// Fills the layout's status line and writes `status` in it, cut to the width.
    mutating func drawStatusLine(_ status: String, in layout: ScreenLayout) {
        let style = CellStyle(foreground: .indexed(250), background: .indexed(236))
        fill(row: layout.status.top, column: 0, width: columns, height: layout.status.height, with: Cell(" ", style: style))
        write(TextLayout.truncated(" " + status, toWidth: columns), row: layout.status.top, column: 0, style: style)
    }

    /// The layout of this buffer's size.
    var layout: ScreenLayout { ScreenLayout(columns: columns, rows: rows) }
}
