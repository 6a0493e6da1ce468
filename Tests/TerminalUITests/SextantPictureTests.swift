import SeededRandom
import Testing
@testable import TerminalUI
import Thumbnails

/// Pictures in sextants: six pixels a cell in two colours, read back from the cells.
@Suite struct SextantPictureTests {
    /// The six colours a sextant cell shows, left then right, top to bottom; nil where it
    /// shows the terminal's background.
    static func pixels(of cell: Cell) -> [TerminalColor?] {
        if cell.grapheme == " " { return Array(repeating: nil, count: 6) }
        let pattern = HalfBlockPicture.sextantPattern(of: cell.grapheme)!
        let background: TerminalColor? = cell.style.background == .default ? nil : cell.style.background
        return (0..<6).map { pattern & (1 << $0) != 0 ? cell.style.foreground : background }
    }

    @Test func everyPatternHasItsOwnGlyphOfOneColumn() {
        let glyphs = (1..<64).map(HalfBlockPicture.sextant)
        #expect(Set(glyphs).count == 63)
        #expect(glyphs[0] == "\u{1FB00}" && glyphs[62] == "█" && glyphs[61] == "\u{1FB3B}")
        #expect(glyphs[20] == "▌" && glyphs[41] == "▐")
        #expect((1..<64).allSatisfy { HalfBlockPicture.sextantPattern(of: HalfBlockPicture.sextant($0)) == $0 })
        #expect(glyphs.allSatisfy { DisplayWidth.of($0) == 1 })
        // Unicode's names: U+1FB0A is BLOCK SEXTANT-124 (top left, top right, middle right),
        // U+1FB14 BLOCK SEXTANT-235, after the left half (135) that ▌ draws.
        #expect(HalfBlockPicture.sextantPattern(of: "\u{1FB0A}") == 0b1011)
        #expect(HalfBlockPicture.sextantPattern(of: "\u{1FB14}") == 0b10110)
    }

    @Test func aCellOfTwoColoursIsDrawnExactlyWhateverTheirPlaces() {
        let seed = randomizedTestSeed()
        print("SextantPictureTests: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        // Eight cells of 2 × 3 pixels, each of two random colours in a random pattern.
        let (columns, rows) = (4, 2)
        var image = PixelBuffer(width: columns * 2, height: rows * 3)
        var expected: [[RGBA]] = []
        for cell in 0..<(columns * rows) {
            let colours = (0..<2).map { _ in
                RGBA(red: UInt8.random(in: 0...255, using: &random), green: UInt8.random(in: 0...255, using: &random),
                     blue: UInt8.random(in: 0...255, using: &random), alpha: 255)
            }
            let pattern = Int.random(in: 0..<64, using: &random)
            var shown: [RGBA] = []
            for index in 0..<6 {
                let colour = colours[pattern >> index & 1]
                image[(cell % columns) * 2 + index % 2, (cell / columns) * 3 + index / 2] = colour
                shown.append(colour)
            }
            expected.append(shown)
        }
        let picture = HalfBlockPicture(image, columns: columns, rows: rows, glyphs: .sextants)
        for (index, cell) in picture.cells.enumerated() {
            let drawn = Self.pixels(of: cell).map { $0 ?? .default }
            let wanted = expected[index].map { TerminalColor.rgb($0.red, $0.green, $0.blue) }
            #expect(drawn == wanted, "seed \(seed), cell \(index): \(cell)")
        }
    }

    @Test func transparentPixelsShowTheTerminalBackgroundAndAnEmptyCellIsBlank() {
        var image = PixelBuffer(width: 4, height: 3)
        // The first cell: its left column opaque red, the rest transparent. The second: nothing.
        for y in 0..<3 { image[0, y] = RGBA(red: 255, green: 0, blue: 0, alpha: 255) }
        let picture = HalfBlockPicture(image, columns: 2, rows: 1, glyphs: .sextants)
        #expect(picture.cells[0].grapheme == "▌" && picture.cells[0].style == CellStyle(foreground: .rgb(255, 0, 0)))
        #expect(picture.cells[1] == .blank)
    }

    @Test func aPhotographIsCloserInSextantsThanInHalfBlocksAndReachesTheTerminalAsDrawn() {
        // A thumbnail-sized scene with edges that cross cells: a bright disc (a sun) on a sky
        // that darkens downwards, over a sloping hill. Both are scored against the same 2 × 3
        // pixels a cell.
        let (columns, rows) = (12, 4)
        var image = PixelBuffer(width: columns * 2, height: rows * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (dx, dy) = (x - 15, y - 4)
                if dx * dx + dy * dy <= 9 {
                    image[x, y] = RGBA(red: 255, green: 240, blue: 200, alpha: 255)
                } else if y > 7 + x / 4 {
                    image[x, y] = RGBA(red: 30, green: UInt8(90 + x), blue: 40, alpha: 255)
                } else {
                    image[x, y] = RGBA(red: 60, green: UInt8(120 - y * 5), blue: UInt8(220 - y * 8), alpha: 255)
                }
            }
        }
        let sextants = HalfBlockPicture(image, columns: columns, rows: rows, glyphs: .sextants)
        let halves = HalfBlockPicture(image, columns: columns, rows: rows, glyphs: .halfBlocks)
        func error(_ picture: HalfBlockPicture, pixelsOf: (Cell) -> [TerminalColor?]) -> Int {
            var total = 0
            for (index, cell) in picture.cells.enumerated() {
                for (pixel, colour) in pixelsOf(cell).enumerated() {
                    guard case .rgb(let red, let green, let blue)? = colour else { continue }
                    let source = image[(index % columns) * 2 + pixel % 2, (index / columns) * 3 + pixel / 2]
                    total += [Int(red) - Int(source.red), Int(green) - Int(source.green), Int(blue) - Int(source.blue)].map { $0 * $0 }.reduce(0, +)
                }
            }
            return total
        }
        let halfBlockPixels = { (cell: Cell) -> [TerminalColor?] in
            // A half block's upper colour on the top row, its lower on the bottom one; the middle
            // row, which it splits, is left out, to its favour.
            [cell.style.foreground, cell.style.foreground, nil, nil, cell.style.background, cell.style.background]
        }
        #expect(error(sextants, pixelsOf: Self.pixels) * 2 < error(halves, pixelsOf: halfBlockPixels))
        // Through the renderer, the terminal holds exactly these cells.
        var buffer = CellBuffer(columns: columns, rows: rows)
        buffer.draw(sextants, row: 0, column: 0)
        var renderer = FrameRenderer()
        var terminal = InMemoryTerminal(columns: columns, rows: rows)
        terminal.apply(renderer.render(buffer))
        #expect(terminal.screen == buffer)
        #expect(terminal.unsupported.isEmpty)
        // Without colour, each cell is a shade by the light of its six pixels.
        #expect(sextants.monochrome.cells.contains { $0.grapheme != " " })
    }
}
