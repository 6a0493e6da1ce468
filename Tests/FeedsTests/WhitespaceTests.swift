@testable import Feeds
import SeededRandom
import Testing

/// Trimming a field's ends, which every long article goes through.
@Suite struct WhitespaceTests {
    @Test(arguments: [
        ("  hello  ", "hello"), ("\n\t\r\u{0B}\u{0C}x\n", "x"), ("\u{A0}\u{2003}café\u{3000}", "café"), ("   ", ""), ("", ""),
        ("a", "a"), ("no ends", "no ends"), (" 👨‍👩‍👧‍👦 ", "👨‍👩‍👧‍👦"), ("\u{2028}中文\u{2029}", "中文"),
        // A combining mark after the leading space stays, without the space it leaned on.
        (" \u{301}e ", "\u{301}e"),
    ])
    func trimsTheEnds(text: String, trimmed: String) {
        #expect(text.trimmedWhitespace == trimmed)
        #expect(Substring("[" + text + "]").dropFirst().dropLast().trimmedWhitespace == trimmed)
    }

    @Test func agreesWithTrimmingScalarsOnRandomText() {
        let seed = randomizedTestSeed()
        print("whitespace seed: 0x\(String(seed, radix: 16))")
        var generator = SeededGenerator(seed: seed)
        let pieces: [String] = [" ", "\n", "\t", "\u{A0}", "\u{2009}", "a", "é", "\u{301}", "中", "👍🏽", "&", "<p>"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            var scalars = Array(text.unicodeScalars)
            while let first = scalars.first, first.isFeedWhitespace { scalars.removeFirst() }
            while let last = scalars.last, last.isFeedWhitespace { scalars.removeLast() }
            var expected = ""
            expected.unicodeScalars.append(contentsOf: scalars)
            #expect(text.trimmedWhitespace == expected, "seed 0x\(String(seed, radix: 16)): \(text.debugDescription)")
            #expect(text.trimmedWhitespace.unicodeScalars.elementsEqual(expected.unicodeScalars))
        }
    }
}
