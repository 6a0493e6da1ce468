import ImageFixtures
import SeededRandom
import Testing
import Thumbnails

@Suite("Random corruption")
struct FuzzTests {
    static let seed: UInt64 = 0x5C01_1_0B0C

    /// Small valid files of every kind the decoder reads, to corrupt.
    static let originals: [(String, [UInt8])] = [
        ("png", TestImages.smoothPNG(width: 40, height: 24)),
        ("interlaced png", TestImages.smoothPNG(width: 40, height: 24, interlaced: true)),
        ("palette png", PNGFixture.encode(samples: (0..<(24 * 24)).map { UInt16($0 % 16) }, width: 24, height: 24, colorType: .palette, bitDepth: 4,
                                           palette: Array(repeating: [10, 200, 90], count: 16).flatMap { $0 }, transparency: [0, 100])),
        ("jpeg", TestImages.smoothJPEG(width: 40, height: 24)),
        ("progressive jpeg", TestImages.smoothJPEG(width: 40, height: 24, progressive: true)),
        ("grey jpeg", JPEGFixture.encode(pixels: (0..<(24 * 24)).map { UInt8($0 % 256) }, width: 24, height: 24, color: .gray)),
        ("cmyk jpeg", JPEGFixture.encode(pixels: (0..<(16 * 16 * 4)).map { UInt8($0 % 256) }, width: 16, height: 16, color: .ycck)),
    ]

    @Test(arguments: ThumbnailDecoder.Inflate.allCases)
    func survivesThousandsOfMutatedFiles(inflate: ThumbnailDecoder.Inflate) {
        print("fuzz seed: 0x\(String(Self.seed, radix: 16)), \(inflate.library)")
        var generator = SeededGenerator(seed: Self.seed)
        // Small enough that a mutated header cannot make one case slow.
        let decoder = ThumbnailDecoder(configuration: .init(maxPixelCount: 1 << 20, inflate: inflate))
        var outcomes: [String: Int] = [:]
        let iterations = 4000
        for iteration in 0..<iterations {
            let (kind, original) = Self.originals[iteration % Self.originals.count]
            var data = original
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                data[Int.random(in: 2..<data.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) && kind.hasSuffix("png") {
                // Past the checksums, so the damage reaches zlib and the filters.
                data = CRC32.repairingChunks(data)
            }
            if Int.random(in: 0..<4, using: &generator) == 0 {
                data = Array(data.prefix(Int.random(in: 0..<data.count, using: &generator)))
            }
            let maxPixelSize: Int? = Bool.random(using: &generator) ? nil : 16
            do {
                let image = try decoder.decode(data, maxPixelSize: maxPixelSize, isCancelled: { false })
                if let maxPixelSize {
                    #expect(max(image.width, image.height) <= maxPixelSize, "seed 0x\(String(Self.seed, radix: 16)), iteration \(iteration)")
                }
                #expect(image.bytes.count == image.height * image.bytesPerRow)
                outcomes["decoded", default: 0] += 1
            } catch {
                outcomes[String(describing: error).prefix { $0 != ":" }.description, default: 0] += 1
            }
        }
        print("fuzz outcomes over \(iterations) files: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes.values.reduce(0, +) == iterations)
        // Both paths must be exercised, or the mutations are too weak or too strong to test anything.
        #expect(outcomes["decoded", default: 0] > 0)
        #expect(outcomes["decoded", default: 0] < iterations)
    }
}
