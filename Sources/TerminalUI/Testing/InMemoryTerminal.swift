import Thumbnails
/// A terminal in memory: it interprets the bytes a real one would receive into a screen of
/// cells, for tests and benchmarks of what the renderer writes.
///
/// It understands every sequence ``FrameRenderer`` and ``TerminalSession`` emit, and the
/// usual neighbours of each, with xterm's behaviour: printable UTF-8 with autowrap and a
/// pending wrap in the last column, CR, LF (scrolling at the bottom margin), BS; CSI cursor
/// moves (CUP, CUU, CUD, CUF, CUB, CHA, VPA), erase (ED, EL, ECH), SGR (attributes, 16, 256 and
/// 24-bit colours), scroll margins (DECSTBM), scrolling (SU, SD), private modes (`? n h/l`,
/// including 2026, synchronized output), ESC 7 / ESC 8, and kitty graphics commands (recorded
/// in ``graphicsCommands``; placeholder cells are ordinary text). Erasing and scrolling fill with
/// the current background, as xterm's back-colour erase does. Anything else is recorded in
/// ``unsupported`` rather than guessed at, so a test can insist on an empty list.
///
/// Sequences split across ``apply(_:)`` calls are put together.
///
/// It measures text as ``DisplayWidth`` does, or, to stand for the terminals that disagree
/// with it, code point by code point as tmux 3.3a does (``Widths/codePoints``). Autowrap can be
/// turned off (DECAWM, `CSI ? 7 l`): then a character past the right edge overwrites the last
/// column, and a wide one that does not fit is dropped, as tmux does.
public struct InMemoryTerminal: Sendable {
    /// How a terminal measures the text it prints.
    public enum Widths: Sendable {
        /// Cluster by cluster, as ``DisplayWidth`` does: the terminal shows what the frame holds.
        case clusters
        /// Code point by code point, as tmux 3.3a does: each code point is as wide as the C
        /// library's `wcwidth` says (``DisplayWidth`` of the code point alone), a code point of
        /// no width joins the cell before the cursor, and so does a wide one after a zero-width
        /// joiner, however much was printed in between.
        case codePoints
    }

    /// How this terminal measures text.
    public let widths: Widths
    /// What the screen shows.
    public private(set) var screen: CellBuffer
    /// The cursor's row, from 0.
    public private(set) var cursorRow = 0
    /// The cursor's column, from 0.
    public private(set) var cursorColumn = 0
    /// The current SGR state.
    public private(set) var pen = CellStyle.plain
    /// The DEC private modes set (`CSI ? n h`) and not reset since.
    public private(set) var privateModes: Set<Int> = []
    /// How many synchronized updates (mode 2026) were opened and closed.
    public private(set) var completedSynchronizedUpdates = 0
    /// The kitty graphics commands received (`ESC _ G … ESC \`), each as its text after the `G`;
    /// the images themselves are not drawn.
    public private(set) var graphicsCommands: [String] = []
    /// The kitty images held, by id, with their size in pixels, from the transmit commands
    /// (`a=t`, `a=T`), less the deleted ones.
    public private(set) var kittyImages: [Int: (width: Int, height: Int)] = [:]
    /// The kitty placements shown (`a=p`, and `a=T`'s own), by image and placement id: the
    /// cell the cursor was on and the keys that crop and shift it, less the deleted ones.
    public private(set) var kittyPlacements: [KittyPlacementID: KittyPlacement] = [:]
    /// The kitty images placed virtually (`U=1`), by id, with their box in cells: shown where
    /// placeholders name them (``kittyPlaceholder(atRow:column:)``), drawn nowhere else.
    public private(set) var kittyVirtualPlacements: [Int: (columns: Int, rows: Int)] = [:]
    /// The capability queries received (``TerminalCapabilities/query``'s: a mode, the cell
    /// and window sizes, the version, the device attributes), as text with ESC shown as `^[`;
    /// this terminal answers none of them, as a terminal that does not know them.
    public private(set) var queries: [String] = []
    /// Sequences the terminal did not understand, in order, as text with ESC shown as `^[`.
    public private(set) var unsupported: [String] = []
    /// Whether a character printed past the last column goes to the next line (DEC mode 7).
    public private(set) var autowraps = true
    /// The images drawn inline, sixel (`ESC P … q … ESC \`) and iTerm2 (`ESC ] 1337 ; File=…`),
    /// decoded, in order: the index of each is what ``inlineCells`` names.
    public private(set) var inlineImages: [PixelBuffer] = []
    /// Which inline image's pixels each cell shows (row-major), nil where none: an image drawn
    /// at the cursor claims the cells its drawn pixels reach, in cells of ``cellPixelSize``;
    /// erasing cells (`ECH`, `EL`, `ED`) erases the pixels in them, and scrolling moves them
    /// with the text, as xterm does. Printing text over them leaves them, as the most careful
    /// reading of what a terminal may do.
    public private(set) var inlineCells: [Int?]
    /// The size of a cell in pixels, for inline images.
    public var cellPixelSize = CellPixelSize(width: 10, height: 20)

    private var scrollTop = 0
    private var scrollBottom: Int
    private var pendingWrap = false
    private var saved: (row: Int, column: Int, pen: CellStyle)?
    private var partial: [UInt8] = []
    private var text: [UInt8] = []
    /// The last character printed and where, while nothing but text has followed it.
    private var lastPrinted: (row: Int, column: Int, character: Character)?
    /// Whether a zero-width joiner waits for a wide code point to join (``Widths/codePoints``).
    private var joinerWaits = false

    /// A blank terminal of `columns` × `rows` that measures text as `widths` says.
    public init(columns: Int, rows: Int, widths: Widths = .clusters) {
        screen = CellBuffer(columns: columns, rows: rows)
        inlineCells = Array(repeating: nil, count: columns * rows)
        scrollBottom = rows - 1
        self.widths = widths
    }

    /// Whether a synchronized update is open: the screen a person would see is the one before it.
    public var isInSynchronizedUpdate: Bool { privateModes.contains(2026) }

    /// Interprets `bytes`.
    /// - Complexity: O(n) in the bytes, plus the cells that scrolling and erasing touch.
    public mutating func apply(_ bytes: [UInt8]) {
        let input = partial + bytes
        partial = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte >= 0x20 && byte != 0x7F {
                text.append(byte)
                index += 1
                continue
            }
            flushText()
            lastPrinted = nil
            if byte == 0x1B {
                guard let length = Self.sequenceLength(input, from: index) else {
                    partial = Array(input[index...])
                    return
                }
                escape(Array(input[index..<(index + length)]))
                index += length
                continue
            }
            control(byte)
            index += 1
        }
        flushText(keepingIncompleteUTF8: true)
    }

    /// The length of the escape sequence at `start`, or nil if it is not complete yet.
    private static func sequenceLength(_ input: [UInt8], from start: Int) -> Int? {
        guard start + 1 < input.count else { return nil }
        switch input[start + 1] {
        case 0x5B:
            var index = start + 2
            while index < input.count {
                if (0x40...0x7E).contains(input[index]) { return index - start + 1 }
                index += 1
            }
            return nil
        case 0x5D, 0x5F, 0x50:
            var index = start + 2
            // tmux's passthrough doubles every ESC inside it.
            let passthrough = input[start + 1] == 0x50 && input[index...].starts(with: Array("tmux;".utf8))
            while index < input.count {
                if passthrough, input[index] == 0x1B, index + 1 < input.count, input[index + 1] == 0x1B {
                    index += 2
                    continue
                }
                if input[index] == 0x07 { return index - start + 1 }
                if input[index] == 0x1B, index + 1 < input.count, input[index + 1] == 0x5C { return index - start + 2 }
                index += 1
            }
            return nil
        default:
            return 2
        }
    }

    // MARK: - Text

    /// Prints the text collected so far. A character split across ``apply(_:)`` calls is put
    /// back together: incomplete UTF-8 waits for its last bytes, and scalars that extend the
    /// cluster printed last (a skin tone after its emoji) redraw that cell, as terminals do.
    private mutating func flushText(keepingIncompleteUTF8: Bool = false) {
        var pending: [UInt8] = []
        if keepingIncompleteUTF8, !text.isEmpty, let cut = Self.incompleteUTF8Start(text) {
            pending = Array(text[cut...])
            text.removeSubrange(cut...)
        }
        defer { text = pending }
        guard !text.isEmpty else { return }
        var string = String(decoding: text, as: UTF8.self)
        if widths == .codePoints {
            for scalar in string.unicodeScalars { print(codePoint: scalar) }
            return
        }
        if let last = lastPrinted {
            let joined = String(last.character) + string
            if joined.first != last.character {
                (cursorRow, cursorColumn) = (last.row, last.column)
                pendingWrap = false
                string = joined
            }
        }
        for character in string { print(character) }
    }

    /// Where a UTF-8 sequence that `bytes` ends in the middle of starts, if it does.
    private static func incompleteUTF8Start(_ bytes: [UInt8]) -> Int? {
        for back in 1...min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? bytes.count - back : nil
        }
        return nil
    }

    private mutating func print(_ character: Character) {
        let width = DisplayWidth.of(character)
        guard width > 0 else { return unsupported.append("zero-width \(character.unicodeScalars.map { "U+\(String($0.value, radix: 16))" })") }
        put(character, width: width)
    }

    /// Prints one code point the way tmux 3.3a does; see ``Widths/codePoints``.
    private mutating func print(codePoint scalar: Unicode.Scalar) {
        let width = DisplayWidth.codePointWidth(scalar)
        guard width == 0 || (joinerWaits && width == 2) else { return put(Character(scalar), width: width) }
        if scalar == "\u{200D}" {
            joinerWaits = true
        } else if width == 2 {
            joinerWaits = false
        }
        // The cell before the cursor, or the one the cursor waits after at the right edge.
        var column = pendingWrap ? cursorColumn : cursorColumn - 1
        if column > 0 && screen[cursorRow, column].width == 0 { column -= 1 }
        guard column >= 0, let grapheme = screen[cursorRow, column].grapheme else { return }
        // A cell holds one Character: what would not make one with it is dropped.
        let joined = String(grapheme) + String(scalar)
        guard joined.count == 1 else { return }
        let cell = screen[cursorRow, column]
        screen.place(Cell(grapheme: Character(joined), style: cell.style, width: cell.width), row: cursorRow, column: column)
    }

    /// Prints `grapheme` at the cursor, `width` columns wide, wrapping as autowrap says.
    private mutating func put(_ grapheme: Character, width: Int) {
        if autowraps {
            if pendingWrap || (width == 2 && cursorColumn == screen.columns - 1) {
                cursorColumn = 0
                lineFeed()
            }
        } else if cursorColumn + width > screen.columns {
            return
        }
        pendingWrap = false
        screen.place(Cell(grapheme: grapheme, style: pen, width: UInt8(width)), row: cursorRow, column: cursorColumn)
        lastPrinted = (cursorRow, cursorColumn, grapheme)
        cursorColumn += width
        if cursorColumn >= screen.columns {
            cursorColumn = screen.columns - 1
            pendingWrap = true
        }
    }

    private mutating func control(_ byte: UInt8) {
        switch byte {
        case 0x0D:
            cursorColumn = 0
            pendingWrap = false
        case 0x0A:
            lineFeed()
            pendingWrap = false
        case 0x08:
            cursorColumn = max(0, cursorColumn - 1)
            pendingWrap = false
        case 0x07:
            break
        default:
            unsupported.append("^" + String(UnicodeScalar(byte ^ 0x40)))
        }
    }

    private mutating func lineFeed() {
        if cursorRow == scrollBottom {
            scroll(by: -1)
        } else if cursorRow < screen.rows - 1 {
            cursorRow += 1
        }
    }

    // MARK: - Sequences

    private mutating func escape(_ sequence: [UInt8]) {
        switch sequence[1] {
        case 0x5B:
            controlSequence(sequence)
        case 0x37:
            saved = (cursorRow, cursorColumn, pen)
        case 0x38:
            if let saved { (cursorRow, cursorColumn, pen) = saved }
            pendingWrap = false
        case 0x50 where sequence.starts(with: Array("\u{1B}Ptmux;".utf8)):
            // What tmux passes through (`allow-passthrough on`) reaches this terminal, as the
            // one outside tmux.
            var inner: [UInt8] = []
            var index = 7
            while index < sequence.count - 2 {
                inner.append(sequence[index])
                index += sequence[index] == 0x1B && sequence[index + 1] == 0x1B ? 2 : 1
            }
            apply(inner)
        case 0x50:
            guard let image = SixelDecoder.decode(sequence) else { return unsupported.append(Self.shown(Array(sequence.prefix(8)))) }
            drawInline(image)
        case 0x5D where sequence.starts(with: Array("\u{1B}]1337;File=".utf8)):
            guard let image = Self.iTermImage(sequence) else { return unsupported.append(Self.shown(Array(sequence.prefix(16)))) }
            drawInline(image)
        case 0x5F where sequence.count > 4 && sequence[2] == 0x47:
            let command = String(decoding: sequence[3..<(sequence.count - 2)], as: UTF8.self)
            graphicsCommands.append(command)
            kittyGraphics(command)
        default:
            unsupported.append(Self.shown(sequence))
        }
    }

    /// The picture of an iTerm2 inline image: its base64 after the `:`, decoded as an image file.
    private static func iTermImage(_ sequence: [UInt8]) -> PixelBuffer? {
        guard let colon = sequence.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let end = sequence.last == 0x07 ? sequence.count - 1 : sequence.count - 2
        guard let file = Base64.decode(Array(sequence[(colon + 1)..<end])) else { return nil }
        return try? ThumbnailDecoder().decode(file)
    }

    /// Draws an inline image at the cursor: the cells its drawn pixels reach show it now.
    private mutating func drawInline(_ image: PixelBuffer) {
        let id = inlineImages.count
        inlineImages.append(image)
        let (cellWidth, cellHeight) = (cellPixelSize.width, cellPixelSize.height)
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y].alpha > 0 {
                let row = cursorRow + y / cellHeight
                let column = cursorColumn + x / cellWidth
                if row < screen.rows, column < screen.columns { inlineCells[row * screen.columns + column] = id }
            }
        }
    }

    /// Which inline image shows in the cell at `row`, `column`, if any.
    public func inlineImage(atRow row: Int, column: Int) -> Int? {
        inlineCells[row * screen.columns + column]
    }

    /// Follows a kitty graphics command's effect on the images and placements held.
    private mutating func kittyGraphics(_ command: String) {
        let control = command.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        var keys: [String: String] = [:]
        for pair in control.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { keys[String(parts[0])] = String(parts[1]) }
        }
        let number = { (key: String) in keys[key].flatMap { Int($0) } }
        // A continuation chunk (`m=…` alone) adds data to the image its first chunk named.
        guard let action = keys["a"] ?? (keys["s"] != nil ? "t" : nil) else { return }
        let id = number("i") ?? 0
        switch action {
        case "t", "T":
            kittyImages[id] = (number("s") ?? 0, number("v") ?? 0)
            kittyPlacements = kittyPlacements.filter { $0.key.image != id }
            kittyVirtualPlacements[id] = nil
            if action == "T" { place(id, keys, number) }
        case "p":
            place(id, keys, number)
        case "d":
            switch keys["d"] ?? "a" {
            case "i":
                if let placement = number("p") {
                    kittyPlacements[KittyPlacementID(image: id, placement: placement)] = nil
                } else {
                    kittyPlacements = kittyPlacements.filter { $0.key.image != id }
                }
            case "I":
                kittyPlacements = kittyPlacements.filter { $0.key.image != id }
                kittyImages[id] = nil
                kittyVirtualPlacements[id] = nil
            case "A":
                // As kitty does: the placements on screen go, and the images they showed.
                for image in Set(kittyPlacements.keys.map(\.image)) { kittyImages[image] = nil }
                kittyPlacements = [:]
            case "a":
                kittyPlacements = [:]
            default:
                unsupported.append("kitty delete d=\(keys["d"] ?? "")")
            }
        case "q":
            break
        default:
            unsupported.append("kitty a=\(action)")
        }
    }

    /// Places image `id` at the cursor, or, for `U=1`, virtually: its placeholders show it.
    private mutating func place(_ id: Int, _ keys: [String: String], _ number: (String) -> Int?) {
        if keys["U"] == "1" {
            kittyVirtualPlacements[id] = (number("c") ?? 1, number("r") ?? 1)
        } else {
            kittyPlacements[KittyPlacementID(image: id, placement: number("p") ?? 0)] = placement(keys, number)
        }
    }

    /// What the kitty placeholder in the cell at `row`, `column` shows: the image its colour
    /// names (a 256-colour index, or 24 bits of red, green and blue, with its third diacritic
    /// as the top byte), and the row and column of the image's virtual placement its first two
    /// diacritics name; nil when the cell holds no placeholder, or one whose image has no
    /// virtual placement, which kitty draws as nothing.
    public func kittyPlaceholder(atRow row: Int, column: Int) -> (image: Int, row: Int, column: Int)? {
        let cell = screen[row, column]
        guard let scalars = cell.grapheme?.unicodeScalars, scalars.first == "\u{10EEEE}", (3...4).contains(scalars.count) else { return nil }
        let marks = scalars.dropFirst().map { KittyGraphics.diacritics.firstIndex(of: $0.value) }
        var image: Int
        switch cell.style.foreground {
        case .indexed(let index): image = Int(index)
        case .rgb(let red, let green, let blue): image = Int(red) << 16 | Int(green) << 8 | Int(blue)
        case .ansi, .default: return nil
        }
        if marks.count == 3 {
            guard let top = marks[2] else { return nil }
            image |= top << 24
        }
        guard let placeRow = marks[0], let placeColumn = marks[1], let box = kittyVirtualPlacements[image],
              placeRow < box.rows, placeColumn < box.columns else { return nil }
        return (image, placeRow, placeColumn)
    }

    private func placement(_ keys: [String: String], _ number: (String) -> Int?) -> KittyPlacement {
        KittyPlacement(row: cursorRow, column: cursorColumn, sourceY: number("y") ?? 0, sourceHeight: number("h"),
                       offsetX: number("X") ?? 0, offsetY: number("Y") ?? 0, columns: number("c"), rows: number("r"))
    }

    /// The control sequences of ``TerminalCapabilities/query``.
    private static let capabilityQueries: Set<[UInt8]> = Set(
        ["\u{1B}[?2026$p", "\u{1B}[16t", "\u{1B}[14t", "\u{1B}[>0q", "\u{1B}[c"].map { Array($0.utf8) })

    private mutating func controlSequence(_ sequence: [UInt8]) {
        if Self.capabilityQueries.contains(sequence) { return queries.append(Self.shown(sequence)) }
        let final = sequence.last!
        var body = sequence[2..<(sequence.count - 1)]
        let isPrivate = body.first == 0x3F
        if isPrivate { body = body.dropFirst() }
        guard body.allSatisfy({ (0x30...0x3B).contains($0) }) else { return unsupported.append(Self.shown(sequence)) }
        let parameters = body.split(separator: 0x3B, omittingEmptySubsequences: false).map { Int(String(decoding: $0, as: UTF8.self)) }
        func parameter(_ index: Int, default value: Int) -> Int {
            index < parameters.count ? (parameters[index] ?? value) : value
        }
        let count = max(1, parameter(0, default: 1))
        if isPrivate {
            guard final == 0x68 || final == 0x6C else { return unsupported.append(Self.shown(sequence)) }
            for mode in parameters.compactMap({ $0 }) {
                if mode == 7 { autowraps = final == 0x68 }
                if final == 0x68 {
                    privateModes.insert(mode)
                } else if privateModes.remove(mode) == 2026 {
                    completedSynchronizedUpdates += 1
                }
            }
            return
        }
        pendingWrap = false
        switch final {
        case 0x48, 0x66:
            cursorRow = clamp(parameter(0, default: 1) - 1, screen.rows)
            cursorColumn = clamp(parameter(1, default: 1) - 1, screen.columns)
        case 0x41:
            cursorRow = max(cursorRow >= scrollTop ? scrollTop : 0, cursorRow - count)
        case 0x42:
            cursorRow = min(cursorRow <= scrollBottom ? scrollBottom : screen.rows - 1, cursorRow + count)
        case 0x43:
            cursorColumn = min(screen.columns - 1, cursorColumn + count)
        case 0x44:
            cursorColumn = max(0, cursorColumn - count)
        case 0x47:
            cursorColumn = clamp(count - 1, screen.columns)
        case 0x64:
            cursorRow = clamp(count - 1, screen.rows)
        case 0x4A:
            eraseDisplay(parameter(0, default: 0))
        case 0x4B:
            eraseLine(parameter(0, default: 0))
        case 0x58:
            erase(row: cursorRow, columns: cursorColumn..<min(screen.columns, cursorColumn + count))
        case 0x6D:
            selectGraphicRendition(parameters.map { $0 ?? 0 }, sequence)
        case 0x72:
            let top = parameter(0, default: 1) - 1
            let bottom = parameter(1, default: screen.rows) - 1
            if top >= 0 && top < bottom && bottom < screen.rows {
                (scrollTop, scrollBottom) = (top, bottom)
                (cursorRow, cursorColumn) = (0, 0)
            } else {
                unsupported.append(Self.shown(sequence))
            }
        case 0x53:
            scroll(by: -count)
        case 0x54:
            scroll(by: count)
        default:
            unsupported.append(Self.shown(sequence))
        }
    }

    private func clamp(_ value: Int, _ limit: Int) -> Int {
        min(max(value, 0), limit - 1)
    }

    // MARK: - Erasing and scrolling

    private var erased: Cell { .blank(style: CellStyle(background: pen.background)) }

    private mutating func erase(row: Int, columns: Range<Int>) {
        for column in columns { screen.place(erased, row: row, column: column) }
        for column in columns where column < screen.columns { inlineCells[row * screen.columns + column] = nil }
    }

    private mutating func eraseLine(_ mode: Int) {
        switch mode {
        case 0: erase(row: cursorRow, columns: cursorColumn..<screen.columns)
        case 1: erase(row: cursorRow, columns: 0..<(cursorColumn + 1))
        default: erase(row: cursorRow, columns: 0..<screen.columns)
        }
    }

    private mutating func eraseDisplay(_ mode: Int) {
        switch mode {
        case 0:
            eraseLine(0)
            for row in (cursorRow + 1)..<max(screen.rows, cursorRow + 1) { erase(row: row, columns: 0..<screen.columns) }
        case 1:
            for row in 0..<cursorRow { erase(row: row, columns: 0..<screen.columns) }
            eraseLine(1)
        default:
            // Clearing the screen takes kitty's placements with it, as kitty does; its images stay.
            kittyPlacements = [:]
            for row in 0..<screen.rows { erase(row: row, columns: 0..<screen.columns) }
        }
    }

    /// Moves the rows between the margins by `offset` (negative: up), filling with blanks.
    private mutating func scroll(by offset: Int) {
        screen.scroll(rows: scrollTop...scrollBottom, by: offset, filling: erased)
        let columns = screen.columns
        let old = inlineCells
        for row in scrollTop...scrollBottom {
            let from = row - offset
            for column in 0..<columns {
                inlineCells[row * columns + column] = (scrollTop...scrollBottom).contains(from) ? old[from * columns + column] : nil
            }
        }
    }

    // MARK: - SGR

    private mutating func selectGraphicRendition(_ parameters: [Int], _ sequence: [UInt8]) {
        var index = 0
        func color() -> TerminalColor? {
            guard index + 1 < parameters.count else { return nil }
            switch parameters[index + 1] {
            case 5 where index + 2 < parameters.count && parameters[index + 2] < 256:
                index += 2
                return .indexed(UInt8(parameters[index]))
            case 2 where index + 4 < parameters.count && parameters[(index + 2)...(index + 4)].allSatisfy({ $0 < 256 }):
                index += 4
                return .rgb(UInt8(parameters[index - 2]), UInt8(parameters[index - 1]), UInt8(parameters[index]))
            default:
                return nil
            }
        }
        while index < parameters.count {
            let code = parameters[index]
            switch code {
            case 0: pen = .plain
            case 1: pen.attributes.insert(.bold)
            case 2: pen.attributes.insert(.dim)
            case 3: pen.attributes.insert(.italic)
            case 4: pen.attributes.insert(.underline)
            case 7: pen.attributes.insert(.reverse)
            case 9: pen.attributes.insert(.strikethrough)
            case 22: pen.attributes.subtract([.bold, .dim])
            case 23: pen.attributes.remove(.italic)
            case 24: pen.attributes.remove(.underline)
            case 27: pen.attributes.remove(.reverse)
            case 29: pen.attributes.remove(.strikethrough)
            case 30...37: pen.foreground = .ansi(UInt8(code - 30))
            case 39: pen.foreground = .default
            case 40...47: pen.background = .ansi(UInt8(code - 40))
            case 49: pen.background = .default
            case 90...97: pen.foreground = .ansi(UInt8(code - 82))
            case 100...107: pen.background = .ansi(UInt8(code - 92))
            case 38, 48:
                guard let value = color() else { return unsupported.append(Self.shown(sequence)) }
                if code == 38 { pen.foreground = value } else { pen.background = value }
            default:
                unsupported.append(Self.shown(sequence))
            }
            index += 1
        }
    }

    private static func shown(_ sequence: [UInt8]) -> String {
        TerminalSanitizer.sanitized(String(decoding: sequence, as: UTF8.self), lineBreaks: .shown)
    }
}

extension CellBuffer {
    /// This buffer with every cell's style passed through `transform`: for instance the frame
    /// as a terminal in some ``ColorMode`` shows it.
    package func mapStyles(_ transform: (CellStyle) -> CellStyle) -> CellBuffer {
        var copy = self
        for index in cells.indices {
            var cell = cells[index]
            cell.style = transform(cell.style)
            copy.overwrite(cell, at: index)
        }
        return copy
    }
}
