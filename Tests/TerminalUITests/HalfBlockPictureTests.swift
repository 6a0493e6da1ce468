import Testing
import TerminalUI
import Thumbnails

@Suite struct HalfBlockPictureTests {
    private func image(_ rows: [[RGBA]]) -> PixelBuffer {
        var buffer = PixelBuffer(width: rows[0].count, height: rows.count)
        for (y, row) in rows.enumerated() {
            for (x, pixel) in row.enumerated() { buffer[x, y] = pixel }
        }
        return buffer
    }

    private func rgba(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: alpha)
    }

    @Test func eachCellShowsItsUpperPixelInFrontAndItsLowerPixelBehind() {
        let picture = HalfBlockPicture(image([
            [rgba(255, 0, 0), rgba(0, 0, 0)],
            [rgba(0, 255, 0), rgba(10, 20, 30)],
            [rgba(0, 0, 255), rgba(200, 100, 50)],
            [rgba(255, 255, 255), rgba(1, 2, 3)],
        ]), columns: 2, rows: 2)
        #expect(picture.cells.allSatisfy { $0.grapheme == "▀" })
        #expect(picture.cells.map(\.style) == [
            CellStyle(foreground: .rgb(255, 0, 0), background: .rgb(0, 255, 0)),
            CellStyle(foreground: .rgb(0, 0, 0), background: .rgb(10, 20, 30)),
            CellStyle(foreground: .rgb(0, 0, 255), background: .rgb(255, 255, 255)),
            CellStyle(foreground: .rgb(200, 100, 50), background: .rgb(1, 2, 3)),
        ])
    }

    @Test func averagesInLinearLight() {
        // Black and white average to the grey that sends half the light: sRGB 188, not 128.
        let picture = HalfBlockPicture(image([
            [rgba(0, 0, 0), rgba(255, 255, 255)],
            [rgba(255, 255, 255), rgba(0, 0, 0)],
            [rgba(255, 0, 0), rgba(255, 0, 0)],
            [rgba(255, 0, 0), rgba(255, 0, 0)],
        ]), columns: 1, rows: 1)
        #expect(picture.cells == [Cell("▀", style: CellStyle(foreground: .rgb(188, 188, 188), background: .rgb(255, 0, 0)))])
    }

    @Test func enlargesWithHardEdges() {
        let picture = HalfBlockPicture(image([[rgba(255, 0, 0), rgba(0, 0, 255)]]), columns: 4, rows: 1)
        #expect(picture.cells.map(\.style.foreground) == [.rgb(255, 0, 0), .rgb(255, 0, 0), .rgb(0, 0, 255), .rgb(0, 0, 255)])
        #expect(picture.cells.map(\.style.background) == picture.cells.map(\.style.foreground))
    }

    @Test func transparentPixelsShowTheTerminalBackground() {
        let clear = rgba(0, 0, 0, 0)
        let picture = HalfBlockPicture(image([
            [clear, rgba(9, 9, 9), clear, rgba(255, 255, 255, 128)],
            [rgba(7, 7, 7), clear, clear, rgba(255, 255, 255)],
        ]), columns: 4, rows: 1)
        #expect(picture.cells[0] == Cell("▄", style: CellStyle(foreground: .rgb(7, 7, 7))))
        #expect(picture.cells[1] == Cell("▀", style: CellStyle(foreground: .rgb(9, 9, 9))))
        #expect(picture.cells[2] == .blank)
        // Half-opaque white over the black matte: half the light.
        #expect(picture.cells[3] == Cell("▀", style: CellStyle(foreground: .rgb(188, 188, 188), background: .rgb(255, 255, 255))))
    }

    @Test func fitsTheBoxKeepingTheAspectOfTheCells() {
        #expect(HalfBlockPicture.fittedSize(imageWidth: 3000, imageHeight: 2000, maxColumns: 40, maxRows: 100) == (40, 13))
        #expect(HalfBlockPicture.fittedSize(imageWidth: 3000, imageHeight: 2000, maxColumns: 40, maxRows: 100, cellSize: CellPixelSize(width: 10, height: 10)) == (40, 27))
        #expect(HalfBlockPicture.fittedSize(imageWidth: 1000, imageHeight: 3000, maxColumns: 40, maxRows: 20) == (13, 20))
        #expect(HalfBlockPicture.fittedSize(imageWidth: 10000, imageHeight: 1, maxColumns: 40, maxRows: 20) == (40, 1))
        let picture = HalfBlockPicture(PixelBuffer(width: 300, height: 200), fittingColumns: 30, rows: 30)
        #expect((picture.columns, picture.rows) == (30, 10))
    }

    @Test func boxesShowAPlaceholderWhileLoadingAndAMarkOnFailure() {
        var buffer = CellBuffer(columns: 5, rows: 3)
        buffer.draw(.loading, row: 0, column: 0, columns: 5, rows: 3)
        #expect(buffer.cells.allSatisfy { $0.grapheme == "░" })
        buffer.draw(.failed, row: 0, column: 0, columns: 5, rows: 3)
        #expect(buffer[1, 2].grapheme == "✕")
        #expect(buffer.cells.filter { $0.grapheme == " " }.count == 14)
        let picture = HalfBlockPicture(image([[rgba(1, 2, 3)], [rgba(4, 5, 6)]]), columns: 1, rows: 1)
        buffer.draw(.loaded(picture), row: 0, column: 0, columns: 5, rows: 3)
        #expect(buffer[1, 2] == picture.cells[0])
        #expect(buffer.cells.filter { $0 == .blank }.count == 14)
    }

    @Test func printsAsLinesWithColoursForTheMode() {
        var buffer = CellBuffer(columns: 2, rows: 1)
        buffer.draw(HalfBlockPicture(image([[rgba(255, 0, 0), rgba(255, 0, 0)], [rgba(0, 0, 255), rgba(0, 0, 0)]]), columns: 2, rows: 1), row: 0, column: 0)
        let truecolor = String(decoding: buffer.inlineText(colorMode: .truecolor), as: UTF8.self)
        #expect(truecolor == "\u{1B}[38;2;255;0;0;48;2;0;0;255m▀\u{1B}[48;2;0;0;0m▀\u{1B}[m\n")
        let palette = String(decoding: buffer.inlineText(colorMode: .palette256), as: UTF8.self)
        #expect(palette == "\u{1B}[38;5;196;48;5;21m▀\u{1B}[48;5;16m▀\u{1B}[m\n")
    }

    @Test func withoutColourEachCellIsAShadeOfItsLight() {
        let picture = HalfBlockPicture(image([
            [rgba(0, 0, 0), rgba(255, 255, 255), rgba(128, 128, 128), rgba(0, 0, 0, 0), rgba(255, 255, 255)],
            [rgba(0, 0, 0), rgba(255, 255, 255), rgba(128, 128, 128), rgba(255, 255, 255), rgba(0, 0, 0)],
        ]), columns: 5, rows: 1)
        let monochrome = picture.monochrome
        #expect(monochrome.cells.map(\.grapheme) == [" ", "█", "▒", "▓", "▓"])
        #expect(monochrome.cells.allSatisfy { $0.style == .plain })
    }
}
