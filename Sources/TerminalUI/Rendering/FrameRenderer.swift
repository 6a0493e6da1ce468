/// Writes frames to a terminal as the fewest bytes it can find, by diffing each frame with
/// what the terminal already shows.
///
/// The renderer keeps a model of the screen, the cursor and the current SGR pen. For each
/// frame it:
/// 1. scrolls a region of the terminal (DECSTBM, then SU or SD) when the frame is the screen
///    shifted by whole rows, as a scrolling list is, so only the rows that came in are drawn;
/// 2. writes each run of changed cells after one cursor move, rewriting a few unchanged cells
///    when that is shorter than jumping over them; erases to the end of a row (EL) when the
///    rest of it becomes blank;
/// 3. changes SGR only where the style changes, with whichever of the changes alone or a reset
///    is shorter;
/// 4. wraps the frame in synchronized output (DEC mode 2026) when the terminal supports it, so
///    no half-drawn frame is seen.
///
/// Wide characters are written whole. After writing the last column the cursor position is
/// taken as unknown, since terminals differ there, and the next move is absolute.
///
/// A cluster that terminals measure differently (``DisplayWidth/columnsTerminalsMayUse(_:)``,
/// such as `👍🏽`, `🏳️‍🌈` or `❤️`) is written so that no reading of it can leave anything
/// stale or move what follows: its cells are erased first (ECH), so a narrower reading leaves
/// blanks rather than what was there; autowrap is off while it is written if a wider reading
/// would cross the right edge, so it never spills onto the next row or scrolls the screen; the
/// cursor is taken as unknown after it, so what follows is placed by an absolute move; and the
/// cells a wider reading may have covered are drawn again in the same frame.
///
/// The renderer is a value with no I/O: ``render(_:)`` returns bytes and the caller writes them.
/// If anything else writes to the terminal, or the terminal is resized, call ``invalidate()``.
public struct FrameRenderer: Sendable {
    /// What the terminal supports and how colours are written.
    public struct Options: Hashable, Sendable {
        /// How colours are written.
        public var colorMode: ColorMode
        /// Whether frames are wrapped in DEC mode 2026 (synchronized output).
        public var synchronizedOutput: Bool
        /// Whether scrolling regions may be used for frames shifted by whole rows.
        public var scrollsRegions: Bool

        /// Options; by default truecolor, no synchronized output, scroll regions used.
        public init(colorMode: ColorMode = .truecolor, synchronizedOutput: Bool = false, scrollsRegions: Bool = true) {
            self.colorMode = colorMode
            self.synchronizedOutput = synchronizedOutput
            self.scrollsRegions = scrollsRegions
        }
    }

    private struct Position: Equatable {
        var row: Int
        var column: Int
    }

    /// The renderer's options.
    public var options: Options
    /// What the terminal shows, as far as the renderer knows; nil before the first frame.
    private var shown: CellBuffer?
    /// The SGR state of the terminal (colours resolved for the mode); nil when unknown.
    private var pen: CellStyle?
    /// The unresolved style the pen was last set for, to skip resolving equal styles again.
    private var penSource: CellStyle?
    /// Whether the pen's foreground was set as data, unresolved (``Cell/isKittyPlaceholder``).
    private var penIsData = false
    private var cursor: Position?
    private var resolvedColors: [TerminalColor: TerminalColor] = [:]

    /// A renderer that has drawn nothing yet: its first frame repaints the whole screen.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Forgets what the terminal shows, so that the next frame repaints everything: after a
    /// resize, a suspend, or anything else written to the terminal.
    public mutating func invalidate() {
        shown = nil
        pen = nil
        penSource = nil
        cursor = nil
    }

    /// Forgets what the terminal shows in `cells` (erased by something else: a sixel picture
    /// taken away), so that the next frame draws them again.
    public mutating func forget<Spans: Sequence>(_ cells: Spans) where Spans.Element == (row: Int, columns: Range<Int>) {
        guard var screen = shown else { return }
        shown = nil
        for (row, columns) in cells where row >= 0 && row < screen.rows {
            for column in columns where column >= 0 && column < screen.columns {
                screen.overwrite(Self.unknownCell, at: row * screen.columns + column)
            }
        }
        shown = screen
        cursor = nil
    }

    /// The bytes that turn the terminal's screen into `frame`; empty when it already shows it.
    ///
    /// A frame of a different size from the last repaints the whole screen.
    /// - Complexity: O(cells), plus O(rows²) row comparisons (by fingerprint) to find a scroll.
    public mutating func render(_ frame: CellBuffer) -> [UInt8] {
        var out = EscapeSequenceWriter(reservingCapacity: 4096)
        if options.synchronizedOutput { out.append(Self.beginSynchronizedUpdate) }
        let opening = out.bytes.count
        if var screen = shown, screen.columns == frame.columns, screen.rows == frame.rows {
            // The model is changed in place only if it has no other owner.
            shown = nil
            if options.scrollsRegions { scrollIfShifted(frame, screen: &screen, into: &out) }
            drawDifferences(frame, screen: &screen, into: &out)
            shown = screen
        } else {
            var screen = CellBuffer(columns: frame.columns, rows: frame.rows)
            setPen(.plain, into: &out)
            out.moveCursor(row: 0, column: 0)
            out.csi(2, 0x4A)
            cursor = Position(row: 0, column: 0)
            drawDifferences(frame, screen: &screen, into: &out)
            shown = screen
        }
        if out.bytes.count == opening { return [] }
        if options.synchronizedOutput { out.append(Self.endSynchronizedUpdate) }
        return out.bytes
    }

    /// The bytes of the naive way: move to the start of each row and write every cell,
    /// changing SGR only between cells of different styles. The baseline the benchmarks
    /// compare with.
    /// - Complexity: O(cells).
    public static func repaintingEveryCell(_ frame: CellBuffer, colorMode: ColorMode) -> [UInt8] {
        var out = EscapeSequenceWriter(reservingCapacity: frame.cells.count * 4)
        var pen: CellStyle?
        for row in 0..<frame.rows {
            out.moveCursor(row: row, column: 0)
            for column in 0..<frame.columns {
                let cell = frame[row, column]
                guard let grapheme = cell.grapheme else { continue }
                let style = colorMode.resolve(cell.style)
                if style != pen { out.selectGraphicRendition(from: pen, to: style) }
                pen = style
                out.append(grapheme)
            }
        }
        return out.bytes
    }

    /// `ESC [ ? 7 l`: autowrap off, so that a character past the right edge stays on its row.
    static let autowrapOff: [UInt8] = Array("\u{1B}[?7l".utf8)
    /// `ESC [ ? 7 h`: autowrap on, as terminals start.
    static let autowrapOn: [UInt8] = Array("\u{1B}[?7h".utf8)

    /// What the model holds for a cell the terminal may have changed on its own (after an
    /// unsettled cluster): it equals no cell of a frame, so the cell is drawn again.
    private static let unknownCell = Cell(grapheme: nil, style: .plain, width: 1)

    /// `ESC [ ? 2026 h`: the terminal holds the screen until the matching end.
    static let beginSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026h".utf8)
    /// `ESC [ ? 2026 l`.
    static let endSynchronizedUpdate: [UInt8] = Array("\u{1B}[?2026l".utf8)

    // MARK: - Scrolling

    /// Finds the band of rows that changed; if most of it is the screen's band shifted by
    /// whole rows, scrolls that region of the terminal and the model alike.
    private mutating func scrollIfShifted(_ frame: CellBuffer, screen: inout CellBuffer, into out: inout EscapeSequenceWriter) {
        let columns = frame.columns
        func rowsEqual(_ row: Int, _ other: Int) -> Bool {
            frame.cells[(row * columns)..<((row + 1) * columns)] == screen.cells[(other * columns)..<((other + 1) * columns)]
        }
        guard let top = (0..<frame.rows).first(where: { !rowsEqual($0, $0) }),
              let bottom = (0..<frame.rows).last(where: { !rowsEqual($0, $0) }), bottom - top >= 2 else { return }
        let band = top...bottom
        let new = band.map { Self.fingerprint(frame, row: $0) }
        let old = band.map { Self.fingerprint(screen, row: $0) }
        let unshifted = zip(new, old).filter { $0 == $1 }.count
        var best = (shift: 0, matches: unshifted)
        for shift in 1..<band.count {
            var up = 0
            var down = 0
            for index in 0..<(band.count - shift) {
                if new[index] == old[index + shift] { up += 1 }
                if new[index + shift] == old[index] { down += 1 }
            }
            if up > best.matches { best = (shift, up) }
            if down > best.matches { best = (-shift, down) }
        }
        // Scrolling costs a dozen bytes or so; it must save more than a row's worth of them.
        guard best.shift != 0, best.matches >= unshifted + 2 else { return }
        setPen(.plain, into: &out)
        let wholeScreen = band == 0...(frame.rows - 1)
        if !wholeScreen {
            out.append([0x1B, 0x5B])
            out.decimal(top + 1)
            out.append([0x3B])
            out.decimal(bottom + 1)
            out.append([0x72])
        }
        out.csi(abs(best.shift), best.shift > 0 ? 0x53 : 0x54)
        if !wholeScreen {
            out.append([0x1B, 0x5B, 0x72])
            cursor = Position(row: 0, column: 0)
        }
        screen.scroll(rows: band, by: -best.shift, filling: .blank)
    }

    /// A hash of a row's cells that needs no Unicode normalisation: the grapheme's UTF-8 and
    /// the style, folded with FNV-1a. Equal rows have equal fingerprints; a rare collision only
    /// costs bytes, since the cell diff that follows draws whatever really differs.
    private static func fingerprint(_ buffer: CellBuffer, row: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: UInt64) {
            hash = (hash ^ value) &* 0x0000_0100_0000_01B3
        }
        for cell in buffer.cells[(row * buffer.columns)..<((row + 1) * buffer.columns)] {
            if let grapheme = cell.grapheme {
                if let ascii = grapheme.asciiValue { mix(UInt64(ascii)) } else { grapheme.utf8.forEach { mix(UInt64($0)) } }
            }
            mix(UInt64(cell.width) << 8)
            mix(colorCode(cell.style.foreground))
            mix(colorCode(cell.style.background) ^ UInt64(cell.style.attributes.rawValue) << 40)
        }
        return hash
    }

    private static func colorCode(_ color: TerminalColor) -> UInt64 {
        switch color {
        case .default: 1 << 32
        case .ansi(let index): 2 << 32 | UInt64(index)
        case .indexed(let index): 3 << 32 | UInt64(index)
        case .rgb(let red, let green, let blue): 4 << 32 | UInt64(red) << 16 | UInt64(green) << 8 | UInt64(blue)
        }
    }

    // MARK: - Cells

    private mutating func drawDifferences(_ frame: CellBuffer, screen: inout CellBuffer, into out: inout EscapeSequenceWriter) {
        let columns = frame.columns
        for row in 0..<frame.rows {
            let base = row * columns
            var column = 0
            var blankTail: Int?
            while column < columns {
                if frame.cells[base + column] == screen.cells[base + column] {
                    column += 1
                    continue
                }
                // A changed continuation means its wide character changed: draw from there.
                let start = frame.cells[base + column].width == 0 ? column - 1 : column
                let tail = blankTail ?? Self.blankTail(of: frame, row: row)
                blankTail = tail
                if start >= tail && columns - start > 3 {
                    move(to: Position(row: row, column: start), into: &out)
                    setPen(.plain, into: &out)
                    out.csi(0, omitted: 0, 0x4B)
                    for index in (base + start)..<(base + columns) { screen.overwrite(.blank, at: index) }
                    break
                }
                move(to: Position(row: row, column: start), into: &out)
                column = drawRun(frame, row: row, from: start, screen: &screen, into: &out)
            }
        }
    }

    /// Writes cells from `start` while they differ, and across short gaps of equal cells when
    /// rewriting them is shorter than moving the cursor past them; returns where it stopped.
    private mutating func drawRun(_ frame: CellBuffer, row: Int, from start: Int, screen: inout CellBuffer, into out: inout EscapeSequenceWriter) -> Int {
        let columns = frame.columns
        let base = row * columns
        var column = start
        while column < columns {
            let cell = frame.cells[base + column]
            if cell == screen.cells[base + column] {
                guard cursor != nil, let gapEnd = rewritableGap(frame, row: row, from: column, screen: screen) else { return column }
                while column < gapEnd { column = drawCell(frame, row: row, column: column, screen: &screen, into: &out) }
            } else {
                // After an unsettled cluster the cursor is unknown: place the next cell.
                if cursor == nil { move(to: Position(row: row, column: column), into: &out) }
                column = drawCell(frame, row: row, column: column, screen: &screen, into: &out)
            }
        }
        return column
    }

    /// The end of the gap of unchanged cells at `column` if another change follows it on the
    /// row and rewriting the gap (all in the current pen, all ASCII) is shorter than a cursor
    /// move over it; nil otherwise.
    private func rewritableGap(_ frame: CellBuffer, row: Int, from column: Int, screen: CellBuffer) -> Int? {
        let base = row * frame.columns
        var end = column
        while end < frame.columns && frame.cells[base + end] == screen.cells[base + end] {
            let cell = frame.cells[base + end]
            guard cell.style == penSource, cell.grapheme?.asciiValue != nil, end - column < 4 else { return nil }
            end += 1
        }
        guard end < frame.columns else { return nil }
        return end - column < EscapeSequenceWriter.csiLength(end - column) ? end : nil
    }

    /// Writes the cell at `column` (a whole wide character) and updates the model; returns the
    /// column after it.
    private mutating func drawCell(_ frame: CellBuffer, row: Int, column: Int, screen: inout CellBuffer, into out: inout EscapeSequenceWriter) -> Int {
        let index = row * frame.columns + column
        let cell = frame.cells[index]
        let span = cell.width == 2 ? 2 : 1
        setPen(cell.style, colourIsData: cell.isKittyPlaceholder, into: &out)
        let grapheme = cell.grapheme ?? " "
        let reach = DisplayWidth.columnsTerminalsMayUse(grapheme)
        let isSettled = reach == span...span
        if isSettled {
            out.append(grapheme)
        } else {
            out.csi(span, 0x58)
            let crossesEdge = column + reach.upperBound > frame.columns
            if crossesEdge { out.append(Self.autowrapOff) }
            out.append(grapheme)
            if crossesEdge { out.append(Self.autowrapOn) }
        }
        // Writing over half of a wide character blanks its other half on the terminal, which
        // the model does not follow: the frame cannot hold that half there either (it keeps
        // pairs whole), so that cell differs and is drawn in this same pass.
        screen.overwrite(cell, at: index)
        if span == 2 { screen.overwrite(frame.cells[index + 1], at: index + 1) }
        let next = column + span
        guard isSettled else {
            for covered in next..<min(column + reach.upperBound, frame.columns) {
                screen.overwrite(Self.unknownCell, at: row * frame.columns + covered)
            }
            cursor = nil
            return next
        }
        cursor = next < frame.columns ? Position(row: row, column: next) : nil
        return next
    }

    /// The first column from which the rest of `row` is blank in the default style.
    private static func blankTail(of frame: CellBuffer, row: Int) -> Int {
        var column = frame.columns
        while column > 0 && frame[row, column - 1] == .blank { column -= 1 }
        return column
    }

    // MARK: - Pen and cursor

    /// Sets the pen for cells of `style`, its colours as the colour mode can show them; when
    /// `colourIsData` (a kitty placeholder, whose foreground names its image), the foreground
    /// is written as it is.
    private mutating func setPen(_ style: CellStyle, colourIsData: Bool = false, into out: inout EscapeSequenceWriter) {
        if style == penSource && pen != nil && colourIsData == penIsData { return }
        var resolved = resolve(style)
        if colourIsData { resolved.foreground = style.foreground }
        if resolved != pen { out.selectGraphicRendition(from: pen, to: resolved) }
        pen = resolved
        penSource = style
        penIsData = colourIsData
    }

    private mutating func resolve(_ style: CellStyle) -> CellStyle {
        guard options.colorMode != .truecolor else { return style }
        return CellStyle(foreground: resolve(style.foreground), background: resolve(style.background), attributes: style.attributes)
    }

    private mutating func resolve(_ color: TerminalColor) -> TerminalColor {
        guard case .rgb = color else { return options.colorMode.resolve(color) }
        if let known = resolvedColors[color] { return known }
        let resolved = options.colorMode.resolve(color)
        resolvedColors[color] = resolved
        return resolved
    }

    /// Moves the cursor by the shortest of an absolute move, a relative one, or a carriage
    /// return followed by a vertical move.
    private mutating func move(to target: Position, into out: inout EscapeSequenceWriter) {
        defer { cursor = target }
        guard let cursor else { return out.moveCursor(row: target.row, column: target.column) }
        let rows = target.row - cursor.row
        let columns = target.column - cursor.column
        let vertical = rows == 0 ? 0 : EscapeSequenceWriter.csiLength(abs(rows))
        let absolute = EscapeSequenceWriter.cursorPositionLength(row: target.row, column: target.column)
        let relative = vertical + (columns == 0 ? 0 : EscapeSequenceWriter.csiLength(abs(columns)))
        let carriageReturn = target.column == 0 ? 1 + vertical : Int.max
        if relative <= min(absolute, carriageReturn) {
            if rows != 0 { out.csi(abs(rows), rows > 0 ? 0x42 : 0x41) }
            if columns != 0 { out.csi(abs(columns), columns > 0 ? 0x43 : 0x44) }
        } else if carriageReturn < absolute {
            out.append([0x0D])
            if rows != 0 { out.csi(abs(rows), rows > 0 ? 0x42 : 0x41) }
        } else {
            out.moveCursor(row: target.row, column: target.column)
        }
    }
}
