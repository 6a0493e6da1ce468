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
                let isComment = scalars.starts(with: "!--".unicodeScalars)
                let closing: String = isComment ? "-->" : ">"
                if let range = scalars.firstRange(of: closing.unicodeScalars) {
                    // Inline elements' tags join what is on either side; others separate it.
                    let afterSlash = scalars.first == "/" ? scalars.dropFirst() : scalars
                    let name = String(String.UnicodeScalarView(afterSlash.prefix { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
                    scalars = scalars[range.upperBound...]
                    if isComment || !Self.inline.contains(name.lowercased()) { text.append(" ") }
                    continue
                }
            }
            text.append(scalar)
        }
        return PlainText.collapsingWhitespace(HTMLEntities.decode(String(text)))
    }

    /// HTML's phrasing elements.
    static let inline: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd",
        "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
    ]

    @Test func theByteLevelStripperAgreesWithTheScalarOne() {
        let seed = randomizedTestSeed()
        print("PlainText: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let tokens = ["<", ">", "a", "p", "/", "!", "?", "-", "--", "<!--", "-->", " ", "é", "<é", "日", "&amp;", "&lt;", "<b>", "</b>", "<p", "x",
                      // Names in either case, with digits, and longer than any element's.
                      "<B>", "</SPAN>", "<Sup>", "<h1>", "<sup2>", "<strongly>", "<blockquotes>", "<abcdefghijklmnop>", "<a1b2c3d4e5f6>"]
        for _ in 0..<5_000 {
            let html = (0..<Int.random(in: 0...24, using: &random)).map { _ in tokens[Int.random(in: 0..<tokens.count, using: &random)] }.joined()
            #expect(PlainText.from(html: html) == reference(html), "seed \(seed): \(html.debugDescription)")
        }
    }

    /// The text made from the start of the markup is the start of the whole's text: cut after
    /// a space, it cuts no reference, UTF-8 sequence, grapheme cluster or tag, however spaces,
    /// references, combining marks and tags fall around the cut.
    @Test func theTextOfTheStartIsTheStartOfTheWholeText() {
        let seed = randomizedTestSeed()
        print("PlainText start: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let tokens = ["word", "a", " ", "  ", "\n", "\t", "\r\n", "&nbsp;", "\u{A0}", "\u{301}", " \u{301}", "\u{200D}", "👍🏽", "日本語",
                      "&amp;", "&amp", "& amp;", "&am p;", "&#x41;", "&#65", "&#6 5;", "&", ";", "<p>", "</p>", "<b>", "</b>", "<br/>",
                      "<span>", "<!-- a b -->", "<!--", "-->", "<a href=\"x y\">", "<", ">", "< b", "<p title='a b'", "é", "e\u{301}",
                      "\u{600}", "&#1536;", "\u{0}", "&nbsp\u{0};"]
        for _ in 0..<1_500 {
            let html = (0..<Int.random(in: 0...600, using: &random)).map { _ in tokens[Int.random(in: 0..<tokens.count, using: &random)] }.joined()
            let whole = PlainText.from(html: html)
            for characters in [1, 7, 60, 241] {
                let start = PlainText.from(html: html, atLeast: characters)
                #expect(Array(start.utf8) == Array(whole.utf8) || (start.count > characters && whole.starts(with: start)),
                        "seed \(seed), \(characters) characters: \(html.debugDescription)")
            }
        }
    }

    /// An excerpt made from the start of the markup is the one made from all of it.
    @Test func anExcerptIsTheOneOfTheWholeText() {
        let seed = randomizedTestSeed()
        print("Excerpts: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let tokens = ["word ", "longer words ", "\n\n", "      ", "&amp; ", "<p>", "</p>", "<b>", "</b>", "<div class=\"x\">", "日本語", "👍🏽 ",
                      "e\u{301}", "\u{301}", "\r\n", "a"]
        func whole(_ html: String) -> String {
            let text = PlainText.from(html: html)
            return text.count > EntryRow.excerptLength ? String(text.prefix(EntryRow.excerptLength - 1)) + "…" : text
        }
        for _ in 0..<1_000 {
            let html = (0..<Int.random(in: 0...900, using: &random)).map { _ in tokens[Int.random(in: 0..<tokens.count, using: &random)] }.joined()
            guard html.utf8.count <= 8 << 10 else { continue }  // the excerpt reads 8 KB of markup at most
            #expect(Array(EntryColumns.excerpt(summary: html, content: nil).utf8) == Array(whole(html).utf8), "seed \(seed): \(html.debugDescription)")
        }
    }

    /// Found by `fuzz-html-text`: libxml2 reads a name as a C string, so `&nbsp` followed by a
    /// NUL and more before a `;` was taken for `&nbsp;`, and the text up to the `;` was lost.
    @Test func aNameWithANulInItIsNoReference() {
        #expect(HTMLEntities.decode("a &nbsp\u{0}x; b") == "a &nbsp\u{0}x; b")
        #expect(HTMLEntities.decode("&eacute\u{0};") == "&eacute\u{0};")
        #expect(HTMLEntities.decode("&nbsp x;") == "&nbsp x;")
        #expect(HTMLEntities.decode("&eacute;&frac12;&sup2;") == "é½²")
    }

    @Test func aCharacterCountIsComparedAsFarAsItMatters() {
        let seed = randomizedTestSeed()
        print("Character counts: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let pieces = ["a", " ", "\r\n", "\r", "\n", "e\u{301}", "\u{301}", "👍🏽", "日", "\u{7}"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            for count in 0...8 {
                #expect(text.characterCount(exceeds: count) == (text.count > count), "seed \(seed): \(text.debugDescription), \(count)")
                let expected = count <= text.count ? text.index(text.startIndex, offsetBy: count) : nil
                #expect(text.index(afterCharacters: count) == expected, "seed \(seed): \(text.debugDescription), \(count)")
            }
        }
    }

    @Test func collapsingWhitespaceAgreesWithSplittingOnScalars() {
        let seed = randomizedTestSeed()
        print("PlainText whitespace: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        // Spaces of one to three bytes (the lead bytes C2, E1, E2, E3 are decoded), and other
        // characters that share those lead bytes or are longer.
        let tokens = [" ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{200B}", "\u{3000}", "\u{2028}",
                      "a", "word", "é", "\u{A9}", "\u{1681}", "\u{2010}", "\u{3001}", "日", "😀", "e\u{301}", "\u{E2}"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...16, using: &random)).map { _ in tokens[Int.random(in: 0..<tokens.count, using: &random)] }.joined()
            let words = text.unicodeScalars.split(whereSeparator: \.isFeedWhitespace).map { String(String.UnicodeScalarView($0)) }
            #expect(PlainText.collapsingWhitespace(text) == words.joined(separator: " "), "seed \(seed): \(text.debugDescription)")
        }
    }
}
