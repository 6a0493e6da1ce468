@testable import Feeds
import SeededRandom
import Testing

@Suite struct PlainTextTests {
    /// The tag stripper as it was written first, on Unicode scalars: the byte-level one must
    /// give the same text.
    private func reference(_ html: String) -> String {
        guard html.utf8.contains(UInt8(ascii: "<")) else { return PlainText.collapsingWhitespace(HTMLEntities.decode(html)) }
        var text = String.UnicodeScalarView()
        var scalars = html.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "<", let next = scalars.first, next.properties.isAlphabetic || "/!?".unicodeScalars.contains(next) {
                let closing: String = scalars.starts(with: "!--".unicodeScalars) ? "-->" : ">"
                if let range = scalars.firstRange(of: closing.unicodeScalars) {
                    scalars = scalars[range.upperBound...]
                    text.append(" ")
                    continue
                }
            }
            text.append(scalar)
        }
        return PlainText.collapsingWhitespace(HTMLEntities.decode(String(text)))
    }

    @Test func theByteLevelStripperAgreesWithTheScalarOne() {
        let seed = randomizedTestSeed()
        print("PlainText: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let tokens = ["<", ">", "a", "p", "/", "!", "?", "-", "--", "<!--", "-->", " ", "é", "<é", "日", "&amp;", "&lt;", "<b>", "</b>", "<p", "x"]
        for _ in 0..<5_000 {
            let html = (0..<Int.random(in: 0...24, using: &random)).map { _ in tokens[Int.random(in: 0..<tokens.count, using: &random)] }.joined()
            #expect(PlainText.from(html: html) == reference(html), "seed \(seed): \(html.debugDescription)")
        }
    }
}
