import Testing
import TerminalUI
import Thumbnails

/// kitty's Unicode placeholders frame after frame: the images the in-memory terminal keeps, and
/// the placeholder cells it reads back through the renderer.
@Suite struct KittyPlaceholdersTests {
    typealias Placeholders = KittyPlaceholders<String, String>

    static func picture(_ spot: String, image: String? = nil, row: Int, column: Int = 2, clip: Range<Int> = 1..<29) -> Placeholders.Picture {
        Placeholders.Picture(spot: spot, image: image ?? spot, pixels: PixelBuffer(width: 120, height: 80), row: row, column: column,
                             columns: 12, rows: 4, clip: clip)
    }

    /// A frame of `pictures` over a blank screen of 80 × 30 with a grey band on row 5, rendered
    /// into `terminal` in `colorMode`.
    static func show(_ pictures: [Placeholders.Picture], with placeholders: inout Placeholders, renderer: inout FrameRenderer,
                     on terminal: inout InMemoryTerminal) {
        var buffer = CellBuffer(columns: 80, rows: 30)
        buffer.fill(row: 5, column: 0, width: 80, height: 1, with: Cell(" ", style: CellStyle(background: .indexed(236))))
        terminal.apply(placeholders.frame(pictures, into: &buffer).before + renderer.render(buffer))
    }

    /// Where each image is shown on `terminal`: the screen cell of each of its placeholders'
    /// (row, column), which must all name a row and column of its box once.
    static func shown(_ terminal: InMemoryTerminal) -> [Int: [[Int]]] {
        var cells: [Int: [[Int]]] = [:]
        for row in 0..<terminal.screen.rows {
            for column in 0..<terminal.screen.columns {
                guard let placeholder = terminal.kittyPlaceholder(atRow: row, column: column) else { continue }
                // A placeholder names its place in the box: the box's top left is where it says.
                cells[placeholder.image, default: []].append([row - placeholder.row, column - placeholder.column])
            }
        }
        return cells
    }

    @Test func aPictureIsSentOnceAndShownByTextThatMovesWithItsRow() {
        var placeholders = Placeholders()
        var renderer = FrameRenderer(options: .init(colorMode: .truecolor))
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        Self.show([Self.picture("a", row: 3), Self.picture("b", row: 8)], with: &placeholders, renderer: &renderer, on: &terminal)
        #expect(terminal.unsupported.isEmpty)
        #expect(terminal.kittyImages.count == 2 && terminal.kittyPlacements.isEmpty)
        #expect(terminal.kittyVirtualPlacements.values.allSatisfy { $0 == (12, 4) })
        var shown = Self.shown(terminal)
        #expect(shown.count == 2)
        // Every cell of both boxes, each naming its own row and column of the picture.
        #expect(shown.values.map { Set($0) }.sorted { $0.first![0] < $1.first![0] } == [[[3, 2]], [[8, 2]]])
        #expect(shown.values.allSatisfy { $0.count == 48 })

        // Both move up two rows, a third arrives: only the third is sent.
        let commands = terminal.graphicsCommands.count
        Self.show([Self.picture("a", row: 1), Self.picture("b", row: 6), Self.picture("c", row: 12)],
                  with: &placeholders, renderer: &renderer, on: &terminal)
        #expect(terminal.graphicsCommands[commands...].filter { $0.hasPrefix("a=T") }.count == 1)
        shown = Self.shown(terminal)
        #expect(Set(shown.values.map { Set($0) }) == [[[1, 2]], [[6, 2]], [[12, 2]]])
        // The band's background stays under the placeholders on row 5.
        #expect(terminal.screen[5, 4].style.background == .indexed(236))

        // "a" leaves: nothing is sent for it, and its cells are simply drawn over.
        let before = terminal.graphicsCommands.count
        Self.show([Self.picture("b", row: 6), Self.picture("c", row: 12)], with: &placeholders, renderer: &renderer, on: &terminal)
        #expect(terminal.graphicsCommands.count == before)
        #expect(Self.shown(terminal).count == 2)

        // The end: every image is freed, by id.
        terminal.apply(placeholders.deleteAll())
        #expect(terminal.kittyImages.isEmpty && terminal.kittyVirtualPlacements.isEmpty)
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func aBoxHalfOutOfItsBandShowsTheRowsInsideIt() {
        var placeholders = Placeholders()
        var renderer = FrameRenderer()
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        // Two rows above the band: the box's rows 2 and 3 show, on screen rows 1 and 2.
        Self.show([Self.picture("a", row: -1)], with: &placeholders, renderer: &renderer, on: &terminal)
        let rows = (0..<30).compactMap { row in terminal.kittyPlaceholder(atRow: row, column: 2).map { [row, $0.row] } }
        #expect(rows == [[1, 2], [2, 3]])
        // At the right edge, the columns past the screen are not drawn, and the box keeps its size.
        Self.show([Self.picture("a", row: 10, column: 74)], with: &placeholders, renderer: &renderer, on: &terminal)
        #expect((74..<80).allSatisfy { terminal.kittyPlaceholder(atRow: 10, column: $0)?.column == $0 - 74 })
        #expect(terminal.kittyVirtualPlacements.values.first.map { $0 == (12, 4) } == true)
    }

    @Test func theIdSurvivesAColourModeThatWouldApproximateIt() {
        // 16 colours (tmux's default TERM=screen): a placeholder's colour is its image's id and
        // goes as it is, while ordinary text beside it in the same colour is approximated.
        var placeholders = Placeholders(idTopByte: 0)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        var buffer = CellBuffer(columns: 80, rows: 30)
        _ = buffer.write("id", row: 0, column: 0, style: CellStyle(foreground: .indexed(1)))
        terminal.apply(placeholders.frame([Self.picture("a", row: 3)], into: &buffer).before)
        var renderer = FrameRenderer(options: .init(colorMode: .palette16))
        terminal.apply(renderer.render(buffer))
        #expect(terminal.kittyPlaceholder(atRow: 3, column: 2).map { [$0.image, $0.row, $0.column] } == [1, 0, 0])
        #expect(Self.shown(terminal)[1]?.count == 48)
        #expect(terminal.screen[0, 0].style.foreground == .ansi(1))
    }

    @Test func theLeastRecentlyShownImageMakesRoomAndThroughTmuxEveryCommandIsWrapped() {
        var placeholders = Placeholders(capacity: 2, throughTmux: true, idTopByte: 0)
        var renderer = FrameRenderer()
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        var buffer = CellBuffer(columns: 80, rows: 30)
        let sent = placeholders.frame([Self.picture("a", row: 1), Self.picture("b", row: 6)], into: &buffer).before
        #expect(sent.starts(with: Array("\u{1B}Ptmux;\u{1B}\u{1B}_G".utf8)))
        terminal.apply(sent + renderer.render(buffer))
        #expect(terminal.kittyImages.count == 2 && terminal.unsupported.isEmpty)
        Self.show([Self.picture("c", row: 11)], with: &placeholders, renderer: &renderer, on: &terminal)
        // "a" was shown least recently: its id went to "c".
        #expect(terminal.kittyImages.count == 2)
        #expect(terminal.graphicsCommands.contains { $0.hasPrefix("a=d,d=I,i=1") })
        #expect(Self.shown(terminal).keys.sorted() == [1])
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func twoReadersInTwoTmuxPanesOfOneKittyWindowKeepTheirOwnPictures() {
        // The panes' readers share kitty's images: their ids differ in their top byte.
        var left = Placeholders(throughTmux: true, idTopByte: 5)
        var right = Placeholders(throughTmux: true, idTopByte: 9)
        var renderer = FrameRenderer()
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        Self.show([Self.picture("a", row: 1)], with: &left, renderer: &renderer, on: &terminal)
        var buffer = CellBuffer(columns: 80, rows: 30)
        terminal.apply(right.frame([Self.picture("b", row: 1)], into: &buffer).before)
        #expect(Set(terminal.kittyImages.keys) == [5 << 24 | 1, 9 << 24 | 1])
        // The left one quits: the right one's picture stays in the terminal.
        terminal.apply(left.deleteAll())
        #expect(Set(terminal.kittyImages.keys) == [9 << 24 | 1])
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func aLargePictureGoesThroughTmuxInPiecesTmuxKeeps() {
        // 700 × 700 RGBA is 2.6 MB of base64; tmux drops a passthrough over 1 MB.
        var placeholders = Placeholders(throughTmux: true, idTopByte: 0)
        var buffer = CellBuffer(columns: 80, rows: 30)
        let big = Placeholders.Picture(spot: "big", image: "big", pixels: PixelBuffer(width: 700, height: 700), row: 0, column: 0,
                                       columns: 70, rows: 35, clip: 0..<30)
        let sent = placeholders.frame([big], into: &buffer).before
        // Each piece is ESC P tmux; ESC ESC _ G … ESC ESC \ ESC \: its command's end, the ESC
        // doubled, then the passthrough's.
        let end: [UInt8] = [0x1B, 0x1B, 0x5C, 0x1B, 0x5C]
        var lengths: [Int] = []
        var rest = sent[...]
        while let found = rest.firstRange(of: end) {
            #expect(rest.starts(with: Array("\u{1B}Ptmux;\u{1B}\u{1B}_G".utf8)))
            lengths.append(found.upperBound - rest.startIndex)
            rest = rest[found.upperBound...]
        }
        #expect(rest.isEmpty)
        #expect(lengths.count > 600 && lengths.allSatisfy { $0 < 8192 }, "\(lengths.count) pieces, the largest \(lengths.max() ?? 0) bytes")
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        terminal.apply(sent)
        #expect(terminal.kittyImages[1].map { [$0.width, $0.height] } == [700, 700])
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func theDiacriticsAreKittysTableOfUnicode6MarksAbove() {
        // kitty's table: the marks of Unicode 6.0 of class 230 (above) with no decomposition,
        // less nineteen that normalisation may fuse with a letter, in code point order. Rebuilt
        // here from the standard library's Unicode properties.
        let fused: Set<UInt32> = [0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x309, 0x30A, 0x30B, 0x30C, 0x30F, 0x311,
                                  0x313, 0x314, 0x342, 0x653, 0x654]
        let table = (UInt32(0x300)...0x1D244).filter { value in
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age, age <= (6, 0) else { return false }
            let properties = scalar.properties
            return properties.generalCategory == .nonspacingMark && properties.canonicalCombiningClass == .above
                && !properties.isFullCompositionExclusion && !fused.contains(value)
        }
        #expect(table.count == 297)
        #expect(table.last == 0x1D244)
        let cells = KittyGraphics.placeholders(id: 1, columns: KittyGraphics.maxCells, rows: 1)
        #expect(cells.map { $0.grapheme!.unicodeScalars.dropFirst(2).first!.value } == Array(table.prefix(KittyGraphics.maxCells)))
    }

    @Test func anIdWithATopByteIsNamedByAThirdDiacritic() {
        let id = 3 << 24 | 200
        #expect(KittyGraphics.isPlaceholderID(id))
        #expect(!KittyGraphics.isPlaceholderID(256) && !KittyGraphics.isPlaceholderID(0) && !KittyGraphics.isPlaceholderID(3 << 24))
        var terminal = InMemoryTerminal(columns: 10, rows: 4)
        terminal.apply(KittyGraphics.transmit(PixelBuffer(width: 20, height: 20), id: id, columns: 2, rows: 1))
        var buffer = CellBuffer(columns: 10, rows: 1)
        for (index, cell) in KittyGraphics.placeholders(id: id, columns: 2, rows: 1).enumerated() { buffer.set(cell, row: 0, column: index) }
        terminal.apply(buffer.inlineText(colorMode: .none))
        #expect(terminal.kittyPlaceholder(atRow: 0, column: 1).map { [$0.image, $0.row, $0.column] } == [id, 0, 1])
    }
}
