@testable import Feeds
import Foundation
import Testing

/// Every encoding a feed declares is read: EBCDIC by libxml2 from the first bytes, names
/// libxml2 refuses through iconv, names nobody knows as windows-1252, said so. Every document
/// here is written byte by byte in the test: ASCII markup around the few bytes that carry the
/// encoding's own letters.
@Suite struct EncodingTests {
    /// An RSS document whose channel title is `title` (bytes already in the encoding), its
    /// markup in ASCII, declared as `encoding`.
    static func feed(encoding: String?, title: [UInt8]) -> [UInt8] {
        let declaration = encoding.map { #"<?xml version="1.0" encoding="\#($0)"?>"# } ?? #"<?xml version="1.0"?>"#
        return Array((declaration + "\n<rss version=\"2.0\"><channel><title>").utf8) + title
            + Array("</title><item><guid>1</guid><title>One</title></item><item><guid>2</guid><title>Two</title></item></channel></rss>".utf8)
    }

    /// The feed parsed whole and in pieces of every size from 1 to 7 bytes, which must agree.
    static func parsed(_ bytes: [UInt8], charset: String? = nil) throws -> FeedParser.Completion {
        let whole = try RepairTests.parseInPieces(bytes, piece: bytes.count, charset: charset)
        for piece in 1...7 {
            let pieces = try RepairTests.parseInPieces(bytes, piece: piece, charset: charset)
            #expect(pieces.info.title == whole.info.title, "in pieces of \(piece)")
            #expect(pieces.entries.map(\.title) == whole.entries.map(\.title), "in pieces of \(piece)")
        }
        var parser = FeedParser(url: URL(string: "https://example.com/feed.xml"), charset: charset)
        var entries = try parser.consume(bytes).joined().map { $0 }
        var completion = try parser.finish()
        entries += completion.entries
        completion.entries = entries
        return completion
    }

    /// EBCDIC `<?xml version="1.0" encoding="NAME"?><rss version="2.0"><channel><title>`, the
    /// title's bytes, then the rest: the markup in code page 037's letters, which every EBCDIC
    /// code page here shares for the characters the markup uses.
    static func ebcdicFeed(encoding: String, title: [UInt8]) -> [UInt8] {
        let ascii = Array(#"<?xml version="1.0" encoding="\#(encoding)"?><rss version="2.0"><channel><title>"#.utf8)
        let rest = Array("</title><item><guid>1</guid><title>One</title></item></channel></rss>".utf8)
        return ascii.map(ebcdic) + title + rest.map(ebcdic)
    }

    /// An ASCII letter, digit or XML sign in EBCDIC (code page 037).
    static func ebcdic(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "i"): 0x81 + (byte - UInt8(ascii: "a"))
        case UInt8(ascii: "j")...UInt8(ascii: "r"): 0x91 + (byte - UInt8(ascii: "j"))
        case UInt8(ascii: "s")...UInt8(ascii: "z"): 0xA2 + (byte - UInt8(ascii: "s"))
        case UInt8(ascii: "A")...UInt8(ascii: "I"): 0xC1 + (byte - UInt8(ascii: "A"))
        case UInt8(ascii: "J")...UInt8(ascii: "R"): 0xD1 + (byte - UInt8(ascii: "J"))
        case UInt8(ascii: "S")...UInt8(ascii: "Z"): 0xE2 + (byte - UInt8(ascii: "S"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 0xF0 + (byte - UInt8(ascii: "0"))
        case UInt8(ascii: " "): 0x40
        case UInt8(ascii: "<"): 0x4C
        case UInt8(ascii: ">"): 0x6E
        case UInt8(ascii: "?"): 0x6F
        case UInt8(ascii: "/"): 0x61
        case UInt8(ascii: "="): 0x7E
        case UInt8(ascii: "\""): 0x7F
        case UInt8(ascii: "."): 0x4B
        case UInt8(ascii: "-"): 0x60
        default: preconditionFailure("no EBCDIC byte for \(byte) in this test")
        }
    }

    @Test(arguments: [
        ("cp037", [0xC3, 0x81, 0x51] as [UInt8], "Caé"),
        ("cp500", [0xC3, 0x81, 0x51], "Caé"),
        ("IBM037", [0xC3, 0x81, 0x51], "Caé"),
        ("ebcdic-cp-us", [0xC3, 0x81, 0x51], "Caé"),
        ("cp875", [0x41, 0x42], "ΑΒ"),
        ("cp1140", [0xF5, 0x9F], "5€"),
    ])
    func anEBCDICFeedIsReadFromItsFirstBytes(encoding: String, title: [UInt8], expected: String) throws {
        let bytes = Self.ebcdicFeed(encoding: encoding, title: title)
        #expect(XMLEncoding.of(firstBytes: Array(bytes.prefix(256)), charset: nil) == .libxml2)

        let feed = try Self.parsed(bytes)

        #expect(feed.info.title == expected)
        #expect(feed.entries.map(\.title) == ["One"])
    }

    @Test(arguments: [
        ("437", [0x82] as [UInt8], "é"), ("850", [0x82], "é"), ("852", [0x88], "ł"), ("855", [0x80], "ђ"),
        ("857", [0x8D], "ı"), ("860", [0x84], "ã"), ("861", [0x8C], "ð"), ("862", [0x80], "א"),
        ("863", [0x84], "Â"), ("864", [0x80], "°"), ("865", [0x9B], "ø"), ("866", [0x80], "А"),
        ("maciceland", [0x8E], "é"), ("maclatin2", [0x88], "ą"),
    ])
    func aNameLibxml2RefusesIsDecodedByIconv(encoding: String, title: [UInt8], expected: String) throws {
        let bytes = Self.feed(encoding: encoding, title: Array("ab".utf8) + title)
        guard case .transcoded(let declared, .iconv) = XMLEncoding.of(firstBytes: bytes, charset: nil) else {
            Issue.record("\(encoding) is not decoded through iconv")
            return
        }
        #expect(declared == encoding)

        let feed = try Self.parsed(bytes)

        #expect(feed.info.title == "ab" + expected)
        #expect(feed.entries.map(\.title) == ["One", "Two"])
        #expect(!feed.isMalformed)
        #expect(feed.assumedEncoding == nil)
    }

    @Test(arguments: ["dbcs", "macgreek", "iso-8895-1", "utf-9"])
    func aNameNobodyKnowsIsReadAsWindows1252AndSaidSo(encoding: String) throws {
        // “Caf\u{E9}” in windows-1252: curly quotes at 0x93 and 0x94, é at 0xE9.
        let bytes = Self.feed(encoding: encoding, title: [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94])

        let feed = try Self.parsed(bytes)

        #expect(feed.info.title == "“Café”")
        #expect(feed.entries.map(\.title) == ["One", "Two"])
        #expect(feed.isMalformed)
        #expect(feed.assumedEncoding == AssumedEncoding(declared: encoding, read: "windows-1252"))
        #expect(feed.assumedEncoding?.description == "unknown encoding \"\(encoding)\", read as windows-1252")
    }

    @Test func anUndeclaredLegacyFeedSaysItWasReadAsWindows1252() throws {
        let feed = try Self.parsed(Self.feed(encoding: nil, title: [0x43, 0x61, 0x66, 0xE9]))

        #expect(feed.info.title == "Café")
        #expect(feed.assumedEncoding == AssumedEncoding(declared: nil, read: "windows-1252"))
    }

    @Test func aHintNobodyKnowsGivesWayToTheDeclaration() throws {
        let declared = try Self.parsed(Self.feed(encoding: "437", title: [0x82]), charset: "dbcs")
        let latin1 = try Self.parsed(Self.feed(encoding: "iso-8859-1", title: [0xE9]), charset: "x-unknown")
        let utf8 = try Self.parsed(Self.feed(encoding: "utf-8", title: [0xC3, 0xA9]), charset: "x-unknown")

        #expect(declared.info.title == "é")
        #expect(latin1.info.title == "é")
        #expect(utf8.info.title == "é")
        #expect(utf8.assumedEncoding == nil)
    }

    @Test func aHintIconvKnowsOverridesTheDeclaration() throws {
        let feed = try Self.parsed(Self.feed(encoding: "utf-8", title: [0x82]), charset: "437")

        #expect(feed.info.title == "é")
    }

    @Test func bytesOutsideTheEncodingBecomeReplacementCharactersAndTheRestIsRead() throws {
        // 0xA7 is unassigned in code page 864.
        let bytes = Self.feed(encoding: "864", title: [0x61, 0xA7, 0x62])

        let feed = try Self.parsed(bytes)

        #expect(feed.info.title == "a\u{FFFD}b")
        #expect(feed.entries.map(\.title) == ["One", "Two"])
        #expect(feed.isMalformed)
    }

    @Test func aCharacterCutBetweenPiecesIsHeldForTheNext() throws {
        // Shift_JIS's 日本 (0x93 0xFA, 0x96 0x7B), in pieces of one byte, and cut between the
        // blocks iconv is given.
        let prefix = Array("<a>".utf8) + Array(repeating: UInt8(ascii: "x"), count: XMLTranscoder.blockBytes - 4)
        for bytes in [[0x3C, 0x61, 0x3E, 0x93, 0xFA, 0x96, 0x7B, 0x3C, 0x2F, 0x61, 0x3E], prefix + [0x93, 0xFA, 0x96, 0x7B] + Array("</a>".utf8)] {
            let transcoder = try #require(XMLTranscoder(.iconv("SHIFT_JIS")))
            var output: [UInt8] = []
            for (index, byte) in bytes.enumerated() {
                output += [byte].withUnsafeBufferPointer { transcoder.transcode($0, final: index == bytes.count - 1) }
            }

            #expect(String(decoding: output, as: UTF8.self).hasSuffix("日本</a>"))
            #expect(output.count == bytes.count + 2)
            #expect(transcoder.replacements == 0)
        }
    }

    /// iconv is given the bytes in blocks at fixed offsets: the output waits for a block, and
    /// is the same however the bytes arrive, the document's end on a block's boundary too.
    @Test func iconvGetsTheSameBlocksHoweverTheBytesArrive() throws {
        let text = "<a>" + String(repeating: "Hi Mom -+Jjo--! A+ImIDkQ. 日本語 ", count: 400) + "</a>"
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            // UTF-7 as RFC 2152 writes it: base64 of UTF-16 between `+` and `-`.
            if scalar.isASCII { bytes.append(UInt8(scalar.value)); continue }
            let units = Array(String(scalar).utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            bytes += Array("+".utf8) + Array(Data(units).base64EncodedString().filter { $0 != "=" }.utf8) + Array("-".utf8)
        }
        for length in [bytes.count, XMLTranscoder.blockBytes * 2] {
            let document = Array(bytes.prefix(length))
            let reference = try #require(XMLTranscoder(.iconv("UTF-7")))
            let whole = document.withUnsafeBufferPointer { reference.transcode($0, final: true) }
            for pieceSize in [1, 7, 4095, 5000] {
                let transcoder = try #require(XMLTranscoder(.iconv("UTF-7")))
                var output: [UInt8] = []
                var start = 0
                var outputBeforeABlock = false
                while start < document.count {
                    let end = min(document.count, start + pieceSize)
                    output += document[start..<end].withUnsafeBufferPointer { transcoder.transcode($0, final: false) }
                    if end < XMLTranscoder.blockBytes, !output.isEmpty { outputBeforeABlock = true }
                    start = end
                }
                #expect(!outputBeforeABlock, "in pieces of \(pieceSize)")
                output += transcoder.transcode(UnsafeBufferPointer(start: nil, count: 0), final: true)
                #expect(output == whole, "\(length) bytes in pieces of \(pieceSize)")
            }
            #expect(String(decoding: whole, as: UTF8.self).contains("日本語"))
        }
    }

    @Test func theDeclarationOfADecodedDocumentSaysUTF8() throws {
        let transcoder = try #require(XMLTranscoder(.iconv("437")))
        let bytes = Self.feed(encoding: "437", title: [0x82])

        let output = bytes.withUnsafeBufferPointer { transcoder.transcode($0, final: true) }

        #expect(XMLEncoding.declaredEncoding(output) == "UTF-8")
        #expect(XMLEncoding.of(firstBytes: output, charset: nil) == .utf8)
    }

    @Test func aNamedEncodingLibxml2KnowsStaysWithLibxml2() {
        for name in ["iso-8859-1", "windows-1252", "koi8-r", "shift_jis", "ISO-8859-7"] {
            #expect(XMLEncoding.of(firstBytes: Self.feed(encoding: name, title: []), charset: nil) == .libxml2, "\(name)")
        }
        #expect(XMLEncoding.of(firstBytes: Self.feed(encoding: "UTF-8", title: []), charset: nil) == .utf8)
        #expect(XMLEncoding.of(firstBytes: Self.feed(encoding: nil, title: []), charset: nil) == .utf8)
    }
}
