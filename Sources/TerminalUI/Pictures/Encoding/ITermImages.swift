import Thumbnails

/// Pictures as iTerm2 inline images (`OSC 1337 ; File=`), which iTerm2 and WezTerm draw at
/// pixel resolution: a PNG, in base64, drawn at the cursor at its own size in pixels.
///
/// Like sixel pixels, an inline image belongs to the cells it covers: it scrolls with them and
/// whatever erases them erases it. ``InlinePlacements`` places these too, with
/// ``encode(_:)`` as its encoder.
public enum ITermImages {
    /// The bytes that draw `image` at the cursor, its top-left pixel at the top-left of the
    /// cursor's cell, at one image pixel per screen pixel; transparent pixels stay transparent.
    /// - Complexity: O(pixels).
    /// Empty when the picture could not be compressed (zlib out of memory): nothing is drawn.
    public static func encode(_ image: PixelBuffer) -> [UInt8] {
        guard let png = PNGWriter.encode(image) else { return [] }
        return Array("\u{1B}]1337;File=inline=1;size=\(png.count);width=\(image.width)px;height=\(image.height)px;preserveAspectRatio=0:".utf8)
            + Base64.encode(png) + [0x07]
    }
}

/// PNG files of RGBA pixels: what iTerm2's inline images carry. Rows unfiltered, deflated at
/// zlib's fastest level: the pictures are small and the time is the frame's.
enum PNGWriter {
    /// The PNG file of `image`; nil if zlib failed.
    static func encode(_ image: PixelBuffer) -> [UInt8]? {
        var raw: [UInt8] = []
        raw.reserveCapacity((image.width * 4 + 1) * image.height)
        for row in 0..<image.height {
            raw.append(0)
            raw += image.bytes[(row * image.bytesPerRow)..<(row * image.bytesPerRow + image.width * 4)]
        }
        var header: [UInt8] = []
        append(UInt32(image.width), to: &header)
        append(UInt32(image.height), to: &header)
        header += [8, 6, 0, 0, 0]
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk("IHDR", header, into: &out)
        guard let data = Zlib.deflated(raw) else { return nil }
        chunk("IDAT", data, into: &out)
        chunk("IEND", [], into: &out)
        return out
    }

    private static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        append(UInt32(data.count), to: &out)
        let body = Array(type.utf8) + data
        out += body
        append(Zlib.crc32(body), to: &out)
    }

    private static func append(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
