@testable import Feeds
import SeededRandom
import Testing

@Suite struct ByteScanningTests {
    /// The word-at-a-time scans find what a byte-at-a-time loop finds, at every offset and
    /// length, over bytes that mix printable ASCII with spaces, controls, carriage returns,
    /// DEL and bytes of non-ASCII characters.
    @Test func wordScansMatchByteLoops() {
        let seed = randomizedTestSeed()
        print("ByteScanning: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let interesting: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x41, 0x7E, 0x7F, 0x80, 0xA0, 0xC2, 0xE3, 0xFF]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &random)
            let rarity = Int.random(in: 1...30, using: &random)
            let bytes: [UInt8] = (0..<count).map { _ in
                Int.random(in: 0..<rarity, using: &random) == 0 ? interesting.randomElement(using: &random)! : UInt8.random(in: 0x21...0x7E, using: &random)
            }
            let start = Int.random(in: 0...count, using: &random)
            let prefix = Int.random(in: 0...count + 2, using: &random)
            bytes.withUnsafeBufferPointer { buffer in
                let end = bytes[start...].firstIndex { !(0x21...0x7F).contains($0) } ?? count
                #expect(buffer.endOfASCIIWord(from: start) == end, "seed \(seed): \(bytes) from \(start)")
                let plain = !bytes.prefix(prefix).contains { $0 >= 0x80 || $0 == 0x0D }
                #expect(buffer.isASCIIWithoutCarriageReturn(prefix: prefix) == plain, "seed \(seed): \(bytes) prefix \(prefix)")
            }
        }
    }
}
