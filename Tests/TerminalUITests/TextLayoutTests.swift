import Testing
import TerminalUI

@Suite struct TextLayoutTests {
    @Test func truncationKeepsTextThatFits() {
        #expect(TextLayout.truncated("hello", toWidth: 5) == "hello")
        #expect(TextLayout.truncated("日本", toWidth: 4) == "日本")
    }

    @Test func truncationEndsWithAnEllipsisWithinTheWidth() {
        #expect(TextLayout.truncated("hello world", toWidth: 8) == "hello w…")
        // A wide character that would cross the limit goes, leaving a column unused.
        #expect(TextLayout.truncated("日本語です", toWidth: 6) == "日本…")
        #expect(TextLayout.truncated("ab👩‍👩‍👧‍👦cd", toWidth: 4) == "ab…")
        #expect(TextLayout.truncated("abc", toWidth: 0) == "")
        #expect(TextLayout.truncated("abc", toWidth: 2, ellipsis: "...") == "ab")
    }

    @Test func truncationNeverSplitsAClusterAndNeverExceedsTheWidth() {
        let text = "e\u{301}🇫🇷日本👍🏽 done"
        for width in 0...DisplayWidth.of(text) + 1 {
            let result = TextLayout.truncated(text, toWidth: width)
            #expect(DisplayWidth.of(result) <= width)
            #expect(text.hasPrefix(result.replacingSuffix("…")), "width \(width): \(result)")
        }
    }

    @Test func drawnTextShowsControlCharacters() {
        #expect(TextLayout.truncated("a\u{1B}]0;x\u{7}b", toWidth: 20) == "a^[]0;x^Gb")
        #expect(TextLayout.truncated("a\tb", toWidth: 3) == "a^…")
        #expect(TextLayout.wrapped("title\u{1B}[2J", toWidth: 40) == ["title^[[2J"])
    }

    @Test func wrapsAtSpacesAndDropsThemAtTheBreak() {
        #expect(TextLayout.wrapped("the quick brown fox", toWidth: 10) == ["the quick", "brown fox"])
        #expect(TextLayout.wrapped("a  b", toWidth: 1) == ["a", "b"])
        #expect(TextLayout.wrapped("one\ntwo three", toWidth: 20) == ["one", "two three"])
        #expect(TextLayout.wrapped("", toWidth: 5) == [""])
    }

    @Test func cutsAWordLongerThanTheLineBetweenClusters() {
        #expect(TextLayout.wrapped("abcdefghij", toWidth: 4) == ["abcd", "efgh", "ij"])
        #expect(TextLayout.wrapped("go e\u{301}e\u{301}e\u{301}e\u{301}", toWidth: 3) == ["go", "e\u{301}e\u{301}e\u{301}", "e\u{301}"])
    }

    @Test func breaksCJKBetweenCharactersButNotBeforeClosingPunctuation() {
        #expect(TextLayout.wrapped("日本語の文章です", toWidth: 6) == ["日本語", "の文章", "です"])
        #expect(TextLayout.wrapped("これは。テスト", toWidth: 6) == ["これ", "は。テ", "スト"])
        #expect(TextLayout.wrapped("漢字abc", toWidth: 5) == ["漢字", "abc"])
    }

    @Test func everyWrappedLineFitsAndTheTextSurvives() {
        let text = "Scrollwork 日本語のテキスト mixed with emoji 👩‍👩‍👧‍👦 and accents e\u{301}te\u{301} overlongwordthatmustbecut"
        for width in 2...30 {
            let lines = TextLayout.wrapped(text, toWidth: width)
            for line in lines { #expect(DisplayWidth.of(line) <= width, "width \(width): \(line)") }
            #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "width \(width)")
        }
    }
}

extension String {
    fileprivate func replacingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
