/// A grid of cells: one frame of a terminal screen, drawn by the application and written to
/// the terminal by ``FrameRenderer``.
///
/// The buffer keeps wide characters whole: writing over either half of one leaves the other
/// half blank, and a wide character that would cross the right edge is not drawn. Text is made
/// safe by ``TerminalSanitizer`` (line breaks shown) on its way in, so no cell holds a control
/// character.
public struct CellBuffer: Hashable, Sendable {
    /// The width in cells.
    public let columns: Int
    /// The height in cells.
    public let rows: Int
    /// The cells, row by row from the top.
    public private(set) var cells: [Cell]

    /// A buffer of `columns` × `rows` copies of `cell`.
    ///
    /// - Precondition: both sides are positive and `cell` is not half of a wide character.
    public init(columns: Int, rows: Int, filledWith cell: Cell = .blank) {
        precondition(columns > 0 && rows > 0, "a cell buffer needs a positive size")
        precondition(cell.width == 1, "fill a buffer with one-column cells")
        self.columns = columns
        self.rows = rows
        cells = [Cell](repeating: cell, count: columns * rows)
    }

    /// The cell at `row`, `column`.
    ///
    /// - Precondition: the position is inside the buffer.
    public subscript(row: Int, column: Int) -> Cell {
        precondition(contains(row: row, column: column), "cell (\(row), \(column)) is outside \(columns)x\(rows)")
        return cells[row * columns + column]
    }

    /// The characters of `row`, left to right (a wide character once): what a person reads on
    /// that line, for tests and logs. Trailing blanks are kept unless `trailingBlanks` is false.
    /// - Complexity: O(columns).
    package func text(ofRow row: Int, trailingBlanks: Bool = true) -> String {
        var text = ""
        for column in 0..<columns {
            if let grapheme = self[row, column].grapheme { text.append(grapheme) }
        }
        if !trailingBlanks {
            while text.last == " " { text.removeLast() }
        }
        return text
    }

    /// Whether `row`, `column` is inside the buffer.
    public func contains(row: Int, column: Int) -> Bool {
        row >= 0 && row < rows && column >= 0 && column < columns
    }

    /// Writes `text` from `row`, `column` rightwards and returns the column after the last cell
    /// written.
    ///
    /// The text is sanitised with line breaks shown, so it stays on its row. Writing stops at
    /// `limit` (default: the right edge); a wide character that would cross it is replaced by
    /// a blank. Clusters of width 0 (invisible format characters) are skipped; a cluster that
    /// starts with a combining mark is drawn on a dotted circle, as text renderers do, and
    /// zero-width joiners that would join what follows are left out (see
    /// ``DisplayWidth``). Writing outside the buffer draws nothing.
    /// - Complexity: O(n) in the length of `text`.
    @discardableResult
    public mutating func write(_ text: String, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
        let limit = min(limit ?? columns, columns)
        guard row >= 0 && row < rows else { return column }
        var column = column
        let text = TerminalSanitizer.sanitized(text, lineBreaks: .shown)
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // Printable ASCII, the common case: one cell per byte, no Unicode tables needed.
            for byte in text.utf8 {
                guard column < limit else { break }
                if column >= 0 { place(Cell(grapheme: Character(Unicode.Scalar(byte)), style: style, width: 1), row: row, column: column) }
                column += 1
            }
            return column
        }
        for character in text {
            guard column < limit else { break }
            let (grapheme, width) = DisplayWidth.drawn(character)
            if width == 0 { continue }
            if column < 0 {
                column += width
                continue
            }
            if width == 2 && column + 1 >= limit {
                place(.blank(style: style), row: row, column: column)
                column += 1
                break
            }
            place(Cell(grapheme: grapheme, style: style, width: UInt8(width)), row: row, column: column)
            column += width
        }
        return column
    }

    /// Sets one-column `cell` at `row`, `column`, leaving no half of a wide character behind.
    ///
    /// - Precondition: the position is inside the buffer and `cell` takes one column.
    public mutating func set(_ cell: Cell, row: Int, column: Int) {
        precondition(contains(row: row, column: column), "cell (\(row), \(column)) is outside \(columns)x\(rows)")
        precondition(cell.width == 1, "set one-column cells; write wide characters as text")
        place(cell, row: row, column: column)
    }

    /// Fills the rectangle of `height` rows and `width` columns at `row`, `column` with
    /// copies of one-column `cell`, clipped to the buffer.
    public mutating func fill(row: Int, column: Int, width: Int, height: Int, with cell: Cell) {
        precondition(cell.width == 1, "fill with one-column cells")
        for y in max(row, 0)..<max(min(row + height, rows), max(row, 0)) {
            for x in max(column, 0)..<max(min(column + width, columns), max(column, 0)) {
                place(cell, row: y, column: x)
            }
        }
    }

    /// Replaces row `destination` with row `source` of `other`, a buffer as wide: whole rows
    /// keep wide characters whole. A row outside this buffer is ignored.
    ///
    /// - Precondition: `other` has as many columns and holds row `source`.
    /// - Complexity: O(columns).
    public mutating func copyRow(_ source: Int, of other: CellBuffer, to destination: Int) {
        precondition(other.columns == columns && source >= 0 && source < other.rows, "copy a row of a buffer as wide")
        guard destination >= 0 && destination < rows else { return }
        let from = source * columns
        let to = destination * columns
        cells.replaceSubrange(to..<(to + columns), with: other.cells[from..<(from + columns)])
    }

    /// Places `cell` (and, for a wide one, its continuation), blanking what is left of any
    /// wide character it cuts in half. The one way cells change, so every caller keeps pairs
    /// whole.
    mutating func place(_ cell: Cell, row: Int, column: Int) {
        let index = row * columns + column
        let span = cell.width == 2 ? 2 : 1
        if cells[index].width == 0 && column > 0 {
            cells[index - 1] = .blank(style: cells[index - 1].style)
        }
        let after = index + span
        if column + span < columns && cells[after].width == 0 {
            cells[after] = .blank(style: cells[after].style)
        }
        cells[index] = cell
        if span == 2 { cells[index + 1] = .continuation(style: cell.style) }
    }

    /// Replaces a cell without repairing neighbours: for the renderer's model of the screen,
    /// which marks cells it cannot know.
    mutating func overwrite(_ cell: Cell, at index: Int) {
        cells[index] = cell
    }

    /// Moves rows `range` by `offset` (negative: up), as a terminal scrolls a region, filling
    /// the rows that come in with `cell`.
    mutating func scroll(rows range: ClosedRange<Int>, by offset: Int, filling cell: Cell) {
        let lines = range.map { row in Array(cells[(row * columns)..<((row + 1) * columns)]) }
        let blankRow = [Cell](repeating: cell, count: columns)
        for (position, row) in range.enumerated() {
            let source = position - offset
            let line = source >= 0 && source < lines.count ? lines[source] : blankRow
            cells.replaceSubrange((row * columns)..<((row + 1) * columns), with: line)
        }
    }
}
