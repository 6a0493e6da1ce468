import Feeds
import Foundation
import Testing

@Suite("Real-world input: encodings, entities, malformed XML, HTML pages")
struct RealWorldInputTests {
    static let title = "Café “quoted” — €5 ½"

    static func feed(encoding: String?, title: String) -> String {
        let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? ""
        return declaration + "<rss version=\"2.0\"><channel><title>\(title)</title><item><title>\(title)</title></item></channel></rss>"
    }

    @Test func readsUTF16WithAByteOrderMark() throws {
        for bigEndian in [false, true] {
            let units = Array(Self.feed(encoding: "UTF-16", title: Self.title).utf16)
            var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            for unit in units {
                bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            let feed = try parse(bytes)
            #expect(feed.entries.map(\.title) == [Self.title], "big endian: \(bigEndian)")
            #expect(!feed.isMalformed)
        }
    }

    @Test func readsUTF8WithAByteOrderMark() throws {
        let feed = try parse([0xEF, 0xBB, 0xBF] + Array(Self.feed(encoding: "utf-8", title: Self.title).utf8))
        #expect(feed.info.title == Self.title)
    }

    @Test func readsISO88591Declared() throws {
        // "Café ½" in Latin-1: é is E9, ½ is BD.
        let bytes = Array(Self.feed(encoding: "ISO-8859-1", title: "Caf_ _").utf8)
        let latin1 = bytes.map { $0 == UInt8(ascii: "_") ? 0 : $0 }
        var replaced = latin1
        let holes = replaced.indices.filter { replaced[$0] == 0 }
        for (index, hole) in holes.enumerated() { replaced[hole] = index % 2 == 0 ? 0xE9 : 0xBD }
        let feed = try parse(replaced)
        #expect(feed.info.title == "Café ½")
        #expect(feed.entries.first?.title == "Café ½")
    }

    /// Windows-1252 puts curly quotes, the euro and the dash in 0x80–0x9F, where ISO-8859-1
    /// has control characters: decoding it as Latin-1 would lose them.
    static let windows1252Title: [UInt8] = [0x43, 0x61, 0x66, 0xE9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x97, 0x20, 0x80, 0x35]
    static let windows1252Expected = "Café “q” — €5"

    static func windows1252Feed(declared: String?) -> [UInt8] {
        let parts = Self.feed(encoding: declared, title: "@").split(separator: "@", omittingEmptySubsequences: false)
        return Array(parts[0].utf8) + windows1252Title + Array(parts[1].utf8) + windows1252Title + Array(parts[2].utf8)
    }

    @Test func readsWindows1252Declared() throws {
        let feed = try parse(Self.windows1252Feed(declared: "windows-1252"))
        #expect(feed.entries.first?.title == Self.windows1252Expected)
        #expect(!feed.isMalformed)
    }

    @Test func theHTTPCharsetHintWinsOverTheDeclaration() throws {
        let undeclared = try parse(Self.windows1252Feed(declared: nil), charset: "windows-1252")
        #expect(undeclared.entries.first?.title == Self.windows1252Expected)
        let misdeclared = try parse(Self.windows1252Feed(declared: "UTF-8"), charset: "Windows-1252")
        #expect(misdeclared.entries.first?.title == Self.windows1252Expected)
    }

    @Test func aByteOrderMarkWinsOverTheHTTPCharsetHint() throws {
        let feed = try parse([0xEF, 0xBB, 0xBF] + Array(Self.feed(encoding: nil, title: Self.title).utf8), charset: "iso-8859-1")
        #expect(feed.info.title == Self.title)
    }

    @Test func decodesHTMLEntitiesThatXMLDoesNotDeclare() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>Caf&eacute;&nbsp;Society</title>
            <item><title>Caf&eacute; &mdash; &hellip; &copy;</title><description>A&nbsp;&amp;&nbsp;B &lt;br&gt;</description>
            <link>https://x.example/?a=1&amp;b=&eacute;</link></item></channel></rss>
            """)
        #expect(feed.info.title == "Café Society")
        #expect(feed.entries.first?.title == "Café — … ©")
        #expect(feed.entries.first?.summary == "A\u{A0}&\u{A0}B <br>")
        #expect(!feed.isMalformed)
    }

    @Test func expandsInternalEntitiesTheDocumentDeclares() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [ <!ENTITY site "Example &amp; Sons"> <!ENTITY greeting "Hello from &site;"> ]>
            <rss version="2.0"><channel><title>&site;</title><item><title>&greeting;</title></item></channel></rss>
            """)
        #expect(feed.info.title == "Example & Sons")
        #expect(feed.entries.first?.title == "Hello from Example & Sons")
    }

    @Test func keepsCDATAAsText() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>C</title><item><title>t</title>
            <description><![CDATA[<p>Tom & Jerry <a href="/x?a=1&b=2">link</a></p>]]></description></item></channel></rss>
            """)
        #expect(feed.entries.first?.summary == #"<p>Tom & Jerry <a href="/x?a=1&b=2">link</a></p>"#)
    }

    @Test func salvagesMalformedXMLAndSaysSo() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>Broken & proud</title>
            <item><title>One</title><link>https://x.example/1</link></item>
            <item><title>Two <b>unclosed</title><link>https://x.example/2</link></item>
            <item><title>Three</title><link>https://x.example/3</link></item>
            """)
        #expect(feed.isMalformed)
        #expect(feed.entries.map(\.title).first == "One")
        #expect(feed.entries.map(\.title).last == "Three")
        #expect(feed.entries.first?.link == URL(string: "https://x.example/1"))
    }

    @Test func aWellFormedFeedIsNotMarkedMalformed() throws {
        let feed = try parse("<rss version=\"2.0\"><channel><title>Fine</title><item><title>One</title></item></channel></rss>")
        #expect(!feed.isMalformed)
    }

    @Test func anHTMLPageListsTheFeedsItAdvertises() {
        let page = """
            <!DOCTYPE html>
            <html><head><title>Blog</title>
            <link rel="stylesheet" href="/style.css">
            <link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.rss">
            <LINK REL="Alternate" TYPE="application/atom+xml" HREF="https://cdn.example/atom.xml">
            <link rel="alternate" type="application/feed+json" href="feed.json">
            <link rel="alternate" hreflang="fr" href="/fr/">
            </head><body><p>Hello</body></html>
            """
        let error = parseError(page, url: "https://blog.example/posts/")
        #expect(error == .htmlPage(feedLinks: [
            FeedLink(url: URL(string: "https://blog.example/feed.rss")!, type: "application/rss+xml", title: "RSS"),
            FeedLink(url: URL(string: "https://cdn.example/atom.xml")!, type: "application/atom+xml"),
            FeedLink(url: URL(string: "https://blog.example/posts/feed.json")!, type: "application/feed+json"),
        ]))
    }

    @Test func anXHTMLPageWithoutADoctypeIsRecognizedByItsRoot() {
        let page = """
            <?xml version="1.0"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head>
            <link rel="alternate" type="application/atom+xml" href="/atom"/></head><body/></html>
            """
        #expect(parseError(page, url: "https://x.example/") == .htmlPage(feedLinks: [
            FeedLink(url: URL(string: "https://x.example/atom")!, type: "application/atom+xml"),
        ]))
    }
}
