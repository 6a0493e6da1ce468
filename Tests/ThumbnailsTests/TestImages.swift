import ImageFixtures
import Thumbnails

/// Small helpers shared by the decoding tests.
enum TestImages {
    /// Tightly packed RGBA8 pixels, one `RGBA` per pixel, row-major.
    static func rgbaBytes(width: Int, height: Int, _ color: (Int, Int) -> RGBA) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let pixel = color(x, y)
                bytes += [pixel.red, pixel.green, pixel.blue, pixel.alpha]
            }
        }
        return bytes
    }

    /// The mean absolute difference per colour channel between two same-sized opaque images.
    static func meanError(_ image: PixelBuffer, _ expected: (Int, Int) -> RGBA) -> Double {
        var total = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x, y]
                let wanted = expected(x, y)
                total += abs(Int(pixel.red) - Int(wanted.red)) + abs(Int(pixel.green) - Int(wanted.green)) + abs(Int(pixel.blue) - Int(wanted.blue))
            }
        }
        return Double(total) / Double(image.width * image.height * 3)
    }

    /// A smooth colour field that JPEG keeps close to the original.
    static func smooth(width: Int, height: Int) -> (Int, Int) -> RGBA {
        { x, y in
            RGBA(red: UInt8(40 + x * 160 / width), green: UInt8(40 + y * 160 / height), blue: UInt8(200 - (x + y) * 100 / (width + height)))
        }
    }

    /// A baseline RGB JPEG of the `smooth` field.
    static func smoothJPEG(width: Int, height: Int, progressive: Bool = false) -> [UInt8] {
        let color = smooth(width: width, height: height)
        var rgb: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let pixel = color(x, y)
                rgb += [pixel.red, pixel.green, pixel.blue]
            }
        }
        return JPEGFixture.encode(pixels: rgb, width: width, height: height, quality: 95, progressive: progressive)
    }

    /// An RGBA PNG of the `smooth` field.
    static func smoothPNG(width: Int, height: Int, interlaced: Bool = false) -> [UInt8] {
        PNGFixture.encode(rgba: rgbaBytes(width: width, height: height, smooth(width: width, height: height)), width: width, height: height, interlaced: interlaced)
    }
}

/// The PNG chunk CRC, for crafting and repairing PNGs.
enum CRC32 {
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        PNGChunks.crc32(bytes)
    }

    /// `png` with every complete chunk's CRC recomputed, so that damage inside a chunk reaches
    /// the decoder's parsing instead of stopping at the checksum.
    static func repairingChunks(_ png: [UInt8]) -> [UInt8] {
        var bytes = png
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= bytes.count - offset - 12 else { break }
            let crc = checksum(bytes[(offset + 4)..<(offset + 8 + length)])
            for index in 0..<4 { bytes[offset + 8 + length + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
            offset += 12 + length
        }
        return bytes
    }
}

extension Array where Element == UInt8 {
    /// The offset of the first JPEG marker `marker` (the byte after 0xFF) before the first scan.
    func jpegMarkerOffset(_ marker: UInt8) -> Int? {
        var offset = 2
        while offset + 4 <= count, self[offset] == 0xFF {
            if self[offset + 1] == marker { return offset }
            if self[offset + 1] == 0xDA { return nil }
            offset += 2 + (Int(self[offset + 2]) << 8 | Int(self[offset + 3]))
        }
        return nil
    }
}
