@testable import Feeds
import Foundation
import SeededRandom
import Testing

/// The parse's shortcuts for the common case each answer exactly as the general reading they
/// stand in front of, on random input made of the pieces that decide between them.
@Suite struct FastPathTests {
    // MARK: Dates

    @Test func theUsualRFC822FormReadsAsTheGeneralReadingDoes() throws {
        let seed = randomizedTestSeed()
        print("FastPathTests dates seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let weekdays = ["", "Mon, ", "tue, ", "SUN, ", "Thu,", "Fri ", "Xyz, ", "Monday, "]
        let months = ["Jan", "feb", "MAR", "Sep", "Sept", "Dec", "Foo", "June"]
        let zones = ["+0000", "-0500", "+1400", "+1500", "-0060", "GMT", "gmt", "UT", "UTC", "Z", "z", "EST", "+01:00", "+01", "GMT+2", ""]
        var usual = 0
        for _ in 0..<5_000 {
            let day = ["1", "02", "31", "30", "29", "0", "123"].randomElement(using: &random)!
            let year = ["2024", "1999", "2000", "24", "0099"].randomElement(using: &random)!
            let time = ["15:04:05", "00:00:00", "23:59:60", "24:00:00", "9:04:05", "15:04", "15:4:05"].randomElement(using: &random)!
            let zone = zones.randomElement(using: &random)!
            let text = "\(weekdays.randomElement(using: &random)!)\(day) \(months.randomElement(using: &random)!) \(year) \(time)"
                + (zone.isEmpty ? "" : " \(zone)")
            var bytes = text
            let fast = bytes.withUTF8(RFC822Date.parseUsual)
            if let fast {
                usual += 1
                #expect(fast == RFC822Date.parse(text), "\(text), seed \(seed)")
            }
            #expect(FeedDate.parse(text) == RFC822Date.parse(text), "\(text), seed \(seed)")
        }
        // Both kinds were tried: the usual form often enough that the comparison means something.
        #expect(usual > 100, "seed \(seed)")
        #expect(usual < 4_500, "seed \(seed)")
    }

    @Test(arguments: [
        ("Mon, 02 Jan 2006 15:04:05 +0100", "2006-01-02T14:04:05Z"),
        ("2 jan 2006 15:04:05 GMT", "2006-01-02T15:04:05Z"),
        ("Sat, 29 Feb 2020 23:59:59 -0500", "2020-03-01T04:59:59Z"),
    ])
    func readsTheUsualFormItself(text: String, expected: String) {
        var bytes = text
        #expect(bytes.withUTF8(RFC822Date.parseUsual).map(FeedDate.rfc3339) == expected)
    }

    @Test(arguments: ["Mon, 30 Feb 2006 15:04:05 +0100", "Mon, 02 Jan 2006 15:04 +0100", "Monday, 02 Jan 2006 15:04:05 GMT", "02-Jan-2006 15:04:05 GMT"])
    func leavesEverythingElseToTheGeneralReading(text: String) {
        var bytes = text
        #expect(bytes.withUTF8(RFC822Date.parseUsual) == nil)
    }

    // MARK: Links

    @Test func joiningLinksResolvesAsFoundationDoes() throws {
        let seed = randomizedTestSeed()
        print("FastPathTests links seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let bases: [URL?] = [
            nil, URL(string: "https://example.com/feed.xml"), URL(string: "http://example.com"), URL(string: "https://EXAMPLE.com:8443/a/b?x=1#f"),
            URL(string: "https://user:pw@example.com/blog/"), URL(string: "file:///tmp/feed.xml"), URL(string: "ftp://example.com/x"),
            URL(string: "https://example.com/dir/")!.appendingPathComponent("feed"),
            URL(string: "sub/", relativeTo: URL(string: "https://example.com/a/")),
        ]
        let starts = ["https://example.com", "http://other.example", "HTTPS://Example.com", "/", "//cdn.example", "", "images", "?q", "#top", "mailto:a@b"]
        let pieces = ["/a", "/b.jpg", "/./c", "/../d", "?x=1&y=2", "#frag", "%20", " ", "é", "/", ":80", "..", "[", "|", "/%zz"]
        var joined = 0
        for _ in 0..<3_000 {
            let reference = starts.randomElement(using: &random)! + (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let base = bases.randomElement(using: &random)!
            let trimmed = reference.trimmedWhitespace
            guard !trimmed.isEmpty else { continue }
            if URLResolver.joined(trimmed, base) != nil { joined += 1 }
            let expected = URLResolver.resolvedByFoundation(trimmed, against: base)
            #expect(URLResolver.resolve(reference, against: base) == expected, "\(reference) against \(base?.absoluteString ?? "nil"), seed \(seed)")
        }
        #expect(joined > 300, "seed \(seed)")
    }

    // MARK: Images and text

    @Test func oneAttributeReadsAsTheWholeTagDoes() {
        let seed = randomizedTestSeed()
        print("FastPathTests tags seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let pieces = ["<img", "<IMG", "<image", " src=\"/a.jpg\"", " SRC='b&amp;c.png'", " src=d.gif", " src", " src=", " alt=\"x > y\"", " data-src=\"no\"",
                      ">", "/>", "<p>", "text", " ", "<", "&amp;", "\""]
        for _ in 0..<3_000 {
            let html = (0..<Int.random(in: 0...14, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var whole: [String?] = []
            HTMLTagScanner.forEachTag(named: "img", in: html) { attributes in
                whole.append(attributes["src"])
                return true
            }
            var one: [String?] = []
            HTMLTagScanner.forEachTag(named: "img", in: html, attribute: "src") { source in
                one.append(source)
                return true
            }
            #expect(one == whole, "\(html.debugDescription), seed \(seed)")
        }
    }

    @Test func trimmingBytesMakesTheTextTrimmingTheStringDoes() {
        let seed = randomizedTestSeed()
        print("FastPathTests trimming seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let pieces: [[UInt8]] = [[0x20], [0x0A], [0x09], [0x0D], [0x0B], Array("\u{A0}".utf8), Array("\u{3000}".utf8), Array("a".utf8), Array("é".utf8),
                                 Array("\u{301}".utf8), [0xFF], [0xC3], Array("中".utf8), Array("<p>".utf8)]
        for _ in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0...10, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            let made = bytes.withUnsafeBufferPointer(String.init(trimmingWhitespace:))
            #expect(made == String(decoding: bytes, as: UTF8.self).trimmedWhitespace, "\(bytes), seed \(seed)")
        }
    }

    @Test func predefinedAndNumericReferencesDecodeAsThroughTheirNames() {
        let seed = randomizedTestSeed()
        print("FastPathTests references seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let pieces = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&AMP;", "&am;", "&#233;", "&#x1F600;", "&#X41;", "&#+65;", "&#0;", "&#xD800;",
                      "&#99999999999;", "&#;", "&#x;", "&nbsp;", "&eacute;", "&", ";", "a", "é", " "]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            // A `named` that knows nothing sends every name through the general path.
            #expect(HTMLEntities.decode(text) == HTMLEntities.decode(text, named: { _ in nil }), "\(text), seed \(seed)")
        }
        #expect(HTMLEntities.decode("&#233;&#x1F600;&lt;&amp;amp;&#+65;&#0;") == "é😀<&amp;A&#0;")
    }

    @Test func lowercasesASCIIOnly() {
        #expect("Text/HTML".lowercasedASCII == "text/html")
        #expect("image/png".lowercasedASCII == "image/png")
        #expect("ÉTÉ".lowercasedASCII == "ÉtÉ")
    }
}

extension FastPathTests {
    /// The categories and enclosures columns are written by hand as `JSONEncoder` wrote them:
    /// an unchanged entry stored by an older build must still compare equal.
    @Test func columnsAreTheJSONTheEncoderWrote() throws {
        let seed = randomizedTestSeed()
        print("FastPathTests JSON seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let pieces = ["a", "Food & Drink", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}", "\u{1F}", "\u{7F}", "é", "\u{2028}", "😀", " ", "<b>"]
        func text() -> String {
            (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        for _ in 0..<1_000 {
            let strings = (0..<Int.random(in: 0...3, using: &random)).map { _ in text() }
            #expect(EntryColumns.json(strings) == String(decoding: try encoder.encode(strings), as: UTF8.self), "\(strings), seed \(seed)")
            let enclosures = (0..<Int.random(in: 0...2, using: &random)).map { index in
                FeedEnclosure(url: URL(string: "https://example.com/a\(index).mp3?x=\(Int.random(in: 0...9, using: &random))")!,
                              type: Bool.random(using: &random) ? text() : nil,
                              length: Bool.random(using: &random) ? Int.random(in: -5...1_000_000_000_000, using: &random) : nil)
            }
            #expect(EntryColumns.json(enclosures) == String(decoding: try encoder.encode(enclosures.map(StoredEnclosure.init)), as: UTF8.self),
                    "\(enclosures), seed \(seed)")
        }
    }
}

extension FastPathTests {
    /// Collapsing whitespace on the bytes gives what collapsing it a scalar at a time gave.
    @Test func collapsingOnTheBytesIsCollapsingTheScalars() {
        let seed = randomizedTestSeed()
        print("FastPathTests collapsing seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let pieces = [" ", "  ", "\n", "\t", "\r\n", "\u{0B}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{202F}", "\u{205F}", "\u{3000}",
                      "\u{180E}", "\u{200B}", "a", "é", "中", "👍🏽", "\u{301}", "x y"]
        func reference(_ text: String) -> String {
            var out = String.UnicodeScalarView()
            var pendingSpace = false
            for scalar in text.unicodeScalars {
                if scalar.isFeedWhitespace {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(scalar)
            }
            return String(out)
        }
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(PlainText.collapsingWhitespace(text) == reference(text), "\(text.debugDescription), seed \(seed)")
        }
    }

    /// An excerpt is cut after counting only as far as the limit: the same cut as counting all.
    @Test func excerptsAreCutWhereCountingEveryCharacterCutThem() {
        let limit = EntryRow.excerptLength
        for length in [0, 1, limit - 2, limit - 1, limit, limit + 1, limit + 2, 3 * limit] {
            for unit in ["a", "é", "👍🏽", "e\u{301}"] {
                let text = String(repeating: unit, count: length)
                let expected = text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
                #expect(EntryColumns.excerpt(summary: "<p>\(text)</p>", content: nil) == expected, "\(length) × \(unit)")
            }
        }
    }
}
