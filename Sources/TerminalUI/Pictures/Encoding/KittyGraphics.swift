import Thumbnails

/// Pictures through the kitty graphics protocol, placed with Unicode placeholders: the image is
/// sent once, and the cells that show it are ordinary text (U+10EEEE with diacritics naming
/// the row and column), so they scroll, diff and clip like any other cells.
///
/// Use it when ``TerminalCapabilities/kittyGraphics`` says the terminal answered the
/// protocol's query; elsewhere draw ``HalfBlockPicture``s. Inside tmux the image must be sent
/// through ``tmuxPassthrough(_:)`` (and tmux needs `set -g allow-passthrough on`); the
/// placeholder cells need nothing special.
///
/// An image's id goes in its placeholders' foreground as a 256-colour index, which survives
/// truecolor and 256-colour output and tmux whatever its terminal features: ids 1 to 255, or,
/// with a third diacritic naming the id's top byte, `top << 24 | low` with `top` up to
/// ``maxCells`` − 1 (``isPlaceholderID(_:)``). Sending an image again under an id replaces it.
public enum KittyGraphics {
    /// The protocol's query: a 1 × 1 image the terminal checks but does not keep, id 31. A
    /// supporting terminal answers `ESC _ G i=31;OK ESC \`.
    public static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)

    /// The most rows and columns a placement can have: the diacritics below.
    public static var maxCells: Int { diacritics.count }

    /// Whether placeholders can name image `id`: its low byte 1...255 (the colour), its top
    /// byte below ``maxCells`` (the third diacritic), nothing between.
    public static func isPlaceholderID(_ id: Int) -> Bool {
        (1...255).contains(id & 0xFF) && id & 0xFF_FF00 == 0 && (0..<maxCells).contains(id >> 24)
    }

    /// The bytes that send `image` as image `id`, to be shown in `columns` × `rows` cells by
    /// ``placeholders(id:columns:rows:)``: RGBA (zlib-compressed when `compressed`, as
    /// ``transmitOnly(_:id:compressed:)`` says), base64 in chunks of 4096 characters, no reply
    /// asked for.
    /// - Precondition: ``isPlaceholderID(_:)`` holds for `id`, and the cell counts are
    ///   1...``maxCells``.
    /// - Complexity: O(pixels).
    public static func transmit(_ image: PixelBuffer, id: Int, columns: Int, rows: Int, compressed: Bool = false) -> [UInt8] {
        precondition(isPlaceholderID(id), "placeholders cannot name kitty image \(id)")
        precondition((1...maxCells).contains(columns) && (1...maxCells).contains(rows), "a placement is 1 to \(maxCells) cells a side")
        let keys = "a=T,U=1,f=32,s=\(image.width),v=\(image.height),i=\(id),c=\(columns),r=\(rows),q=2"
        let pixels = rgba(image)
        if compressed, let deflated = Zlib.deflated(pixels) { return chunked(deflated, firstKeys: keys + ",o=z") }
        return chunked(pixels, firstKeys: keys)
    }

    /// The cells that show image `id`: row by row, each U+10EEEE with the diacritics of its
    /// row and column (and of the id's top byte, when it has one), in the colour of the id's
    /// low byte. Draw them like any picture's cells.
    /// - Precondition: as for ``transmit(_:id:columns:rows:compressed:)``.
    public static func placeholders(id: Int, columns: Int, rows: Int) -> [Cell] {
        precondition(isPlaceholderID(id), "placeholders cannot name kitty image \(id)")
        precondition((1...maxCells).contains(columns) && (1...maxCells).contains(rows), "a placement is 1 to \(maxCells) cells a side")
        let style = CellStyle(foreground: .indexed(UInt8(id & 0xFF)))
        let top = id >> 24
        return (0..<rows).flatMap { row in
            (0..<columns).map { column in
                var scalars = String.UnicodeScalarView()
                scalars.append(Unicode.Scalar(0x10EEEE)!)
                scalars.append(Unicode.Scalar(diacritics[row])!)
                scalars.append(Unicode.Scalar(diacritics[column])!)
                if top > 0 { scalars.append(Unicode.Scalar(diacritics[top])!) }
                return Cell(grapheme: Character(String(scalars)), style: style, width: 1)
            }
        }
    }

    // MARK: Direct placement

    /// The bytes that send `image` as image `id` without showing it, for terminals without
    /// Unicode placeholders (kitty before 0.28, WezTerm): ``place(id:placement:columns:rows:)``
    /// shows it, at the cursor, as often as needed. When `compressed`, the pixels go as a zlib
    /// stream (`o=z`, zlib's fastest level): a third of the bytes for a smooth photograph, at
    /// the cost of compressing (2 to 8 ms for a 400 × 250 picture), worth it over a network.
    /// - Precondition: `id` is 1...2³² − 1 (placed directly, an id needs no colour to name it).
    /// - Complexity: O(pixels).
    public static func transmitOnly(_ image: PixelBuffer, id: Int, compressed: Bool = false) -> [UInt8] {
        precondition((1...0xFFFF_FFFF).contains(id), "kitty image ids are 1 to 2³² − 1")
        let pixels = rgba(image)
        if compressed, let compressed = Zlib.deflated(pixels) {
            return chunked(compressed, firstKeys: "a=t,f=32,o=z,s=\(image.width),v=\(image.height),i=\(id),q=2")
        }
        return chunked(pixels, firstKeys: "a=t,f=32,s=\(image.width),v=\(image.height),i=\(id),q=2")
    }


    /// Shows image `id`, sent before, at the cursor, scaled to `columns` × `rows` cells, as
    /// placement `placement` (1...): placing it again under the same placement moves it. The
    /// cursor stays where it was.
    public static func place(id: Int, placement: Int, columns: Int, rows: Int) -> [UInt8] {
        Array("\u{1B}_Ga=p,i=\(id),p=\(placement),c=\(columns),r=\(rows),C=1,q=2\u{1B}\\".utf8)
    }

    /// Shows the rows `sourceY ..< sourceY + sourceHeight` (pixels) of image `id`, sent before,
    /// at its own size, at the cursor, shifted right and down by `offsetX` and `offsetY`
    /// pixels inside the cursor's cell, as placement `placement` (1...): placing it again
    /// under the same placement moves it. The cursor stays where it was.
    public static func place(id: Int, placement: Int, offsetX: Int, offsetY: Int, sourceY: Int, sourceWidth: Int,
                             sourceHeight: Int) -> [UInt8] {
        Array(("\u{1B}_Ga=p,i=\(id),p=\(placement),x=0,y=\(sourceY),w=\(sourceWidth),h=\(sourceHeight),"
            + "X=\(offsetX),Y=\(offsetY),C=1,q=2\u{1B}\\").utf8)
    }

    /// Removes placement `placement` of image `id` from the screen; the image stays, to be
    /// placed again.
    public static func deletePlacement(id: Int, placement: Int) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=i,i=\(id),p=\(placement),q=2\u{1B}\\".utf8)
    }

    /// Removes image `id` and every placement of it, and frees its data in the terminal.
    public static func deleteImage(id: Int) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }

    /// `image`'s pixels, RGBA, row after row with no padding.
    static func rgba(_ image: PixelBuffer) -> [UInt8] {
        if image.bytesPerRow == image.width * 4 { return Array(image.bytes.prefix(image.width * image.height * 4)) }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(image.width * image.height * 4)
        for row in 0..<image.height {
            pixels += image.bytes[(row * image.bytesPerRow)..<(row * image.bytesPerRow + image.width * 4)]
        }
        return pixels
    }

    /// `payload` in base64, in chunks of 4096 characters, the first with `firstKeys`.
    static func chunked(_ payload: [UInt8], firstKeys: String) -> [UInt8] {
        let encoded = Base64.encode(payload)
        var out: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + 4096, encoded.count)
            let more = end < encoded.count ? 1 : 0
            let keys = start == 0 ? "\(firstKeys),m=\(more)" : "m=\(more)"
            out += Array("\u{1B}_G\(keys);".utf8) + encoded[start..<end] + [0x1B, 0x5C]
            start = end
        } while start < encoded.count
        return out
    }

    /// `sequence` wrapped for tmux to pass to the terminal outside it: `ESC P tmux;`, the
    /// sequence with every ESC doubled, `ESC \`.
    public static func tmuxPassthrough(_ sequence: [UInt8]) -> [UInt8] {
        Array("\u{1B}Ptmux;".utf8) + sequence.flatMap { $0 == 0x1B ? [0x1B, 0x1B] : [$0] } + [0x1B, 0x5C]
    }

    /// `commands`, kitty graphics commands one after another (`ESC _ G … ESC \`), each wrapped
    /// for tmux's passthrough on its own: tmux drops a passthrough longer than its input buffer
    /// (1 MB), and a picture's chunks together can be longer than that.
    /// - Complexity: O(bytes).
    public static func tmuxPassthrough(commands: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(commands.count + commands.count / 512 + 16)
        var start = 0
        var index = 0
        while index + 1 < commands.count {
            if commands[index] == 0x1B && commands[index + 1] == 0x5C {
                out += tmuxPassthrough(Array(commands[start..<(index + 2)]))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        if start < commands.count { out += tmuxPassthrough(Array(commands[start...])) }
        return out
    }

    /// The numbers 0, 1, 2… as kitty's placeholders write them: its table of combining marks
    /// (class 230, above, with no part in canonical composition, from Unicode 6.0), up to the
    /// first mark added after 6.0, so every entry here has the index kitty gives it.
    static let diacritics: [UInt32] = [
        0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A, 0x034B, 0x034C,
        0x0350, 0x0351, 0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369,
        0x036A, 0x036B, 0x036C, 0x036D, 0x036E, 0x036F, 0x0483, 0x0484, 0x0485, 0x0486, 0x0487, 0x0592,
        0x0593, 0x0594, 0x0595, 0x0597, 0x0598, 0x0599, 0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1,
        0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611, 0x0612, 0x0613, 0x0614, 0x0615,
        0x0616, 0x0617, 0x0657, 0x0658, 0x0659, 0x065A, 0x065B, 0x065D, 0x065E, 0x06D6, 0x06D7, 0x06D8,
        0x06D9, 0x06DA, 0x06DB, 0x06DC, 0x06DF, 0x06E0, 0x06E1, 0x06E2, 0x06E4, 0x06E7, 0x06E8, 0x06EB,
        0x06EC, 0x0730, 0x0732, 0x0733, 0x0735, 0x0736, 0x073A, 0x073D, 0x073F, 0x0740, 0x0741, 0x0743,
        0x0745, 0x0747, 0x0749, 0x074A, 0x07EB, 0x07EC, 0x07ED, 0x07EE, 0x07EF, 0x07F0, 0x07F1, 0x07F3,
        0x0816, 0x0817, 0x0818, 0x0819, 0x081B, 0x081C, 0x081D, 0x081E, 0x081F, 0x0820, 0x0821, 0x0822,
        0x0823, 0x0825, 0x0826, 0x0827, 0x0829, 0x082A, 0x082B, 0x082C, 0x082D
    ]
}
