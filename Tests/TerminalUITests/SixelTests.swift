import SeededRandom
import Testing
import TerminalUI
import Thumbnails

/// The sixel encoder, checked by decoding its own output as a terminal would.
@Suite struct SixelTests {
    /// A picture of `width` × `height` whose pixels come from `pixel`.
    static func picture(width: Int, height: Int, _ pixel: (Int, Int) -> RGBA) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let value = pixel(x, y)
                let offset = y * image.bytesPerRow + x * 4
                image.bytes.replaceSubrange(offset..<offset + 4, with: [value.red, value.green, value.blue, value.alpha])
            }
        }
        return image
    }

    /// Whether `decoded` is `original` with every opaque pixel within `tolerance` per channel
    /// and every transparent one (alpha below half) left undrawn.
    static func matches(_ decoded: PixelBuffer, _ original: PixelBuffer, tolerance: Int) -> Bool {
        guard decoded.width == original.width, decoded.height == original.height else { return false }
        for y in 0..<original.height {
            for x in 0..<original.width {
                let (a, b) = (decoded[x, y], original[x, y])
                if b.alpha < 128 {
                    if a.alpha != 0 { return false }
                    continue
                }
                if a.alpha != 255 || abs(Int(a.red) - Int(b.red)) > tolerance || abs(Int(a.green) - Int(b.green)) > tolerance
                    || abs(Int(a.blue) - Int(b.blue)) > tolerance { return false }
            }
        }
        return true
    }

    @Test func aPictureOfFewColoursComesBackExactlyToSixelsPrecision() throws {
        // 37 × 23: the last band is five rows, the width no multiple of anything.
        let image = Self.picture(width: 37, height: 23) { x, y in
            if (x + y) % 11 == 0 { return RGBA(red: 0, green: 0, blue: 0, alpha: 0) }
            // 8 × 8 × 3 = 192 colours.
            return RGBA(red: UInt8(x % 8 * 36), green: UInt8(y % 8 * 36), blue: UInt8((x * y) % 3 * 120))
        }

        let sixel = Sixel.encode(image)
        let decoded = try #require(SixelDecoder.decode(sixel))

        #expect(sixel.starts(with: [0x1B, 0x50] + Array("0;1;0q".utf8)))
        #expect(sixel.suffix(2) == [0x1B, 0x5C])
        // Sixel colours are percentages: a channel comes back within 1.3 of what it was.
        #expect(Self.matches(decoded, image, tolerance: 2))
    }

    @Test func randomPicturesOfUpTo256ColoursRoundTrip() throws {
        let seed = randomizedTestSeed()
        print("sixel seed: 0x\(String(seed, radix: 16))")
        var generator = SeededGenerator(seed: seed)
        for iteration in 0..<60 {
            let (width, height) = (Int.random(in: 1...70, using: &generator), Int.random(in: 1...40, using: &generator))
            let palette = (0..<Int.random(in: 1...256, using: &generator)).map { _ in
                RGBA(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                     blue: .random(in: 0...255, using: &generator), alpha: Bool.random(using: &generator) ? 255 : 0)
            }
            var choices: [RGBA] = []
            for _ in 0..<(width * height) { choices.append(palette.randomElement(using: &generator)!) }
            let image = Self.picture(width: width, height: height) { x, y in choices[y * width + x] }

            let decoded = SixelDecoder.decode(Sixel.encode(image))

            #expect(decoded.map { Self.matches($0, image, tolerance: 2) } ?? choices.allSatisfy { $0.alpha == 0 },
                    "seed 0x\(String(seed, radix: 16)), iteration \(iteration): \(width)×\(height), \(palette.count) colours")
        }
    }

    /// A smooth photo-like gradient of thousands of colours.
    static let gradient = picture(width: 96, height: 64) { x, y in
        RGBA(red: UInt8(x * 255 / 95), green: UInt8(y * 255 / 63), blue: UInt8((x + y) * 255 / 158))
    }

    /// The mean difference per channel between `decoded` and `original`, over 4 × 4 blocks
    /// (what the eye averages dithering into).
    static func blockError(_ decoded: PixelBuffer, _ original: PixelBuffer) -> Double {
        var total = 0.0, count = 0.0
        for blockY in stride(from: 0, to: original.height - 3, by: 4) {
            for blockX in stride(from: 0, to: original.width - 3, by: 4) {
                for channel in 0..<3 {
                    var a = 0, b = 0
                    for y in blockY..<(blockY + 4) {
                        for x in blockX..<(blockX + 4) {
                            a += Int(decoded.bytes[y * decoded.bytesPerRow + x * 4 + channel])
                            b += Int(original.bytes[y * original.bytesPerRow + x * 4 + channel])
                        }
                    }
                    total += Double(abs(a - b)) / 16
                    count += 1
                }
            }
        }
        return total / count
    }

    @Test func manyColoursAreReducedTo256AndStayClose() throws {
        let (colors, _) = Sixel.quantize(Self.gradient, palette: .adaptive(maxColors: 256))
        let adaptive = try #require(SixelDecoder.decode(Sixel.encode(Self.gradient, palette: .adaptive(maxColors: 256))))
        let cube = try #require(SixelDecoder.decode(Sixel.encode(Self.gradient, palette: .cube)))

        #expect(colors.count == 256)
        #expect(Self.blockError(adaptive, Self.gradient) < 4, "\(Self.blockError(adaptive, Self.gradient))")
        #expect(Self.blockError(cube, Self.gradient) < 8, "\(Self.blockError(cube, Self.gradient))")
    }

    @Test func aSolidPictureIsRunLengthEncoded() {
        let image = Self.picture(width: 200, height: 12) { _, _ in RGBA(red: 10, green: 200, blue: 30) }

        let sixel = Sixel.encode(image)

        // Two bands of one run each, not 400 characters.
        #expect(sixel.count < 80, "\(sixel.count) bytes")
        #expect(String(decoding: sixel, as: UTF8.self).contains("!200~"))
    }

    @Test func aFullyTransparentPictureDrawsNothing() throws {
        let image = Self.picture(width: 10, height: 10) { _, _ in RGBA(red: 255, green: 0, blue: 0, alpha: 0) }

        let decoded = try #require(SixelDecoder.decode(Sixel.encode(image)))

        #expect(decoded.bytes.allSatisfy { $0 == 0 })
    }
}
