import ImageFixtures
import Testing
import Thumbnails

/// One PNG layout to decode: a colour type, a bit depth, and whether it is interlaced.
struct PNGLayout: Sendable, CustomTestStringConvertible {
    var colorType: PNGFixture.ColorType
    var bitDepth: Int
    var interlaced: Bool

    var testDescription: String { "\(colorType) \(bitDepth)-bit\(interlaced ? " interlaced" : "")" }

    /// Every colour type with every bit depth the specification allows, plain and interlaced.
    static let all: [PNGLayout] = [false, true].flatMap { interlaced in
        PNGFixture.ColorType.allCases.flatMap { type in
            type.bitDepths.map { PNGLayout(colorType: type, bitDepth: $0, interlaced: interlaced) }
        }
    }
}

@Suite("PNG decoding")
struct PNGDecodingTests {
    /// An odd size, so sub-byte rows end mid-byte and every Adam7 pass has pixels.
    static let width = 13
    static let height = 11

    /// A sample for every channel of every pixel that varies across the whole range of `bitDepth`.
    static func sample(x: Int, y: Int, channel: Int, bitDepth: Int) -> UInt16 {
        let spread: Int = x * 7919 + y * 104_729 + channel * 31_337
        return UInt16(spread % (1 << bitDepth))
    }

    /// A sample reduced to 8 bits the way the decoder promises: low depths scaled to the full
    /// range, 16 bits cut to the high byte.
    static func eightBit(_ sample: UInt16, bitDepth: Int) -> UInt8 {
        bitDepth == 16 ? UInt8(sample >> 8) : UInt8(Int(sample) * 255 / ((1 << bitDepth) - 1))
    }

    /// 256 distinct RGB entries.
    static let palette: [UInt8] = (0..<256).flatMap { (index: Int) -> [UInt8] in
        let spread: Int = index * 3 % 256
        return [UInt8(index), UInt8(255 - index), UInt8(spread)]
    }

    @Test(arguments: PNGLayout.all)
    func decodesEveryColourTypeAndBitDepth(layout: PNGLayout) throws {
        let channels = layout.colorType.channels
        var samples: [UInt16] = []
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                for channel in 0..<channels { samples.append(Self.sample(x: x, y: y, channel: channel, bitDepth: layout.bitDepth)) }
            }
        }
        let paletteSize = layout.colorType == .palette ? 1 << layout.bitDepth : 0
        let png = PNGFixture.encode(
            samples: samples, width: Self.width, height: Self.height, colorType: layout.colorType,
            bitDepth: layout.bitDepth, interlaced: layout.interlaced, palette: Array(Self.palette.prefix(paletteSize * 3))
        )

        let image = try ThumbnailDecoder().decode(png, maxPixelSize: nil)

        Self.expectPixels(image, samples: samples, width: Self.width, height: Self.height, colorType: layout.colorType, bitDepth: layout.bitDepth)
    }

    /// The pixel the decoder promises for pixel (`x`, `y`) of `samples`, laid out as
    /// `PNGFixture.encode` takes them, over `palette`.
    static func expectedPixel(
        _ samples: [UInt16], x: Int, y: Int, width: Int, colorType: PNGFixture.ColorType, bitDepth: Int, palette: [UInt8] = palette
    ) -> RGBA {
        let first = (y * width + x) * colorType.channels
        let value = { (channel: Int) in eightBit(samples[first + channel], bitDepth: bitDepth) }
        return switch colorType {
        case .gray: RGBA(red: value(0), green: value(0), blue: value(0))
        case .grayAlpha: RGBA(red: value(0), green: value(0), blue: value(0), alpha: value(1))
        case .rgb: RGBA(red: value(0), green: value(1), blue: value(2))
        case .rgba: RGBA(red: value(0), green: value(1), blue: value(2), alpha: value(3))
        case .palette: RGBA(
            red: palette[Int(samples[first]) * 3], green: palette[Int(samples[first]) * 3 + 1], blue: palette[Int(samples[first]) * 3 + 2]
        )
        }
    }

    /// Expects `image` to be `samples` at full size, every pixel; stops at the first few
    /// wrong ones.
    static func expectPixels(
        _ image: PixelBuffer, samples: [UInt16], width: Int, height: Int, colorType: PNGFixture.ColorType, bitDepth: Int,
        comment: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(image.width == width && image.height == height && image.bytesPerRow == width * 4, "\(comment)", sourceLocation: sourceLocation)
        guard image.width == width && image.height == height else { return }
        var wrong = 0
        for y in 0..<height {
            for x in 0..<width where wrong < 3 {
                let expected = expectedPixel(samples, x: x, y: y, width: width, colorType: colorType, bitDepth: bitDepth)
                if image[x, y] != expected {
                    Issue.record("pixel (\(x), \(y)) is \(image[x, y]), not \(expected) \(comment)", sourceLocation: sourceLocation)
                    wrong += 1
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func appliesPaletteTransparency(interlaced: Bool) throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]
        // Shorter than the palette: the last entry stays opaque.
        let alphas: [UInt8] = [0, 128, 255]
        let indices = (0..<16).map { UInt16($0 % 4) }
        let png = PNGFixture.encode(samples: indices, width: 4, height: 4, colorType: .palette, bitDepth: 2, interlaced: interlaced, palette: palette, transparency: alphas)

        let image = try ThumbnailDecoder().decode(png, maxPixelSize: nil)

        #expect(image[0, 0] == RGBA(red: 255, green: 0, blue: 0, alpha: 0))
        #expect(image[1, 1] == RGBA(red: 0, green: 255, blue: 0, alpha: 128))
        #expect(image[2, 2] == RGBA(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(image[3, 3] == RGBA(red: 9, green: 9, blue: 9, alpha: 255))
    }

    @Test func appliesAGreyTransparencyKey() throws {
        let samples = (0..<16).map { UInt16($0 % 2 == 0 ? 7 : 200) }
        let png = PNGFixture.encode(samples: samples, width: 4, height: 4, colorType: .gray, bitDepth: 8, transparency: [0, 7])

        let image = try ThumbnailDecoder().decode(png, maxPixelSize: nil)

        #expect(image[0, 0].alpha == 0)
        #expect(image[1, 0] == RGBA(red: 200, green: 200, blue: 200, alpha: 255))
    }

    @Test func appliesAnRGBTransparencyKey() throws {
        let samples: [UInt16] = [10, 20, 30, 10, 20, 31]
        let png = PNGFixture.encode(samples: samples, width: 2, height: 1, colorType: .rgb, bitDepth: 8, transparency: [0, 10, 0, 20, 0, 30])

        let image = try ThumbnailDecoder().decode(png, maxPixelSize: nil)

        #expect(image[0, 0].alpha == 0)
        #expect(image[1, 0] == RGBA(red: 10, green: 20, blue: 31, alpha: 255))
    }

    @Test func interlacedAndPlainImagesDecodeAndDownsampleAlike() throws {
        let plain = TestImages.smoothPNG(width: 97, height: 61)
        let interlaced = TestImages.smoothPNG(width: 97, height: 61, interlaced: true)

        let decoder = ThumbnailDecoder()
        #expect(try decoder.decode(plain, maxPixelSize: nil) == decoder.decode(interlaced, maxPixelSize: nil))
        #expect(try decoder.decode(plain, maxPixelSize: 20) == decoder.decode(interlaced, maxPixelSize: 20))
    }
}
