import Foundation
import Testing
import TerminalUI
import Thumbnails

/// kitty's direct placements frame after frame, read back by the in-memory terminal, which
/// keeps the images and placements the commands leave.
@Suite struct KittyPlacementsTests {
    typealias Placements = KittyPlacements<String, String>

    /// Cells of 10 × 20 pixels; a box of 12 × 4 cells is 120 × 80 pixels.
    static let cell = CellPixelSize(width: 10, height: 20)

    static func picture(_ spot: String, image: String? = nil, width: Int = 120, height: Int = 80, row: Int, clip: Range<Int> = 1..<29)
        -> Placements.Picture {
        Placements.Picture(spot: spot, image: image ?? spot, pixels: PixelBuffer(width: width, height: height), row: row, column: 2,
                           columns: 12, rows: 4, clip: clip)
    }

    @Test func aPictureIsSentOncePlacedAgainOnlyWhenItMovesAndRemovedWhenItLeaves() {
        var placements = Placements(cellSize: Self.cell)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        terminal.apply(Array("\u{1B}[5;7H".utf8))
        terminal.apply(placements.frame([Self.picture("a", row: 3), Self.picture("b", row: 8)]))
        #expect(terminal.unsupported.isEmpty)
        #expect(terminal.kittyImages.count == 2)
        #expect(Set(terminal.kittyPlacements.values.map(\.row)) == [3, 8])
        #expect(terminal.kittyPlacements.values.allSatisfy { $0.column == 2 && $0.sourceY == 0 && $0.sourceHeight == 80 })
        #expect(terminal.cursorRow == 4 && terminal.cursorColumn == 6, "the cursor is where it was")

        // Nothing moved: nothing is written.
        #expect(placements.frame([Self.picture("a", row: 3), Self.picture("b", row: 8)]).isEmpty)

        // Both move up a row; a third arrives. Only the new one is sent.
        let commands = terminal.graphicsCommands.count
        terminal.apply(placements.frame([Self.picture("a", row: 2), Self.picture("b", row: 7), Self.picture("c", row: 12)]))
        let sent = terminal.graphicsCommands[commands...].filter { $0.hasPrefix("a=t") }
        #expect(sent.count == 1)
        #expect(Set(terminal.kittyPlacements.values.map(\.row)) == [2, 7, 12])

        // "a" leaves the screen: its placement goes, its image stays, to be placed again unsent.
        terminal.apply(placements.frame([Self.picture("b", row: 7), Self.picture("c", row: 12)]))
        #expect(terminal.kittyPlacements.count == 2 && terminal.kittyImages.count == 3)
        let before = terminal.graphicsCommands.count
        terminal.apply(placements.frame([Self.picture("a", row: 17), Self.picture("b", row: 7), Self.picture("c", row: 12)]))
        #expect(!terminal.graphicsCommands[before...].contains { $0.hasPrefix("a=t") })
        #expect(terminal.kittyPlacements.count == 3)

        // Another screen covers the list: every placement goes.
        terminal.apply(placements.frame([]))
        #expect(terminal.kittyPlacements.isEmpty && terminal.kittyImages.count == 3)
        terminal.apply(placements.deleteAll())
        #expect(terminal.kittyImages.isEmpty)
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func aPictureHalfOutOfItsBandIsCroppedAtThePixel() {
        var placements = Placements(cellSize: Self.cell)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        // The box starts two rows above the band: its top 40 pixels are hidden.
        terminal.apply(placements.frame([Self.picture("a", row: -1, clip: 1..<29)]))
        var shown = try! #require(terminal.kittyPlacements.values.first)
        #expect(shown.row == 1 && shown.sourceY == 40 && shown.sourceHeight == 40 && shown.offsetY == 0)
        // At the bottom: only the first row of the box is inside.
        terminal.apply(placements.frame([Self.picture("a", row: 28, clip: 1..<29)]))
        shown = try! #require(terminal.kittyPlacements.values.first)
        #expect(shown.row == 28 && shown.sourceY == 0 && shown.sourceHeight == 20)
        // Wholly outside: no placement.
        terminal.apply(placements.frame([Self.picture("a", row: 29, clip: 1..<29)]))
        #expect(terminal.kittyPlacements.isEmpty)
    }

    @Test func aSmallerPictureIsCentredInItsBoxToThePixel() {
        var placements = Placements(cellSize: Self.cell)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        // 75 × 80 in a 120 × 80 box: 22 pixels in from the left, so column 2 + 2, 2 pixels in.
        terminal.apply(placements.frame([Self.picture("a", width: 75, height: 80, row: 5)]))
        let shown = try! #require(terminal.kittyPlacements.values.first)
        #expect(shown.column == 4 && shown.offsetX == 2 && shown.row == 5 && shown.offsetY == 0)
        // 120 × 50: 15 pixels down, in the first row's cell.
        terminal.apply(placements.frame([Self.picture("a", image: "wide", width: 120, height: 50, row: 5)]))
        let wide = try! #require(terminal.kittyPlacements.values.first)
        #expect(wide.column == 2 && wide.row == 5 && wide.offsetY == 15 && wide.sourceHeight == 50)
        #expect(terminal.kittyPlacements.count == 1, "the spot's old placement went with its old image")
    }

    @Test func theTerminalHoldsAtMostTheCapacityTheLeastRecentlyShownGoingFirst() {
        var placements = Placements(cellSize: Self.cell, capacity: 2)
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        for (index, image) in ["x", "y", "z"].enumerated() {
            terminal.apply(placements.frame([Self.picture("spot\(index)", image: image, row: 5)]))
        }
        #expect(terminal.kittyImages.count == 2)
        #expect(terminal.kittyPlacements.count == 1)
        // And at most the byte budget: two pictures of 120 × 80 RGBA fit in 80,000 bytes, three do not.
        var budgeted = Placements(cellSize: Self.cell, byteBudget: 80_000)
        var small = InMemoryTerminal(columns: 80, rows: 30)
        for (index, image) in ["x", "y", "z"].enumerated() {
            small.apply(budgeted.frame([Self.picture("spot\(index)", image: image, row: 5)]))
        }
        #expect(small.kittyImages.count == 2)
    }

    @Test func compressedPicturesGoAsZlibStreams() {
        var plain = Placements(cellSize: Self.cell)
        var compressed = Placements(cellSize: Self.cell, compresses: true)
        let picture = Self.picture("a", row: 5)
        let (raw, small) = (plain.frame([picture]), compressed.frame([picture]))
        #expect(String(decoding: small, as: UTF8.self).contains("a=t,f=32,o=z,"))
        #expect(!String(decoding: raw, as: UTF8.self).contains("o=z"))
        #expect(small.count * 10 < raw.count, "a picture of one colour compresses to almost nothing")
        var terminal = InMemoryTerminal(columns: 80, rows: 30)
        terminal.apply(small)
        #expect(terminal.kittyImages.first?.value.width == 120 && terminal.kittyPlacements.count == 1)
    }

    @Test func insideTmuxEveryCommandIsPassedThrough() {
        var placements = Placements(cellSize: Self.cell, throughTmux: true)
        let text = String(decoding: placements.frame([Self.picture("a", row: 5)]), as: UTF8.self)
        #expect(text.contains("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t"))
        #expect(text.contains("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=p"))
        #expect(!text.replacingOccurrences(of: "\u{1B}\u{1B}_G", with: "").contains("\u{1B}_G"), "no command goes unwrapped")
    }
}

extension KittyPlacements {
    /// A frame's bytes: placements go after the cells, which they leave as they are.
    mutating func frame(_ pictures: [Picture]) -> [UInt8] {
        var cells = CellBuffer(columns: 80, rows: 30)
        let frame = frame(pictures, into: &cells)
        #expect(frame.before.isEmpty && frame.stale.isEmpty && cells == CellBuffer(columns: 80, rows: 30))
        return frame.after
    }
}
