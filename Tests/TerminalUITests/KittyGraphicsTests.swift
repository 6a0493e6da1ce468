import Testing
import TerminalUI
import Thumbnails

@Suite struct KittyGraphicsTests {
    @Test func sendsTheImageAsBase64RGBAWithAVirtualPlacement() {
        var image = PixelBuffer(width: 1, height: 1)
        image[0, 0] = RGBA(red: 255, green: 0, blue: 0, alpha: 255)
        let bytes = KittyGraphics.transmit(image, id: 7, columns: 2, rows: 1)
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}_Ga=T,U=1,f=32,s=1,v=1,i=7,c=2,r=1,q=2,m=0;/wAA/w==\u{1B}\\")
    }

    @Test func sendsALargeImageInChunksOfAtMost4096Characters() {
        let image = PixelBuffer(width: 64, height: 64)
        var terminal = InMemoryTerminal(columns: 10, rows: 2)
        terminal.apply(KittyGraphics.transmit(image, id: 1, columns: 8, rows: 4))
        #expect(terminal.unsupported.isEmpty)
        let chunks = terminal.graphicsCommands
        #expect(chunks.count == 6)
        #expect(chunks.dropLast().allSatisfy { $0.contains("m=1;") } && chunks.last!.hasPrefix("m=0;"))
        let payloads: [Int] = chunks.map { $0.split(separator: ";")[1].count }
        #expect(payloads.allSatisfy { $0 <= 4096 })
        let expected = (64 * 64 * 4 + 2) / 3 * 4
        #expect(payloads.reduce(0, +) == expected)
    }

    @Test func placeholdersNameTheirRowAndColumnAndAreDrawnAsText() {
        let cells = KittyGraphics.placeholders(id: 9, columns: 3, rows: 2)
        #expect(cells.count == 6)
        #expect(cells[0].grapheme == Character("\u{10EEEE}\u{0305}\u{0305}"))
        #expect(cells[5].grapheme == Character("\u{10EEEE}\u{030D}\u{030E}"))
        #expect(cells.allSatisfy { $0.style.foreground == .indexed(9) && $0.width == 1 })
        var buffer = CellBuffer(columns: 3, rows: 2)
        for (index, cell) in cells.enumerated() { buffer.set(cell, row: index / 3, column: index % 3) }
        var renderer = FrameRenderer(options: .init(colorMode: .palette256))
        var terminal = InMemoryTerminal(columns: 3, rows: 2)
        terminal.apply(renderer.render(buffer))
        #expect(terminal.screen == buffer)
    }

    @Test func wrapsForTmuxWithEveryEscapeDoubled() {
        let wrapped = KittyGraphics.tmuxPassthrough(Array("\u{1B}_Gq=2;\u{1B}\\".utf8))
        #expect(String(decoding: wrapped, as: UTF8.self) == "\u{1B}Ptmux;\u{1B}\u{1B}_Gq=2;\u{1B}\u{1B}\\\u{1B}\\")
    }
}

/// Direct placement, for kitty before 0.28 and WezTerm, and the ids a terminal holds.
@Suite struct KittyDirectPlacementTests {
    @Test func sendsOncePlacesByIdAndDeletes() {
        var image = PixelBuffer(width: 1, height: 1)
        image[0, 0] = RGBA(red: 0, green: 0, blue: 255, alpha: 255)
        var terminal = InMemoryTerminal(columns: 10, rows: 4)

        terminal.apply(KittyGraphics.transmitOnly(image, id: 3, compressed: true))
        terminal.apply(KittyGraphics.place(id: 3, placement: 1, columns: 4, rows: 2))
        terminal.apply(KittyGraphics.deletePlacement(id: 3, placement: 1))
        terminal.apply(KittyGraphics.deleteImage(id: 3))

        #expect(terminal.unsupported.isEmpty)
        #expect(terminal.graphicsCommands == [
            // One blue pixel, RGBA, as a zlib stream (`o=z`) in base64: Python's
            // zlib.decompress(base64.b64decode("eAFjYPj/HwADAQH/")) is b"\x00\x00\xff\xff".
            "a=t,f=32,o=z,s=1,v=1,i=3,q=2,m=0;eAFjYPj/HwADAQH/",
            "a=p,i=3,p=1,c=4,r=2,C=1,q=2",
            "a=d,d=i,i=3,p=1,q=2",
            "a=d,d=I,i=3,q=2",
        ])
        // Placing writes no text: the cursor stays.
        #expect(terminal.cursorRow == 0 && terminal.cursorColumn == 0)
    }

    @Test func theLeastRecentlyShownPicturesGoPastTheCapAndTheirIdsComeBack() {
        var ids = KittyImageIDs<String>(capacity: 3)

        let a = ids.id(for: "a"), b = ids.id(for: "b"), c = ids.id(for: "c")
        #expect([a, b, c].allSatisfy { $0.isNew && $0.evicted.isEmpty })
        #expect(Set([a.id, b.id, c.id]).count == 3)
        #expect(ids.id(for: "a") == (a.id, false, []))
        // "b" is now the least recently shown: it goes, and "d" takes its id.
        let d = ids.id(for: "d")
        #expect(d.isNew && d.evicted == [b.id] && d.id == b.id)
        #expect(ids.count == 3)
        #expect(ids.forget("c") == c.id)
        #expect(ids.forget("c") == nil)
        let e = ids.id(for: "e")
        #expect(e.id == c.id && e.evicted.isEmpty)
        #expect(ids.id(for: "b").isNew)
    }

    @Test func theBytesHeldStayWithinTheBudgetTheLeastRecentlyShownGoingFirst() {
        var ids = KittyImageIDs<String>(capacity: 10, byteBudget: 100)
        let a = ids.id(for: "a", bytes: 40), b = ids.id(for: "b", bytes: 40)
        #expect(ids.bytes == 80)
        #expect(ids.id(for: "a", bytes: 40) == (a.id, false, []))
        // 40 more would pass 100: "b", shown least recently, goes.
        let c = ids.id(for: "c", bytes: 40)
        #expect(c.evicted == [b.id] && ids.bytes == 80 && ids.count == 2)
        // A picture larger than the whole budget empties it, and is held alone.
        let huge = ids.id(for: "huge", bytes: 500)
        #expect(Set(huge.evicted) == [a.id, c.id] && ids.count == 1 && ids.bytes == 500)
        #expect(ids.forget("huge") != nil && ids.bytes == 0)
    }
}
