import Testing
import TerminalUI
import Thumbnails

/// Sixel pictures frame after frame, read back by the in-memory terminal, which keeps the
/// cells each image's pixels cover and erases them as a terminal does.
@Suite struct InlinePlacementsTests {
    typealias Placements = InlinePlacements<String, String>

    /// Cells of 10 × 20 pixels; a box of 12 × 4 cells is 120 × 80 pixels.
    static let cell = CellPixelSize(width: 10, height: 20)

    static func picture(_ spot: String, image: String? = nil, width: Int = 120, height: Int = 80, row: Int, clip: Range<Int> = 1..<29)
        -> Placements.Picture {
        var pixels = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { pixels[x, y] = RGBA(red: UInt8(x * 2 % 256), green: UInt8(y * 3 % 256), blue: 90) }
        }
        return Placements.Picture(spot: spot, image: image ?? spot, pixels: pixels, row: row, column: 2, columns: 12, rows: 4, clip: clip)
    }

    /// The cells that show a sixel picture, as rows of column ranges.
    static func pictureCells(_ terminal: InMemoryTerminal) -> Set<[Int]> {
        var cells: Set<[Int]> = []
        for row in 0..<terminal.screen.rows {
            for column in 0..<terminal.screen.columns where terminal.inlineImage(atRow: row, column: column) != nil {
                cells.insert([row, column])
            }
        }
        return cells
    }

    static func box(rows: Range<Int>, columns: Range<Int> = 2..<14) -> Set<[Int]> {
        Set(rows.flatMap { row in columns.map { [row, $0] } })
    }

    static func apply(_ frame: PictureFrame, to terminal: inout InMemoryTerminal) {
        terminal.apply(frame.before)
        terminal.apply(frame.after)
    }

    @Test func picturesAreDrawnOnceErasedWhereTheyWereAndDrawnWhereTheyGo() {
        var placements = Placements(cellSize: Self.cell)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        terminal.apply(Array("\u{1B}[5;7H".utf8))
        Self.apply(placements.frame([Self.picture("a", row: 3), Self.picture("b", row: 8)]), to: &terminal)
        #expect(terminal.unsupported.isEmpty)
        #expect(Self.pictureCells(terminal) == Self.box(rows: 3..<7).union(Self.box(rows: 8..<12)))
        #expect(terminal.cursorRow == 4 && terminal.cursorColumn == 6, "the cursor is where it was")
        #expect(terminal.inlineImages.count == 2 && terminal.inlineImages[0].width == 120 && terminal.inlineImages[0].height == 80)

        // Nothing moved: nothing is written.
        let still = placements.frame([Self.picture("a", row: 3), Self.picture("b", row: 8)])
        #expect(still.isEmpty)

        // Both move up a row: their old cells are erased (and named, for the renderer), and
        // they are drawn again where they are now. Nothing is left behind.
        let moved = placements.frame([Self.picture("a", row: 2), Self.picture("b", row: 7)])
        #expect(Set(moved.stale.map(\.row)) == Set(Array(3..<7) + Array(8..<12)))
        Self.apply(moved, to: &terminal)
        #expect(Self.pictureCells(terminal) == Self.box(rows: 2..<6).union(Self.box(rows: 7..<11)))

        // "a" leaves and the list's band is covered: every picture is erased.
        Self.apply(placements.frame([Self.picture("b", row: 7)]), to: &terminal)
        #expect(Self.pictureCells(terminal) == Self.box(rows: 7..<11))
        Self.apply(placements.frame([]), to: &terminal)
        #expect(Self.pictureCells(terminal).isEmpty)
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func aPictureHalfOutOfItsBandShowsOnlyItsRowsInside() {
        var placements = Placements(cellSize: Self.cell)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        Self.apply(placements.frame([Self.picture("a", row: 5)]), to: &terminal)
        let whole = try! #require(terminal.inlineImages.last)
        // The box starts two rows above the band: its bottom 40 pixels show, in rows 1 and 2,
        // in the colours the whole picture had.
        Self.apply(placements.frame([Self.picture("a", row: -1)]), to: &terminal)
        #expect(Self.pictureCells(terminal) == Self.box(rows: 1..<3))
        let cropped = try! #require(terminal.inlineImages.last)
        #expect(cropped.height == 40)
        #expect((0..<40).allSatisfy { y in (0..<120).allSatisfy { x in cropped[x, y] == whole[x, y + 40] } })
        // At the bottom, one row inside.
        Self.apply(placements.frame([Self.picture("a", row: 28)]), to: &terminal)
        #expect(Self.pictureCells(terminal) == Self.box(rows: 28..<29))
        // Wholly outside: erased, nothing drawn.
        Self.apply(placements.frame([Self.picture("a", row: 29)]), to: &terminal)
        #expect(Self.pictureCells(terminal).isEmpty)
    }

    @Test func aSmallerPictureIsCentredBehindTransparentMargins() {
        var placements = Placements(cellSize: Self.cell)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        // 76 × 50 in a 120 × 80 box: 22 pixels in (column 4, 2 pixels in) and 15 down.
        Self.apply(placements.frame([Self.picture("a", width: 76, height: 50, row: 5)]), to: &terminal)
        let image = try! #require(terminal.inlineImages.last)
        #expect(image.width == 78 && image.height == 65)
        #expect(image[1, 20].alpha == 0 && image[2, 15].alpha > 0 && image[2, 14].alpha == 0)
        #expect(Self.pictureCells(terminal) == Self.box(rows: 5..<9, columns: 4..<12))
    }
}

/// iTerm2 inline images: PNG files in base64, read back by the in-memory terminal.
@Suite struct ITermImagesTests {
    @Test func aPictureIsSentAsAPNGThatDecodesToItsPixels() {
        var image = PixelBuffer(width: 7, height: 5)
        for y in 0..<5 {
            for x in 0..<7 { image[x, y] = RGBA(red: UInt8(x * 30), green: UInt8(y * 50), blue: 200, alpha: x == 0 ? 0 : 255) }
        }
        let bytes = ITermImages.encode(image)
        #expect(String(decoding: bytes.prefix(40), as: UTF8.self).hasPrefix("\u{1B}]1337;File=inline=1;size="))
        #expect(String(decoding: bytes, as: UTF8.self).contains(";width=7px;height=5px;"))
        var terminal = InMemoryTerminal(columns: 10, rows: 3)
        terminal.apply(bytes)
        #expect(terminal.unsupported.isEmpty)
        let shown = try! #require(terminal.inlineImages.last)
        #expect(shown.width == 7 && shown.height == 5)
        for y in 0..<5 {
            for x in 0..<7 { #expect(shown[x, y] == image[x, y], "pixel \(x), \(y)") }
        }
    }

    @Test func placedPicturesMoveAndLeaveNothingBehind() {
        var placements = InlinePlacements<String, String>(cellSize: InlineCell.size, encoding: .iterm)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        var frame = placements.frame([InlinePlacementsTests.picture("a", row: 3)])
        terminal.apply(frame.before + frame.after)
        #expect(InlinePlacementsTests.pictureCells(terminal) == InlinePlacementsTests.box(rows: 3..<7))
        frame = placements.frame([InlinePlacementsTests.picture("a", row: 9)])
        terminal.apply(frame.before + frame.after)
        #expect(InlinePlacementsTests.pictureCells(terminal) == InlinePlacementsTests.box(rows: 9..<13))
        #expect(terminal.unsupported.isEmpty)
    }
}

enum InlineCell {
    static let size = CellPixelSize(width: 10, height: 20)
}

extension InlinePlacements {
    /// A frame over cells these pictures never write into.
    mutating func frame(_ pictures: [Picture]) -> PictureFrame {
        var cells = CellBuffer(columns: 80, rows: 30)
        let frame = frame(pictures, into: &cells)
        #expect(cells == CellBuffer(columns: 80, rows: 30), "inline pictures leave the cells")
        return frame
    }
}
