import ImageFixtures
import Testing
import Thumbnails

@Suite("Downsampling")
struct DownsamplingTests {
    @Test func aFineCheckerboardAveragesToGrey() throws {
        let checker = TestImages.rgbaBytes(width: 64, height: 64) { x, y in
            (x + y) % 2 == 0 ? RGBA(red: 0, green: 0, blue: 0) : RGBA(red: 255, green: 255, blue: 255)
        }
        let png = PNGFixture.encode(rgba: checker, width: 64, height: 64)

        let image = try ThumbnailDecoder().decode(png, maxPixelSize: 16)

        #expect(image.width == 16 && image.height == 16)
        for y in 0..<16 {
            for x in 0..<16 {
                // 127.5 exactly, rounded half up.
                #expect(image[x, y] == RGBA(red: 128, green: 128, blue: 128), "pixel (\(x), \(y))")
            }
        }
    }

    @Test func aCheckerboardWithAFractionalScaleStaysGrey() throws {
        // 64 to 24 is 2.67 source pixels per output pixel: every output pixel straddles
        // partial pixels, and only fractional coverage keeps the mean at half.
        let checker = TestImages.rgbaBytes(width: 64, height: 64) { x, y in
            (x + y) % 2 == 0 ? RGBA(red: 0, green: 0, blue: 0) : RGBA(red: 255, green: 255, blue: 255)
        }
        let image = PixelBuffer(width: 64, height: 64, bytesPerRow: 256, bytes: checker).downsampled(toFit: 24)

        #expect(image.width == 24 && image.height == 24)
        for y in 0..<24 {
            for x in 0..<24 { #expect(abs(Int(image[x, y].red) - 128) <= 12, "pixel (\(x), \(y)): \(image[x, y])") }
        }
    }

    @Test func aGradientAveragesEachBlock() throws {
        let gradient = TestImages.rgbaBytes(width: 256, height: 4) { x, _ in RGBA(red: UInt8(x), green: UInt8(255 - x), blue: 0) }
        let png = PNGFixture.encode(rgba: gradient, width: 256, height: 4)

        let image = try ThumbnailDecoder().decode(png, maxPixelSize: 64)

        #expect(image.width == 64 && image.height == 1)
        for x in 0..<64 {
            // The mean of 4x, 4x+1, 4x+2, 4x+3 is 4x+1.5, rounded half up.
            #expect(image[x, 0] == RGBA(red: UInt8(4 * x + 2), green: UInt8(255 - 4 * x - 1), blue: 0), "column \(x)")
        }
    }

    @Test func countsPartlyCoveredPixelsByTheirCoverage() {
        // Three pixels into two: each output pixel covers one whole pixel and half the middle one.
        let row = PixelBuffer(width: 3, height: 1, bytesPerRow: 12, bytes: [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255])

        let image = row.downsampled(toFit: 2)

        #expect(image.width == 2 && image.height == 1)
        #expect(image[0, 0] == RGBA(red: 30, green: 30, blue: 30))
        #expect(image[1, 0] == RGBA(red: 150, green: 150, blue: 150))
    }

    @Test func transparentPixelsDoNotBleedTheirColour() {
        let pair = PixelBuffer(width: 2, height: 1, bytesPerRow: 8, bytes: [255, 0, 0, 0, 0, 0, 255, 255])

        let image = pair.downsampled(toFit: 1)

        #expect(image[0, 0] == RGBA(red: 0, green: 0, blue: 255, alpha: 128))
    }

    /// Sizes and targets: a fractional scale, a barely reduced one, whole output columns wider
    /// than the longest palette run, and more interior rows than palette sums take unfolded.
    @Test(arguments: [(301, 157, 37), (97, 13, 96), (5, 4, 4), (600, 300, 2)])
    func aPaletteImageReducesExactlyAsTheSamePixelsInRGBA(width: Int, height: Int, maxPixelSize: Int) throws {
        let palette = (0..<256).flatMap { (index: Int) -> [UInt8] in [UInt8(index), UInt8(255 - index), UInt8(index * 7 % 256)] }
        let alphas = (0..<256).map { UInt8($0 * 37 % 256) }
        let indices = (0..<(width * height)).map { UInt16(($0 * 7919 + $0 / width * 104_729) % 256) }
        let rgba = indices.flatMap { (index: UInt16) -> [UInt8] in
            let entry = Int(index)
            return [palette[3 * entry], palette[3 * entry + 1], palette[3 * entry + 2], alphas[entry]]
        }
        let indexed = PNGFixture.encode(
            samples: indices, width: width, height: height, colorType: .palette, bitDepth: 8, palette: palette, transparency: alphas
        )
        let decoder = ThumbnailDecoder()

        // Palette rows are summed across in runs first, RGBA rows are not: exact sums make the
        // thumbnails equal byte for byte all the same.
        let thumbnail = try decoder.decode(indexed, maxPixelSize: maxPixelSize)
        #expect(try thumbnail == decoder.decode(PNGFixture.encode(rgba: rgba, width: width, height: height), maxPixelSize: maxPixelSize))
    }

    @Test func keepsTheAspectRatioAndNeverEnlarges() throws {
        let wide = TestImages.smoothPNG(width: 300, height: 100)
        let decoder = ThumbnailDecoder()

        let fitted = try decoder.decode(wide, maxPixelSize: 30)
        let tall = try decoder.decode(TestImages.smoothPNG(width: 100, height: 300), maxPixelSize: 30)
        let small = try decoder.decode(wide, maxPixelSize: 1000)

        #expect(fitted.width == 30 && fitted.height == 10)
        #expect(tall.width == 10 && tall.height == 30)
        #expect(small.width == 300 && small.height == 100)
    }

    @Test func aThinImageKeepsAtLeastOnePixel() throws {
        let line = TestImages.smoothPNG(width: 1000, height: 1)

        let image = try ThumbnailDecoder().decode(line, maxPixelSize: 10)

        #expect(image.width == 10 && image.height == 1)
    }
}
