import Testing
import TerminalUI

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), (" ", 1), ("é", 1), ("e\u{301}", 1), ("Ω", 1),
        ("日", 2), ("한", 2), ("Ａ", 2), ("\u{3000}", 2),
        ("😀", 2), ("🇫🇷", 2), ("👩‍👩‍👧‍👦", 2), ("👍🏽", 2), ("❤\u{FE0F}", 2), ("1\u{FE0F}\u{20E3}", 2),
        ("❤", 1), ("\u{200B}", 0), ("\u{1B}", 0), ("\u{301}", 1),
        ("का", 2), ("क्ष", 2), ("\u{1100}\u{1161}\u{11A8}", 2), ("\u{1161}", 2), ("\u{11A8}", 2), ("a\u{200D}", 1),
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

    /// What terminals make of each cluster: the columns tmux 3.3a moved its cursor by for it
    /// (checked by hand in a pane; see `TmuxRenderingTests`), and our reading.
    @Test(arguments: [
        ("a", 1...1), ("中", 2...2), ("e\u{301}", 1...1), ("🇫🇷", 2...2), ("😀", 2...2),
        ("👍🏽", 2...4), ("🏳️‍🌈", 1...3), ("❤\u{FE0F}", 1...2), ("1\u{FE0F}\u{20E3}", 1...2), ("👨‍👩‍👧‍👦", 2...8),
        ("🇫", 1...2), ("का", 1...2), ("\u{25CC}\u{301}", 1...1),
    ] as [(String, ClosedRange<Int>)])
    func tellsWhichClustersTerminalsMeasureDifferently(_ text: String, _ columns: ClosedRange<Int>) {
        #expect(DisplayWidth.columnsTerminalsMayUse(Character(text)) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(columns.contains(DisplayWidth.of(Character(text))))
    }
}
