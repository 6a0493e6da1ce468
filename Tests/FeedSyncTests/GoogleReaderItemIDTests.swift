@testable import FeedSync
import SeededRandom
import Testing

@Suite struct GoogleReaderItemIDTests {
    /// What normalizing meant before it read bytes, through the standard library's parsers,
    /// which also take a sign where no server sends one and `normalized` refuses it: a `+`
    /// anywhere, or a `-` in the long form's hex digits.
    private static func reference(_ text: String) -> RemoteItemID? {
        let prefix = GoogleReaderItemID.longPrefix
        let number: UInt64?
        if text.hasPrefix(prefix) {
            let hex = text.dropFirst(prefix.count)
            number = hex.count <= 16 && !hex.contains("+") && !hex.contains("-") ? UInt64(hex, radix: 16) : nil
        } else if text.first == "-" {
            number = Int64(text).map { UInt64(bitPattern: $0) }
        } else {
            number = text.contains("+") ? nil : UInt64(text)
        }
        guard let number else { return nil }
        let hex = String(number, radix: 16)
        return RemoteItemID(prefix + String(repeating: "0", count: 16 - hex.count) + hex)
    }

    @Test func edgeCases() {
        let prefix = GoogleReaderItemID.longPrefix
        #expect(GoogleReaderItemID.normalized("0")?.rawValue == prefix + "0000000000000000")
        #expect(GoogleReaderItemID.normalized("1795735305732892")?.rawValue == prefix + "000661363502431c")
        #expect(GoogleReaderItemID.normalized("18446744073709551615")?.rawValue == prefix + "ffffffffffffffff")
        #expect(GoogleReaderItemID.normalized("18446744073709551616") == nil)
        #expect(GoogleReaderItemID.normalized("-1")?.rawValue == prefix + "ffffffffffffffff")
        #expect(GoogleReaderItemID.normalized("-9223372036854775808")?.rawValue == prefix + "8000000000000000")
        #expect(GoogleReaderItemID.normalized("-9223372036854775809") == nil)
        #expect(GoogleReaderItemID.normalized(prefix + "ABC")?.rawValue == prefix + "0000000000000abc")
        #expect(GoogleReaderItemID.normalized(prefix + "000661363502431c")?.rawValue == prefix + "000661363502431c")
        for junk in ["", "-", "+1", "1a", " 1", prefix, prefix + "-0", prefix + "+0", prefix + "00000000000000000", prefix + "g", prefix + "-1", "١٢٣"] {
            #expect(GoogleReaderItemID.normalized(junk) == nil, "\(junk.debugDescription)")
        }
    }

    /// Random ids in both forms and near misses normalize as the standard library's parsers
    /// read them.
    @Test func matchesTheStandardLibrarysParsers() {
        let seed = randomizedTestSeed()
        print("GoogleReaderItemID: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("0123456789abcdefABCDEF-+ xg")
        for _ in 0..<20_000 {
            let number = UInt64.random(in: 0...UInt64.max, using: &random) >> UInt64.random(in: 0...63, using: &random)
            let text: String
            switch Int.random(in: 0..<5, using: &random) {
            case 0: text = String(number)
            case 1: text = String(Int64(bitPattern: number))
            case 2: text = GoogleReaderItemID.longPrefix + String(number, radix: 16, uppercase: Bool.random(using: &random))
            case 3:
                let digits = String(number, radix: 16)
                text = GoogleReaderItemID.longPrefix + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
            default:
                let prefix = Bool.random(using: &random) ? GoogleReaderItemID.longPrefix : ""
                text = prefix + String((0..<Int.random(in: 0...22, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            }
            #expect(GoogleReaderItemID.normalized(text) == Self.reference(text), "seed \(seed): \(text.debugDescription)")
        }
    }
}
