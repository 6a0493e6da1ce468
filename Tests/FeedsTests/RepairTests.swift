import Feeds
import Foundation
import SeededRandom
import Testing

/// Malformed documents as real feeds break them: nothing of their text is lost to the repair,
/// however the bytes arrive.
@Suite struct RepairTests {
    /// Parses `bytes` fed in pieces of `piece` bytes.
    static func parseInPieces(_ bytes: [UInt8], piece: Int, charset: String? = nil) throws -> (entries: [FeedEntry], info: FeedInfo, malformed: Bool) {
        var parser = FeedParser(url: URL(string: "https://example.com/feed.xml"), charset: charset)
        var entries: [FeedEntry] = []
        var start = 0
        while start < bytes.count {
            entries += try parser.consume(bytes[start..<min(start + piece, bytes.count)]).joined()
            start += piece
        }
        let completion = try parser.finish()
        return (entries + completion.entries, completion.info, completion.isMalformed)
    }

    static let broken = """

        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>Architect & Designer</title><link>https://example.com/</link>
        <item><guid>1</guid><title>Fish & Chips & more <3</title><link>https://example.com/a?x=1&utm_medium=rss&utm_source=feed</link>
        <description>Tom &amp; Jerry &#169; &eacute;t&eacute; &#x2014; a < b, <![CDATA[raw & <kept>]]> done</description></item>
        <item><guid>2</guid><title>AT&T</title><description><![CDATA[<p>Q&A</p>]]></description></item>
        </channel></rss>
        """

    @Test(arguments: [1, 2, 3, 7, 64, 1 << 16])
    func bareAmpersandsAndAngleBracketsSurviveInEveryPieceSize(piece: Int) throws {
        let (entries, info, malformed) = try Self.parseInPieces(Array(Self.broken.utf8), piece: piece)

        #expect(info.title == "Architect & Designer")
        #expect(entries.map(\.title) == ["Fish & Chips & more <3", "AT&T"])
        #expect(entries.first?.link?.absoluteString == "https://example.com/a?x=1&utm_medium=rss&utm_source=feed")
        #expect(entries.first?.summary == "Tom & Jerry © été — a < b, raw & <kept> done")
        #expect(entries.last?.summary == "<p>Q&A</p>")
        #expect(malformed)
    }

    /// XML's rule for the first character of a name decides whether a `<` starts a tag, for
    /// characters beyond ASCII too: a dash, an arrow or a times sign after `<` starts none
    /// (`<— this`), so the `<` is text; a letter (`<été>`) starts an element. The repair once
    /// took every byte of 128 and above for a name's first, and libxml2's recovery then lost
    /// the whole title.
    @Test(arguments: [1, 2, 3, 64, 1 << 16])
    func aLessThanBeforeACharacterNoNameStartsWithIsText(piece: Int) throws {
        let text = """
            <?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>T</title>
            <item><guid>1</guid><title>Click here <\u{2014} this, 3 <\u{D7} 4, x <\u{2192} y, a <\u{AB}b\u{BB}</title>
            <description>Summer <\u{E9}t\u{E9}>hot</\u{E9}t\u{E9}> days, <\u{3B1}>alpha</\u{3B1}></description></item>
            </channel></rss>
            """
        let (entries, _, malformed) = try Self.parseInPieces(Array(text.utf8), piece: piece)

        #expect(entries.map(\.title) == ["Click here <\u{2014} this, 3 <\u{D7} 4, x <\u{2192} y, a <\u{AB}b\u{BB}"])
        #expect(entries.first?.summary == "Summer hot days, alpha")
        #expect(malformed)
    }

    /// In a Latin-1 document read as windows-1252, a letter after `<` still starts a tag and a
    /// times sign does not.
    @Test func aLessThanBeforeALegacyByteFollowsTheSameRule() throws {
        var bytes = Array(#"<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><guid>1</guid><title>3 <"#.utf8)
        bytes += [0xD7] + Array(" 4 caf".utf8) + [0xE9] + Array("</title><description><".utf8) + [0xE9] + Array(">x</".utf8) + [0xE9]
        bytes += Array("></description></item></channel></rss>".utf8)
        let (entries, _, _) = try Self.parseInPieces(bytes, piece: 1 << 16)

        #expect(entries.map(\.title) == ["3 <\u{D7} 4 caf\u{E9}"])
        #expect(entries.first?.summary == "x")
    }

    @Test func aWellFormedFeedIsUntouchedAndNotMalformed() throws {
        let text = #"<?xml version="1.0"?><rss version="2.0"><channel><title>A &amp; B</title><item><guid>1</guid><title>x &lt; y</title></item></channel></rss>"#
        let (entries, info, malformed) = try Self.parseInPieces(Array(text.utf8), piece: 5)

        #expect(info.title == "A & B")
        #expect(entries.map(\.title) == ["x < y"])
        #expect(!malformed)
    }

    /// Fifteen entries of Latin-1 text and no encoding declared anywhere.
    static func latin1Feed(declaration: String = #"<?xml version="1.0"?>"#) -> [UInt8] {
        var text = declaration + #"<rss version="2.0"><channel><title>Caf\#u{E9} cr\#u{E8}me</title>"#
        for index in 1...15 {
            text += "<item><guid>\(index)</guid><title>Num\u{E9}ro \(index) \u{2014} \u{201C}quoted\u{201D}</title><description>\u{C0} bient\u{F4}t</description></item>"
        }
        text += "</channel></rss>"
        // windows-1252 bytes: Latin-1 for the letters, 0x97, 0x93 and 0x94 for the dash and quotes.
        return text.unicodeScalars.map { scalar -> UInt8 in
            switch scalar.value {
            case 0x2014: 0x97
            case 0x201C: 0x93
            case 0x201D: 0x94
            default: UInt8(scalar.value)
            }
        }
    }

    @Test(arguments: [1, 4, 100, 1 << 16])
    func anUndeclaredLegacyFeedIsReadAsWindows1252(piece: Int) throws {
        let (entries, info, _) = try Self.parseInPieces(Self.latin1Feed(), piece: piece)

        #expect(info.title == "Café crème")
        #expect(entries.count == 15)
        #expect(entries.first?.title == "Numéro 1 — “quoted”")
        #expect(entries.last?.summary == "À bientôt")
    }

    @Test func aDeclaredOrAnnouncedLegacyEncodingIsLeftToLibxml2() throws {
        let declared = try Self.parseInPieces(Self.latin1Feed(declaration: #"<?xml version="1.0" encoding="windows-1252"?>"#), piece: 50)
        let announced = try Self.parseInPieces(Self.latin1Feed(), piece: 50, charset: "windows-1252")

        for feed in [declared, announced] {
            #expect(feed.entries.count == 15)
            #expect(feed.entries.first?.title == "Numéro 1 — “quoted”")
        }
    }

    @Test func validUTF8IsNeverReinterpreted() throws {
        let text = #"<rss version="2.0"><channel><title>日本語 — ça 👍🏽</title><item><guid>1</guid><title>Ünïcödé</title></item></channel></rss>"#

        for piece in [1, 2, 3, 5, 1000] {
            let (entries, info, malformed) = try Self.parseInPieces(Array(text.utf8), piece: piece)
            #expect(info.title == "日本語 — ça 👍🏽")
            #expect(entries.first?.title == "Ünïcödé")
            #expect(!malformed)
        }
    }

    @Test func piecesOfAnySizeGiveWhatTheWholeDocumentGives() throws {
        let seed = randomizedTestSeed()
        print("repair seed: 0x\(String(seed, radix: 16))")
        var generator = SeededGenerator(seed: seed)
        let fragments = [
            "&", "&amp;", "&#169;", "&#x2014;", "&eacute;", "&nbsp;", "& ", "<3", "< ", "a", " ", "é", "\u{E9}", "<![CDATA[x&y<z]]>",
            "<!-- c & d -->", "&utm=1", "&#", "&#x", ";", "<b>", "</b>", "]]>", "-->",
        ]
        for _ in 0..<200 {
            let title = (0..<Int.random(in: 0...12, using: &generator)).map { _ in fragments.randomElement(using: &generator)! }.joined()
            var bytes = Array(#"<rss version="2.0"><channel><title>t</title><item><guid>1</guid><title>"#.utf8)
            bytes += Array(title.utf8)
            if Bool.random(using: &generator) { bytes.append(0xE9) }
            bytes += Array("</title></item></channel></rss>".utf8)

            let whole = try Self.parseInPieces(bytes, piece: bytes.count)
            let piece = Int.random(in: 1...9, using: &generator)
            let pieces = try Self.parseInPieces(bytes, piece: piece)
            #expect(whole.entries.map(\.title) == pieces.entries.map(\.title), "seed 0x\(String(seed, radix: 16)): \(title.debugDescription) in pieces of \(piece)")
        }
    }
}
