import Feeds
import Foundation
import ScrollworkTestSupport
import Testing

/// What the fuzz targets found (`Scripts/fuzz.sh`), each with the input that found it.
@Suite struct FuzzFindingTests {
    /// fuzz-feed-parser, LeakSanitizer: an entity the document declares leaked its declaration's
    /// raw text, 100 bytes a parse. libxml2 gives that text to the entity `getEntity` returns
    /// right after the declaration, an entity of ours, which never freed it. Measured in a
    /// process of its own (`feeds-heap-helper`), where nothing else allocates meanwhile.
    @Test func aDeclaredEntityLeaksNothing() throws {
        let folder = ScratchDirectory()
        let file = folder.url.appendingPathComponent("entity.xml")
        try Data("""
            <!DOCTYPE rss [<!ENTITY host "cdn.example">]>
            <rss version="2.0"><channel><title>T</title><item><title>t</title>
            <enclosure url="https://&host;/b.jpg" type="image/jpeg"/></item></channel></rss>
            """.utf8).write(to: file)
        let result = try BuiltExecutable.run("feeds-heap-helper", [file.path, "5000"])
        #expect(result.status == 0, "\(result.error)")
        let lines = Dictionary(uniqueKeysWithValues: result.output.split(separator: "\n").compactMap { line -> (String, Int)? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            return (String(parts[0]), value)
        })
        #expect(lines["entries"] == 1)
        #if os(Linux)
        #expect((lines["heap"] ?? 0) > 0, "glibc says how much of the heap is in use")
        #endif
        // It leaked 560,000 bytes.
        #expect((lines["grown"] ?? .max) < 50_000, "5,000 parses kept \(lines["grown"] ?? -1) bytes")
    }

    /// fuzz-feed-parser, whole against in pieces: a character data section broken by a NUL
    /// gave its entry the text before the NUL when the bytes came in pieces (libxml2 and the
    /// scanner hand out long text as it arrives) and none when they came whole (libxml2 checks
    /// a section it has whole before handing any of it out). The field a document breaks off
    /// in is now dropped either way; the entry stays.
    @Test func aFieldBrokenOffReadsTheSameWholeAndInPieces() throws {
        let document = Array("""
            <rss version="2.0"><channel><title>C</title><item><title>t</title>
            <description><![CDATA[<p>Tom & Jerry \(String(repeating: "and more words ", count: 40))
            """.utf8) + [0, 0, 0] + Array("]]></description></item></channel></rss>".utf8)
        func parse(pieceSize: Int) throws -> [FeedEntry] {
            var parser = FeedParser()
            var entries: [FeedEntry] = []
            var start = 0
            while start < document.count {
                entries += try parser.consume(document[start..<min(document.count, start + pieceSize)]).joined()
                start += pieceSize
            }
            let end = try parser.finish()
            #expect(end.isMalformed)
            return entries + end.entries
        }
        let whole = try parse(pieceSize: document.count)
        #expect(whole.map(\.title) == ["t"])
        #expect(whole.first?.summary == nil)
        for pieceSize in [1, 7, 64, 300] {
            #expect(try parse(pieceSize: pieceSize) == whole, "in pieces of \(pieceSize)")
        }
    }

    /// fuzz-input-repair: in a document read as windows-1252 for its bytes that are not UTF-8,
    /// the bytes of what looked like an entity reference's name (`&hell\u{E9}p;`) were passed
    /// over unread, so libxml2 met them raw and stopped reading the feed there. Now a name
    /// whose bytes are not UTF-8 is no reference: its `&` is text, its bytes windows-1252.
    @Test func legacyBytesInAReferenceAreRead() throws {
        let document = Array(#"<rss version="2.0"><channel><title>T</title><item><title>Caf"#.utf8) + [0xE9]
            + Array(" &hell".utf8) + [0xE9] + Array("p".utf8) + [0xF1] + Array(#"; fin</title><description>d</description></item>"#.utf8)
            + Array(#"<item><title>Second</title></item></channel></rss>"#.utf8)
        var repair = XMLInputRepair(firstBytes: document, charset: nil)
        let repaired = try #require(document.withUnsafeBufferPointer { repair.repair($0, final: true) })
        #expect(String(validating: repaired, as: UTF8.self) != nil)
        var parser = FeedParser()
        let entries = try parser.consume(document).joined() + parser.finish().entries
        #expect(entries.map(\.title) == ["Café &hellépñ; fin", "Second"])
    }

    /// fuzz-feed-parser, a timeout: entities that nest references to a name nobody declares
    /// expand to nothing, so the expansion budget never ran out while the references
    /// multiplied: twelve levels of ten are 10¹² lookups, hours. Every reference now costs its
    /// own length of the budget.
    @Test(.timeLimit(.minutes(1 * HangGuard.scale))) func referencesToNothingSpendTheBudget() {
        var declarations = "<!ENTITY lol0 \"&nobody;&nobody;&nobody;&nobody;&nobody;&nobody;&nobody;&nobody;&nobody;&nobody;\">\n"
        for level in 1...12 {
            declarations += "<!ENTITY lol\(level) \"\(String(repeating: "&lol\(level - 1);", count: 10))\">\n"
        }
        let document = Array("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [
            \(declarations)]>
            <rss version="2.0"><channel><title>&lol12;</title><item><title>x</title></item></channel></rss>
            """.utf8)
        #expect(throws: FeedParsingError.entityExpansionLimitExceeded(limit: FeedParser.Configuration().maxEntityExpansionBytes)) {
            var parser = FeedParser()
            _ = try parser.consume(document)
            _ = try parser.finish()
        }
    }

    /// fuzz-xml-differential, a crash (arithmetic overflow): a date whose zone offset is a run
    /// of twenty digits or more overflowed while its digits were added up, and stopped the
    /// program. A run of more than four digits is no offset: the date reads as one whose zone
    /// is unknown does.
    @Test func aLongZoneOffsetIsNoOffset() {
        let digits = String(repeating: "3", count: 30)
        #expect(FeedDate.parse("2024-\(digits)-01T10:00:00Z") == nil)
        let unknownZone = FeedDate.parse("Mon, 02 Jan 2006 15:04:05 XYZW")
        #expect(unknownZone != nil)
        #expect(FeedDate.parse("Mon, 02 Jan 2006 15:04:05 -\(digits)") == unknownZone)
        #expect(FeedDate.parse("Mon, 02 Jan 2006 15:04:05 GMT+\(digits)") == unknownZone)
        #expect(FeedDate.parse("Mon, 02 Jan 2006 15:04:05 -0700") == unknownZone.map { $0 + 7 * 3600 })
    }

    /// fuzz-feed-parser, whole against in pieces: libxml2 recovers from a broken document
    /// differently depending on where its input is cut, so this one gave its channel's entry
    /// whole and not when cut after any of several bytes. libxml2 now reads in blocks counted
    /// from the document's start, however the bytes arrive.
    @Test func libxml2ReadsTheSameWholeAndInPieces() throws {
        let document = Array(#"""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="htthttp://www.w3.iption>RSS 0.1/">
            <channel><title>Ninety</title><linen</title><http://www.w3.org/1999/0>nk><description>RSS 0.1</description>
              <items/rss>le>日本語 — ça 👍
            """#.utf8) + [0xF0] + Array("<tle><item".utf8)
        func parse(_ pieces: [ArraySlice<UInt8>]) -> String {
            var parser = FeedParser()
            var entries: [FeedEntry] = []
            do {
                for piece in pieces { entries += try parser.consume(piece).joined() }
                let end = try parser.finish()
                return "\(entries + end.entries) \(end.info) \(end.isMalformed)"
            } catch {
                return "\(error)"
            }
        }
        let whole = parse([document[...]])
        for cut in 1..<document.count {
            #expect(parse([document[..<cut], document[cut...]]) == whole, "cut after byte \(cut)")
        }
    }

    /// fuzz-input-repair, whole against in pieces: a reference whose name was 65 letters long
    /// was left alone when its `;` came in the same piece, and its `&` escaped when the piece
    /// ended right before the `;`. A name of up to 64 letters is a reference either way.
    /// Then the same for a character reference of nine hex digits (`&#x203e3D169;`).
    @Test(arguments: [("n", "", 64), ("1", "#", 9), ("a", "#x", 9)])
    func aLongReferenceIsRepairedTheSameWholeAndInPieces(_ letter: String, _ prefix: String, _ limit: Int) {
        for length in limit - 1 ... limit + 2 {
            let document = Array("<rss><channel><title>a &\(prefix)\(String(repeating: letter, count: length)); b</title></channel></rss>".utf8)
            func repaired(_ pieces: [ArraySlice<UInt8>]) -> [UInt8] {
                var repair = XMLInputRepair(firstBytes: Array(document.prefix(4)), charset: nil)
                var out: [UInt8] = []
                for (index, piece) in pieces.enumerated() {
                    out += piece.withUnsafeBufferPointer { repair.repair($0, final: index == pieces.count - 1) } ?? Array(piece)
                }
                return out
            }
            let whole = repaired([document[...]])
            #expect(String(decoding: whole, as: UTF8.self).contains("&amp;") == (length > limit))
            for cut in 1..<document.count {
                #expect(repaired([document[..<cut], document[cut...]]) == whole, "a name of \(length), cut after byte \(cut)")
            }
        }
    }

    /// fuzz-feed-parser, whole against in pieces: an XML declaration that ends past the bytes a
    /// parse waits for before it decides how to read them was read when the first piece held
    /// it whole, and not when it came in small pieces, so the encoding the feed was read in
    /// depended on how its bytes arrived. The declaration counts only within those bytes.
    @Test func aLongDeclarationIsReadTheSameWholeAndInPieces() throws {
        let document = Array("<?xml version=\"1.0\" encoding=\"x-nobody-knows\" \(String(repeating: " ", count: 300))?>".utf8)
            + Array("<rss version=\"2.0\"><channel><title>Caf".utf8) + [0xE9] + Array("</title><item><title>t</title></item></channel></rss>".utf8)
        func parse(pieceSize: Int) -> String {
            var parser = FeedParser()
            var entries: [FeedEntry] = []
            var start = 0
            do {
                while start < document.count {
                    entries += try parser.consume(document[start..<min(document.count, start + pieceSize)]).joined()
                    start += pieceSize
                }
                let end = try parser.finish()
                return "\(entries + end.entries) \(end.info) \(String(describing: end.assumedEncoding))"
            } catch {
                return "\(error)"
            }
        }
        let whole = parse(pieceSize: document.count)
        for pieceSize in [1, 7, 100, 256, 257, 300] {
            #expect(parse(pieceSize: pieceSize) == whole, "in pieces of \(pieceSize)")
        }
    }

    /// fuzz-dates: `2 Jan 0000` was read as a date in year 0, which RFC 3339 cannot write;
    /// a date outside years 1 to 9999 (after its zone) is none.
    @Test func aDateOutsideYearsOneTo9999IsNone() {
        #expect(FeedDate.parse("2 Jan 0000 00:00 GMT") == nil)
        #expect(FeedDate.parse("0000-01-02T00:00:00Z") == nil)
        #expect(FeedDate.parse("0001-01-01T00:00:00+01:00") == nil)
        #expect(FeedDate.parse("0001-01-01T00:00:00Z")?.timeIntervalSince1970 == -62_135_596_800)
        #expect(FeedDate.parse("9999-12-31T23:59:59Z")?.timeIntervalSince1970 == 253_402_300_799)
    }

    /// AddressSanitizer, replaying fuzz-dates' corpus: a time followed by thousands of `am`s
    /// (`:\0aMaMaM…`) recursed once for each, stripping one meridiem a call, and overflowed the
    /// stack. A time has one meridiem.
    @Test func aTimeWithThousandsOfMeridiemsIsNoDateAndNoCrash() throws {
        let corpus = ":\0" + String(repeating: "aM", count: 3_000)
        #expect(FeedDate.parse(corpus) == nil)
        #expect(FeedDate.parse("2 Jan 2006 8:19" + String(repeating: "am", count: 500_000)) == nil)
        #expect(FeedDate.parse("2 Jan 2006 8:19amam") == nil)
        let pm = try #require(FeedDate.parse("2 Jan 2006 8:19pm"))
        #expect(FeedDate.rfc3339(pm) == "2006-01-02T20:19:00Z")
        #expect(FeedDate.rfc3339(try #require(FeedDate.parse("Mon, 2 Jan 2006 12:05 AM GMT"))) == "2006-01-02T00:05:00Z")
    }

    /// fuzz-opml: a folder named `\u{7F} A l` (DEL, which XML allows) was read as ` A l`: DEL was
    /// removed after the whitespace was collapsed, which left a space in front. Exported and
    /// read again, the name was `A l`. Sanitised first, it is `A l` from the start.
    @Test func aFolderNameIsTrimmedAfterItsControlsGo() throws {
        let document = Array(#"<opml version="2.0"><body><outline text="&#127; A &#127; l"><outline text="F" xmlUrl="https://fuzz.example/f"/></outline></body></opml>"#.utf8)
        let subscriptions = try OPML.subscriptions(from: document)
        #expect(subscriptions.map(\.categories) == [["A l"]])
    }

    /// fuzz-input-repair: in a legacy document, a byte after the last `-` of an unclosed
    /// comment (or `]` of an unclosed CDATA section) at the very end was passed on unread, not
    /// as windows-1252: the repaired document was not UTF-8.
    @Test(arguments: ["<!-- -", "<!-- a", "<![CDATA[ ]", "<![CDATA[ a"])
    func aLegacyByteAfterAnUnclosedCommentsLastDashIsRepaired(_ opening: String) {
        let document = Array("<r>".utf8) + [0xE9] + Array("</r>\(opening)".utf8) + [0xFF]
        var repair = XMLInputRepair(firstBytes: document, charset: nil)
        let repaired = document.withUnsafeBufferPointer { repair.repair($0, final: true) } ?? document
        #expect(repair.isLegacy)
        #expect(String(validating: repaired, as: UTF8.self) == "<r>é</r>\(opening)ÿ")
    }

    /// fuzz-xml-differential: a page whose `<HTML>` root libxml2 reported only when the last
    /// bytes came (it holds a start tag back until it sees what follows) was read as a feed of
    /// no entries, not as the HTML page the scanner calls it.
    @Test func anHTMLRootThatOnlyTheEndBringsIsAPage() {
        let document = Array(#"""
            <HTML xmlns="http://www.w3.otom" xml:base="https://base.example/bl)og/">
              <title>B</title>
              <entry xml:base="posts/">
               >
                <content type="html" xml:base="/media/">&lt;img>d5</id><title>One</title><link hr
            </feed>
            """#.utf8)
        func outcome(libxml2Only: Bool) -> String {
            var configuration = FeedParser.Configuration()
            configuration.readsWithLibXML2Only = libxml2Only
            var parser = FeedParser(configuration: configuration)
            do {
                _ = try parser.consume(document)
                let end = try parser.finish()
                return "a feed of \(end.entries.count) entries"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome(libxml2Only: false) == "an HTML page, not a feed, and it advertises no feed")
        #expect(outcome(libxml2Only: true) == outcome(libxml2Only: false))
    }

    /// fuzz-feed-parser, whole against in pieces: a document declaring `utf-\xFF\xFF\xFF\xFF7`,
    /// which glibc's iconv reads as UTF-7, gave two entries whole and one cut after byte 802:
    /// glibc's UTF-7 read every byte of the call after the cut as a byte it refuses. iconv now
    /// gets a document's bytes in blocks at fixed offsets, however they arrive.
    @Test func aStatefulEncodingReadsTheSameWholeAndInPieces() throws {
        let base64 = """
            PD94bWwgdmVyc2lvbj0iMS4w3uhlbmNvZGluZz0idXRmLf////83Ij8+CjxmZWVkIHhtbG5zPSJodHRwOi8vPgo8ZW50cnk+PGlk
            PjE8L2n//////2Q+PHRpdGxlIHR5cGU9InhodG1sIj48ZGl2c25sIHhtPSJodHRwOi8vd3d3LnczLm9ymdDOxsbG0I9odG1sIj5Y
            IDxiPnk8L2I+PC9kaXY+PC90aXRsZT4KPGxpdG1sK2Q+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAACfn5+fn5+fn5///9+6n59odHRw
            Oi8vd3d3LnczLm9yZy8xOTk5LzAyLzIyLXJkZi1zeW50YXgtbnMjcnNpb249IjAuAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
            AAAAAAAAAAAAAAAAMyIgeG1sbnM9Imh0dJWVlZWVlZWVlZWVlZWVlZWVlZWVlZWVlZWVlZWVlZWVcDovL3B9clz/////////////
            /////////////////////////////21kYXNoOyAmaGVpcIpsOyAmY29weTs8L3RpdGxlPjxkZStzbXsiYSJjcmlwdGlvbj5BJm5i
            c3A7JmFtOnA7Jm5ic3A7QiAmbHRyPjxuYW1lPk4vL3B9ciwub3JnL2F0b20vb250ZW50Pgo8YXV0aG90n5+fn2xlPgo8aXRlbT48
            dGl0bGU+Q2FmJmVhY3V0ZTsgJv//////////////////////////////////////////////////////////////////////////
            /////////wgAAAAAAAAAbWRhc2g7ICZpZWlwimw7ICZjb3D/////////////////////////////////////////////////////
            ////////////////////////////////////////////////////////////////////////////////////eTs8L3RpdGxlPjxk
            ZStzbXsiYSJjcmlwdGlvbj5BJiI+WCA8Yj55PC9iPjwvZGl2PjwvdGlyPjxuYW1lPk48L248L2VudHJucyMiPkV0aXRsZT50eT48
            L2Y8ZWVkaHR0cDovL3d3dy53My7//w7yPC9mPGVlZGh0dHA6Ly93d3cudyIgeG1sbnM9Imh0dHA6////////////////////////
            //////////////////////////////////////////8zLm9yZy8xY3Q+PGRjOjk5OS94aHRtbCI+PC90aXRsZT4KMTxlbnRyeT48
            dGl0bGUgcG0+
            """
        let document = try #require(Data(base64Encoded: base64.filter { !$0.isWhitespace }).map { [UInt8]($0) })
        func parse(cutAt cut: Int) throws -> (entries: [FeedEntry], isMalformed: Bool) {
            var parser = FeedParser()
            var entries = try parser.consume(document[..<cut]).joined().map { $0 }
            entries += try parser.consume(document[cut...]).joined()
            let end = try parser.finish()
            return (entries + end.entries, end.isMalformed)
        }
        let whole = try parse(cutAt: document.count)
        #if os(Linux)
        #expect(whole.entries.count == 2)
        #endif
        #expect(whole.isMalformed)
        for cut in 1..<document.count {
            let pieces = try parse(cutAt: cut)
            #expect(pieces.entries == whole.entries && pieces.isMalformed, "cut after byte \(cut)")
        }
    }
}
