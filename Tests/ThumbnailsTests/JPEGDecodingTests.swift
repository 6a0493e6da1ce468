import ImageFixtures
import Testing
@testable import Thumbnails

@Suite("JPEG decoding")
struct JPEGDecodingTests {
    @Test(arguments: [false, true])
    func decodesColourJPEGsCloseToTheOriginal(progressive: Bool) throws {
        let jpeg = TestImages.smoothJPEG(width: 64, height: 48, progressive: progressive)

        let image = try ThumbnailDecoder().decode(jpeg, maxPixelSize: nil)

        #expect(image.width == 64 && image.height == 48)
        #expect(TestImages.meanError(image, TestImages.smooth(width: 64, height: 48)) < 2)
        #expect(image[10, 10].alpha == 255)
    }

    @Test func progressiveAndBaselineThumbnailsMatch() throws {
        let decoder = ThumbnailDecoder()
        let baseline = try decoder.decode(TestImages.smoothJPEG(width: 400, height: 300), maxPixelSize: 50)
        let progressive = try decoder.decode(TestImages.smoothJPEG(width: 400, height: 300, progressive: true), maxPixelSize: 50)

        #expect(baseline.width == 50 && baseline.height == 38)
        #expect(progressive.width == 50 && progressive.height == 38)
        #expect(TestImages.meanError(progressive) { baseline[$0, $1] } < 1.5)
    }

    @Test(arguments: [JPEGFixture.ColorModel.rgb, .gray, .cmyk])
    func aProgressiveThumbnailAtAnEighthMatchesOneDecodedFromEveryScan(model: JPEGFixture.ColorModel) throws {
        // At 1/8 the scans of AC coefficients that the scaled IDCT never reads are skipped.
        // The reference reads them all: without its end marker the file is not filtered and,
        // since partial images are allowed, decodes whole with nothing actually missing.
        let rgb = PhotoPattern.pixels(width: 400, height: 300)
        let pixelOffsets = stride(from: 0, to: rgb.count, by: 3)
        let pixels: [UInt8] = switch model {
        case .gray: pixelOffsets.map { (offset: Int) -> UInt8 in rgb[offset] }
        case .cmyk, .ycck: pixelOffsets.flatMap { (offset: Int) -> [UInt8] in [rgb[offset], rgb[offset + 1], rgb[offset + 2], 200] }
        case .rgb: rgb
        }
        let jpeg = JPEGFixture.encode(pixels: pixels, width: 400, height: 300, color: model, quality: 90, progressive: true)
        let decoder = ThumbnailDecoder(configuration: .init(returnsPartialImages: true))

        let thumbnail = try decoder.decode(jpeg, maxPixelSize: 50)
        let reference = try decoder.decode(Array(jpeg.dropLast(2)), maxPixelSize: 50)

        #expect(thumbnail.width == 50 && thumbnail.height == 38)
        #expect(thumbnail == reference)
    }

    @Test func widensGreyscaleToRGB() throws {
        let grey = (0..<(32 * 16)).map { UInt8(($0 % 32) * 8) }
        let jpeg = JPEGFixture.encode(pixels: grey, width: 32, height: 16, color: .gray, quality: 95)

        let image = try ThumbnailDecoder().decode(jpeg, maxPixelSize: nil)

        #expect(image.width == 32 && image.height == 16)
        for x in 0..<32 {
            let pixel = image[x, 8]
            #expect(pixel.red == pixel.green && pixel.green == pixel.blue && pixel.alpha == 255)
            #expect(abs(Int(pixel.red) - x * 8) <= 6, "column \(x): \(pixel)")
        }
    }

    @Test(arguments: [JPEGFixture.ColorModel.cmyk, .ycck])
    func convertsAdobeInvertedCMYKToRGB(model: JPEGFixture.ColorModel) throws {
        // Adobe-inverted CMYK: 255 means no ink. Left half: the channels carry a colour with
        // no black; right half: white paper under 50% black.
        var cmyk: [UInt8] = []
        for _ in 0..<16 {
            for x in 0..<32 { cmyk += x < 16 ? [200, 100, 50, 255] : [255, 255, 255, 128] }
        }
        let jpeg = JPEGFixture.encode(pixels: cmyk, width: 32, height: 16, color: model, quality: 95)

        let image = try ThumbnailDecoder().decode(jpeg, maxPixelSize: nil)

        let colour = image[4, 8]
        let grey = image[28, 8]
        #expect(abs(Int(colour.red) - 200) <= 4 && abs(Int(colour.green) - 100) <= 4 && abs(Int(colour.blue) - 50) <= 4, "\(colour)")
        #expect(abs(Int(grey.red) - 128) <= 4 && abs(Int(grey.green) - 128) <= 4 && abs(Int(grey.blue) - 128) <= 4, "\(grey)")
    }

    @Test func readsCMYKWithoutAnAdobeMarkerAsUninverted() throws {
        // Plain CMYK ink amounts for rgb(200, 100, 50): 255 - each channel, no black.
        let cmyk = [UInt8](repeating: 0, count: 16 * 16 * 4).indices.map { [55, 155, 205, 0][$0 % 4] } as [UInt8]
        var jpeg = JPEGFixture.encode(pixels: cmyk, width: 16, height: 16, color: .cmyk, quality: 95)
        let adobe = try #require(jpeg.jpegMarkerOffset(0xEE))
        jpeg.removeSubrange(adobe..<(adobe + 2 + (Int(jpeg[adobe + 2]) << 8 | Int(jpeg[adobe + 3]))))

        let image = try ThumbnailDecoder().decode(jpeg, maxPixelSize: nil)

        let pixel = image[8, 8]
        #expect(abs(Int(pixel.red) - 200) <= 4 && abs(Int(pixel.green) - 100) <= 4 && abs(Int(pixel.blue) - 50) <= 4, "\(pixel)")
    }

    @Test func scaledDecodingMatchesAFullDecodeDownsampled() throws {
        let jpeg = TestImages.smoothJPEG(width: 400, height: 300)
        let decoder = ThumbnailDecoder()

        let thumbnail = try decoder.decode(jpeg, maxPixelSize: 50)
        let reference = try decoder.decode(jpeg, maxPixelSize: nil).downsampled(toFit: 50)

        #expect(thumbnail.width == reference.width && thumbnail.height == reference.height)
        #expect(TestImages.meanError(thumbnail) { reference[$0, $1] } < 1.5)
    }

    @Test(arguments: [
        (3000, 2000, 128, 8), (1000, 667, 128, 4), (1000, 667, 300, 2), (1000, 667, 600, 1), (100, 100, 200, 1),
    ])
    func picksTheSmallestDecoderScaleThatCoversTheTarget(width: Int, height: Int, maxPixelSize: Int, denominator: Int) {
        let target = TargetSize(fitting: width, height, within: maxPixelSize)
        #expect(JPEGRowSource.scaleDenominator(width: width, height: height, target: target) == denominator)
    }

    @Test func thumbnailSizeDoesNotDependOnTheDecoderScale() throws {
        // 1000x667 at 1/4 is 250x167, whose own fit would round the short side to 86, not 85.
        let jpeg = TestImages.smoothJPEG(width: 1000, height: 667)

        let image = try ThumbnailDecoder().decode(jpeg, maxPixelSize: 128)

        #expect(image.width == 128 && image.height == 85)
    }

    @Test func aTwelveBitOrLosslessJPEGIsUnsupportedNotCorrupt() throws {
        let jpeg = TestImages.smoothJPEG(width: 16, height: 16)
        let frame = try #require(jpeg.jpegMarkerOffset(0xC0))
        var twelveBit = jpeg
        twelveBit[frame + 4] = 12
        var lossless = jpeg
        lossless[frame + 1] = 0xC3

        #expect(throws: ThumbnailError.unsupportedFormat("a 12-bit JPEG (only 8-bit JPEGs are decoded)")) {
            try ThumbnailDecoder().decode(twelveBit, maxPixelSize: 8)
        }
        #expect {
            try ThumbnailDecoder().decode(lossless, maxPixelSize: nil)
        } throws: { error in
            guard case ThumbnailError.unsupportedFormat(let what) = error else { return false }
            return what.hasPrefix("a lossless or hierarchical JPEG")
        }
    }
}
