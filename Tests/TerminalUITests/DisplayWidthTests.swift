import Testing
import TerminalUI

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), (" ", 1), ("é", 1), ("e\u{301}", 1), ("Ω", 1),
        ("日", 2), ("한", 2), ("Ａ", 2), ("\u{3000}", 2),
        ("😀", 2), ("🇫🇷", 2), ("👩‍👩‍👧‍👦", 2), ("👍🏽", 2), ("❤\u{FE0F}", 2), ("1\u{FE0F}\u{20E3}", 2),
        ("❤", 1), ("\u{200B}", 0), ("\u{1B}", 0), ("\u{301}", 1),
    ] as [(String, Int)])
    func measuresAGraphemeCluster(_ text: String, _ width: Int) {
        #expect(text.count == 1)
        #expect(DisplayWidth.of(Character(text)) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func measuresTextAsTheSumOfItsClusters() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of("日本語 text") == 11)
        #expect(DisplayWidth.of("a👩‍💻b") == 4)
        #expect(DisplayWidth.of("Cafe\u{301}") == 4)
    }
}
