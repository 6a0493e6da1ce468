import ImageFixtures
import Testing
import Thumbnails

@Suite("Limits and damaged data")
struct SafetyTests {
    /// A PNG that declares `width` x `height` RGBA pixels, with a valid IHDR and next to no data.
    static func pngDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
        var png = TestImages.smoothPNG(width: 4, height: 4)
        // IHDR's data start after the signature (8), the chunk length (4) and its type (4).
        for (index, byte) in (withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init)).enumerated() {
            png[16 + index] = byte
        }
        return CRC32.repairingChunks(png)
    }

    /// A JPEG whose frame header (SOF0 or, if progressive, SOF2) declares `width` x `height`.
    static func jpegDeclaring(width: UInt16, height: UInt16, progressive: Bool) -> [UInt8] {
        var jpeg = TestImages.smoothJPEG(width: 16, height: 16, progressive: progressive)
        let frame = jpeg.jpegMarkerOffset(progressive ? 0xC2 : 0xC0)!
        // After the marker (2), length (2) and precision (1): height, then width.
        jpeg.replaceSubrange((frame + 5)..<(frame + 9), with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return jpeg
    }

    @Test func rejectsAPNGDeclaringTooManyPixelsBeforeDecoding() {
        let bomb = Self.pngDeclaring(width: 100_000, height: 100_000)

        #expect(throws: ThumbnailError.tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000)) {
            try ThumbnailDecoder().decode(bomb, maxPixelSize: 128)
        }
    }

    @Test(arguments: [false, true])
    func rejectsAJPEGDeclaringTooManyPixelsBeforeDecoding(progressive: Bool) {
        let bomb = Self.jpegDeclaring(width: 60_000, height: 60_000, progressive: progressive)

        #expect(throws: ThumbnailError.tooManyPixels(width: 60_000, height: 60_000, limit: 100_000_000)) {
            try ThumbnailDecoder().decode(bomb, maxPixelSize: 128)
        }
    }

    @Test func stopsAJPEGWithThousandsOfScans() throws {
        // Repeating the last refinement scan is legal enough for libjpeg to keep going (it only
        // warns), so only the scan limit stops the file from burning CPU time.
        let progressive = TestImages.smoothJPEG(width: 16, height: 16, progressive: true)
        var lastScan = 0
        for offset in 0..<(progressive.count - 1) where progressive[offset] == 0xFF && progressive[offset + 1] == 0xDA {
            lastScan = offset
        }
        let scan = progressive[lastScan..<(progressive.count - 2)]
        let bomb = Array(progressive[..<lastScan]) + Array(repeating: scan, count: 1200).flatMap { $0 } + [0xFF, 0xD9]

        #expect(throws: ThumbnailError.corrupt("more than 1000 progressive scans")) {
            try ThumbnailDecoder().decode(bomb, maxPixelSize: nil)
        }
    }

    @Test func thePixelLimitIsConfigurable() throws {
        let png = TestImages.smoothPNG(width: 20, height: 10)
        let strict = ThumbnailDecoder(configuration: .init(maxPixelCount: 199))

        #expect(throws: ThumbnailError.tooManyPixels(width: 20, height: 10, limit: 199)) {
            try strict.decode(png, maxPixelSize: nil)
        }
        #expect(try ThumbnailDecoder(configuration: .init(maxPixelCount: 200)).decode(png, maxPixelSize: nil).width == 20)
    }

    @Test(arguments: ["png", "interlaced png", "jpeg", "progressive jpeg"])
    func truncatedFilesFailWithATypedError(kind: String) {
        let full = switch kind {
        case "png": TestImages.smoothPNG(width: 64, height: 64)
        case "interlaced png": TestImages.smoothPNG(width: 64, height: 64, interlaced: true)
        case "jpeg": TestImages.smoothJPEG(width: 64, height: 64)
        default: TestImages.smoothJPEG(width: 64, height: 64, progressive: true)
        }
        for length in [full.count / 4, full.count / 2, full.count * 3 / 4] {
            #expect(throws: ThumbnailError.self, "cut to \(length) of \(full.count) bytes") {
                try ThumbnailDecoder().decode(Array(full.prefix(length)), maxPixelSize: 32)
            }
        }
        #expect {
            try ThumbnailDecoder().decode(Array(full.prefix(full.count / 2)), maxPixelSize: nil)
        } throws: { error in
            guard case .truncated = error as? ThumbnailError else { return false }
            return true
        }
    }

    @Test func aDamagedImageDataChunkIsCorruptAndTheRowsBeforeItSurvive() throws {
        // Noise compresses poorly, so the image data span several IDAT chunks.
        let pixels = PhotoPattern.pixels(width: 128, height: 128, withAlpha: true)
        var png = PNGFixture.encode(rgba: pixels, width: 128, height: 128)
        var offset = 8
        var idats: [Int] = []
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[offset + 4..<offset + 8].elementsEqual("IDAT".utf8) { idats.append(offset) }
            offset += length + 12
        }
        try #require(idats.count > 2)
        // A flipped byte in the last IDAT chunk, its CRC left as it was.
        png[idats.last! + 20] ^= 0x55

        #expect {
            try ThumbnailDecoder().decode(png, maxPixelSize: nil)
        } throws: { error in
            guard case .corrupt(let message) = error as? ThumbnailError else { return false }
            return message.contains("CRC")
        }
        let partial = try ThumbnailDecoder(configuration: .init(returnsPartialImages: true)).decode(png, maxPixelSize: nil)
        #expect(Array(partial.bytes.prefix(128 * 4 * 8)) == Array(pixels.prefix(128 * 4 * 8)))
    }

    @Test func returnsTheDecodedPartWhenAsked() throws {
        // Noise compresses poorly, so half the file holds whole rows past libpng's first reads.
        let pixels = PhotoPattern.pixels(width: 128, height: 128, withAlpha: true)
        let full = PNGFixture.encode(rgba: pixels, width: 128, height: 128)
        let partial = ThumbnailDecoder(configuration: .init(returnsPartialImages: true))

        let image = try partial.decode(Array(full.prefix(full.count / 2)), maxPixelSize: nil)

        #expect(image.width == 128 && image.height == 128)
        #expect(Array(image.bytes.prefix(128 * 4)) == Array(pixels.prefix(128 * 4)))
        #expect(image[10, 127].alpha == 0)
        #expect(throws: ThumbnailError.self) {
            try ThumbnailDecoder().decode(Array(full.prefix(full.count / 2)), maxPixelSize: nil)
        }
    }

    @Test func returnsTheDecodedPartOfAJPEGWhenAsked() throws {
        let full = TestImages.smoothJPEG(width: 64, height: 64)
        let partial = ThumbnailDecoder(configuration: .init(returnsPartialImages: true))

        let image = try partial.decode(Array(full.prefix(full.count * 3 / 4)), maxPixelSize: nil)

        #expect(image.width == 64 && image.height == 64)
        #expect(TestImages.meanError(PixelBuffer(width: 64, height: 8, bytesPerRow: 256, bytes: Array(image.bytes.prefix(64 * 8 * 4)))) {
            TestImages.smooth(width: 64, height: 64)($0, $1)
        } < 3)
    }
}
