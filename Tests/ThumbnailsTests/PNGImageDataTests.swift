import Foundation
import ImageFixtures
import SeededRandom
import Testing
import Thumbnails

/// The PNG decoder's own handling of the image data: both inflaters, every filter at every
/// pixel size, chunks split anywhere, and streams that break, end early or run on.
@Suite("PNG image data")
struct PNGImageDataTests {
    static let decoders = ThumbnailDecoder.Inflate.allCases.map { ThumbnailDecoder(configuration: .init(inflate: $0)) }

    static func samples(width: Int, height: Int, layout: PNGLayout, using generator: inout SeededGenerator) -> [UInt16] {
        let limit = layout.colorType == .palette ? min(256, 1 << layout.bitDepth) : 1 << layout.bitDepth
        // Smooth runs with noise, so every filter meets small and large differences.
        return (0..<(width * height * layout.colorType.channels)).map { index in
            Bool.random(using: &generator) ? UInt16((index * 37 / 5) % limit) : UInt16.random(in: 0..<UInt16(limit - 1), using: &generator)
        }
    }

    @Test(arguments: PNGLayout.all, [UInt8](0...4))
    func everyFilterUndoesAtEveryPixelSize(layout: PNGLayout, filter: UInt8) throws {
        let (width, height) = (PNGDecodingTests.width, PNGDecodingTests.height)
        var generator = SeededGenerator(seed: 0x0F11_7E25)
        let samples = Self.samples(width: width, height: height, layout: layout, using: &generator)
        let data = CraftedPNG.imageData(
            samples: samples, width: width, height: height, colorType: layout.colorType, bitDepth: layout.bitDepth,
            interlaced: layout.interlaced, filters: [filter]
        )
        let paletteSize = layout.colorType == .palette ? 1 << layout.bitDepth : 0
        let png = CraftedPNG.make(
            width: width, height: height, colorType: layout.colorType, bitDepth: layout.bitDepth, interlaced: layout.interlaced,
            imageData: data, palette: Array(PNGDecodingTests.palette.prefix(paletteSize * 3))
        )

        for decoder in Self.decoders {
            let image = try decoder.decode(png, maxPixelSize: nil)
            PNGDecodingTests.expectPixels(
                image, samples: samples, width: width, height: height, colorType: layout.colorType, bitDepth: layout.bitDepth,
                comment: "with \(decoder.configuration.inflate)"
            )
        }
    }

    @Test func randomImagesWithMixedFiltersAndChunksDecodeExactly() throws {
        let seed = randomizedTestSeed()
        print("PNG image data seed: 0x\(String(seed, radix: 16))")
        var generator = SeededGenerator(seed: seed)
        for iteration in 0..<120 {
            let layout = PNGLayout.all.randomElement(using: &generator)!
            // Now and then wide enough that rows straddle the decoder's 64 KB stage.
            let wide = iteration % 10 == 0
            let width = wide ? Int.random(in: 3000...5000, using: &generator) : Int.random(in: 1...90, using: &generator)
            let height = wide ? Int.random(in: 2...9, using: &generator) : Int.random(in: 1...60, using: &generator)
            let samples = Self.samples(width: width, height: height, layout: layout, using: &generator)
            let filters = (0..<16).map { _ in UInt8.random(in: 0...4, using: &generator) }
            let data = CraftedPNG.imageData(
                samples: samples, width: width, height: height, colorType: layout.colorType, bitDepth: layout.bitDepth,
                interlaced: layout.interlaced, filters: filters
            )
            let paletteSize = layout.colorType == .palette ? 1 << layout.bitDepth : 0
            var png = CraftedPNG.make(
                width: width, height: height, colorType: layout.colorType, bitDepth: layout.bitDepth, interlaced: layout.interlaced,
                imageData: data, palette: Array(PNGDecodingTests.palette.prefix(paletteSize * 3)),
                stream: { CraftedPNG.storedZlib($0, blockSize: Int.random(in: 1...65535, using: &generator)) }
            )
            if Bool.random(using: &generator) {
                png = CraftedPNG.splittingImageData(png, every: Int.random(in: 1...3000, using: &generator))
            }
            let comment = "seed 0x\(String(seed, radix: 16)), iteration \(iteration): \(layout.testDescription) \(width)×\(height)"
            for decoder in Self.decoders {
                let image = try decoder.decode(png, maxPixelSize: nil)
                PNGDecodingTests.expectPixels(
                    image, samples: samples, width: width, height: height, colorType: layout.colorType, bitDepth: layout.bitDepth,
                    comment: "\(comment) with \(decoder.configuration.inflate)"
                )
            }
        }
    }

    @Test(arguments: [1, 2, 3, 100])
    func imageDataSplitIntoChunksOfAnySizeDecodeAlike(size: Int) throws {
        // Compressed by libpng, so the inflaters meet Huffman blocks cut anywhere, and with
        // one-byte chunks the zlib header is cut in two.
        let png = TestImages.smoothPNG(width: 61, height: 37)
        let split = CraftedPNG.splittingImageData(png, every: size)
        #expect(CraftedPNG.chunks(split).filter { $0.type == "IDAT" }.count > 1)

        for decoder in Self.decoders {
            #expect(try decoder.decode(split, maxPixelSize: nil) == decoder.decode(png, maxPixelSize: nil))
        }
    }

    @Test func bothInflatersGiveTheSamePixelsAndTheThumbnail() throws {
        let png = PNGFixture.encode(rgba: PhotoPattern.pixels(width: 640, height: 427, withAlpha: true), width: 640, height: 427)
        let interlaced = PNGFixture.encode(rgba: PhotoPattern.pixels(width: 640, height: 427, withAlpha: true), width: 640, height: 427, interlaced: true)
        let (fastest, zlib) = (Self.decoders[0], Self.decoders[1])

        #expect(try fastest.decode(png, maxPixelSize: nil) == zlib.decode(png, maxPixelSize: nil))
        #expect(try fastest.decode(png, maxPixelSize: 100) == zlib.decode(png, maxPixelSize: 100))
        #expect(try fastest.decode(interlaced, maxPixelSize: nil) == zlib.decode(png, maxPixelSize: nil))
    }

    @Test func namesTheInflateItUses() {
        #expect(ThumbnailDecoder.Inflate.zlib.library.hasPrefix("zlib "))
        #expect(!ThumbnailDecoder.Inflate.zlib.usesISAL)
        // Where this machine has ISA-L's runtime library (CI installs it), it is used unless
        // the environment says otherwise; where it has not, zlib says why.
        let hasISAL = dlopen("libisal.so.2", RTLD_NOW | RTLD_LOCAL) != nil
        let forcedZlib = ProcessInfo.processInfo.environment["SCROLLWORK_INFLATE"] == "zlib"
        #expect(ThumbnailDecoder.Inflate.fastest.usesISAL == (hasISAL && !forcedZlib), "\(ThumbnailDecoder.Inflate.fastest.library)")
        if !ThumbnailDecoder.Inflate.fastest.usesISAL {
            #expect(ThumbnailDecoder.Inflate.fastest.library.hasPrefix("zlib ") && ThumbnailDecoder.Inflate.fastest.library.hasSuffix(")"))
        }
    }

    // MARK: Damage

    /// A 6 × 5 grey image, each row filtered with the filter given for it (a filter byte above
    /// 4 is written as it is), the samples counting up.
    static func grey(filters: [UInt8], stream: (([UInt8]) -> [UInt8])? = nil) -> (png: [UInt8], samples: [UInt16]) {
        let samples = (0..<30).map { UInt16($0 * 8) }
        let data = CraftedPNG.imageData(samples: samples, width: 6, height: 5, colorType: .gray, bitDepth: 8, interlaced: false, filters: filters)
        return (CraftedPNG.make(width: 6, height: 5, colorType: .gray, bitDepth: 8, imageData: data, stream: stream), samples)
    }

    static func partial(_ decoder: ThumbnailDecoder) -> ThumbnailDecoder {
        var configuration = decoder.configuration
        configuration.returnsPartialImages = true
        return ThumbnailDecoder(configuration: configuration)
    }

    @Test func aBadFilterByteIsCorruptAndTheRowsBeforeItSurvive() throws {
        let (png, samples) = Self.grey(filters: [0, 0, 5, 0, 0])

        for decoder in Self.decoders {
            #expect {
                try decoder.decode(png, maxPixelSize: nil)
            } throws: { error in
                guard case ThumbnailError.corrupt(let message) = error else { return false }
                return message.contains("filter")
            }
            let image = try Self.partial(decoder).decode(png, maxPixelSize: nil)
            for x in 0..<6 {
                #expect(image[x, 1] == RGBA(red: UInt8(samples[6 + x]), green: UInt8(samples[6 + x]), blue: UInt8(samples[6 + x])))
                #expect(image[x, 2].alpha == 0)
            }
        }
    }

    @Test func aStreamThatEndsBeforeTheLastRowIsCorrupt() throws {
        // The deflate stream says it is finished two rows early.
        let (png, _) = Self.grey(filters: [0, 0, 0, 0, 0]) { CraftedPNG.storedZlib(Array($0.prefix(21))) }
        // The stream goes on, but no IDAT chunk holds the rest.
        let (unfinished, _) = Self.grey(filters: [0, 0, 0, 0, 0]) { CraftedPNG.storedZlib(Array($0.prefix(21)), final: false) }

        for decoder in Self.decoders {
            for file in [png, unfinished] {
                #expect {
                    try decoder.decode(file, maxPixelSize: nil)
                } throws: { error in
                    guard case ThumbnailError.corrupt(let message) = error else { return false }
                    return message.contains("Not enough image data")
                }
                let image = try Self.partial(decoder).decode(file, maxPixelSize: nil)
                #expect(image[5, 2].alpha == 255 && image[0, 3].alpha == 0)
            }
        }
    }

    @Test func whatAStreamHoldsPastTheLastRowIsNeverRead() throws {
        // More rows' worth of data than the image has, then a block of the reserved type 3,
        // which no inflater accepts: neither is reached.
        let (png, samples) = Self.grey(filters: [0, 1, 2, 3, 4]) { data in
            CraftedPNG.storedZlib(data + [9, 9, 9, 9], final: false) + [0x07, 0xFF, 0xFF]
        }

        for decoder in Self.decoders {
            let image = try decoder.decode(png, maxPixelSize: nil)
            PNGDecodingTests.expectPixels(image, samples: samples, width: 6, height: 5, colorType: .gray, bitDepth: 8)
        }
    }

    @Test func imageDataCutShortAreTruncated() throws {
        let png = TestImages.smoothPNG(width: 61, height: 37)
        let idat = CraftedPNG.chunks(png).first { $0.type == "IDAT" }!
        let start = try #require(png.firstRange(of: Array("IDAT".utf8))).upperBound
        let cut = Array(png.prefix(start + idat.data.count / 2))

        for decoder in Self.decoders {
            #expect {
                try decoder.decode(cut, maxPixelSize: nil)
            } throws: { error in
                guard case ThumbnailError.truncated = error else { return false }
                return true
            }
        }
    }

    @Test func aBrokenZlibHeaderIsCorrupt() throws {
        let (png, _) = Self.grey(filters: [0, 0, 0, 0, 0]) { [0x78, 0x02] + CraftedPNG.storedZlib($0).dropFirst(2) }

        for decoder in Self.decoders {
            #expect {
                try decoder.decode(png, maxPixelSize: nil)
            } throws: { error in
                guard case ThumbnailError.corrupt(let message) = error else { return false }
                return message.contains("zlib header")
            }
        }
    }
}
