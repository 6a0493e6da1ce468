import Feeds
import Foundation
import Testing

/// What real-world feeds write beyond the core of each format, read the way a reader should
/// show it; each case follows the format's specification.
@Suite struct FidelityTests {
    // MARK: Dublin Core and Media RSS fallbacks

    @Test func dublinCoreTitleIsTheTitleWhenThereIsNoOther() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><dc:title>Channel by DC</dc:title>
            <item><dc:title>Item by DC</dc:title><guid>1</guid></item>
            <item><title>Own title</title><dc:title>Ignored</dc:title><guid>2</guid></item>
            </channel></rss>
            """)
        #expect(feed.info.title == "Channel by DC")
        #expect(feed.entries.map(\.title) == ["Item by DC", "Own title"])
    }

    @Test func mediaTitleIsTheLastFallback() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>c</title>
            <item><guid>1</guid><media:content url="https://m.example/v.mp4"><media:title>From media</media:title></media:content></item>
            </channel></rss>
            """)
        #expect(feed.entries.first?.title == "From media")
    }

    @Test func dublinCoreTermsDatesAreRead() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:dcterms="http://purl.org/dc/terms/"><channel><title>c</title>
            <item><guid>1</guid><dcterms:issued>2024-03-01T10:00:00Z</dcterms:issued><dcterms:modified>2024-03-02T10:00:00Z</dcterms:modified></item>
            <item><guid>2</guid><dcterms:created>2024-02-01T10:00:00Z</dcterms:created></item>
            </channel></rss>
            """)
        #expect(feed.entries[0].published == instant("2024-03-01T10:00:00Z"))
        #expect(feed.entries[0].updated == instant("2024-03-02T10:00:00Z"))
        #expect(feed.entries[1].published == instant("2024-02-01T10:00:00Z"))
    }

    // MARK: Namespaced RSS

    @Test func anRSSRootWithADefaultNamespaceKeepsItsFields() throws {
        for uri in ["http://backend.userland.com/rss2", "http://blogs.law.harvard.edu/tech/rss", "http://example.com/some-rss"] {
            let feed = try parse("""
                <rss version="2.0" xmlns="\(uri)"><channel><title>Namespaced</title><link>https://n.example/</link>
                <item><title>One</title><link>https://n.example/1</link><guid>1</guid></item></channel></rss>
                """)
            #expect(feed.info.title == "Namespaced", "\(uri)")
            #expect(feed.info.link == URL(string: "https://n.example/"), "\(uri)")
            #expect(feed.entries.map(\.title) == ["One"], "\(uri)")
        }
    }

    @Test func rssOneAndZeroNinetyWithoutPrefixesAreRead() throws {
        let rss1 = try parse("""
            <RDF xmlns="http://purl.org/rss/1.0/"><channel><title>RSS 1 bare</title><link>https://r.example/</link></channel>
            <item><title>First</title><link>https://r.example/1</link></item></RDF>
            """)
        #expect(rss1.info.title == "RSS 1 bare")
        #expect(rss1.entries.map(\.title) == ["First"])
        let rss090 = try parse("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
            <channel><title>Ninety</title><link>https://n.example/</link></channel><item><title>Old</title><link>https://n.example/o</link></item></rdf:RDF>
            """)
        #expect(rss090.info.title == "Ninety")
        #expect(rss090.entries.map(\.title) == ["Old"])
    }

    // MARK: Older Atom

    @Test func preAtomZeroThreeDraftsAreRecognised() throws {
        let feed = try parse("""
            <feed version="0.3" xmlns="http://purl.org/echo/"><title>Echo</title><link rel="alternate" href="https://e.example/"/>
            <entry><title>Draft entry</title><link rel="alternate" href="https://e.example/1"/><id>tag:e,2003:1</id>
            <issued>2003-08-01T10:00:00Z</issued><modified>2003-08-02T10:00:00Z</modified></entry></feed>
            """)
        #expect(feed.info.format == .atom03)
        #expect(feed.info.title == "Echo")
        #expect(feed.entries.first?.title == "Draft entry")
        #expect(feed.entries.first?.published == instant("2003-08-01T10:00:00Z"))
        #expect(feed.entries.first?.updated == instant("2003-08-02T10:00:00Z"))
    }

    @Test func atomZeroThreeDatesAreMapped() throws {
        let feed = try parse("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>t</title>
            <entry><title>a</title><id>1</id><created>2003-07-01T00:00:00Z</created><modified>2003-07-03T00:00:00Z</modified></entry>
            </feed>
            """)
        #expect(feed.entries.first?.published == instant("2003-07-01T00:00:00Z"))
        #expect(feed.entries.first?.updated == instant("2003-07-03T00:00:00Z"))
    }

    @Test func atomZeroThreeBase64ContentIsDecoded() throws {
        let html = "<p>Hello <b>base64</b></p>"
        let encoded = Data(html.utf8).base64EncodedString()
        let feed = try parse("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>t</title>
            <entry><title mode="base64">\(Data("Encoded title".utf8).base64EncodedString())</title><id>1</id>
            <content type="text/html" mode="base64">\(encoded)</content></entry></feed>
            """)
        #expect(feed.entries.first?.content == html)
        #expect(feed.entries.first?.title == "Encoded title")
    }

    // MARK: Escaped markup

    @Test func markupEscapedOnPurposeInATitleIsKeptAsText() throws {
        let atom = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
            <entry><id>1</id><title type="html">History of the &amp;lt;blink&amp;gt; tag</title></entry>
            <entry><id>2</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">History of the &lt;blink&gt; tag</div></title></entry>
            <entry><id>3</id><title type="text">History of the &lt;blink&gt; tag</title></entry>
            </feed>
            """)
        #expect(atom.entries.map(\.title) == Array(repeating: "History of the <blink> tag", count: 3))
    }

    // MARK: Case

    @Test func rssElementNamesAreReadWhateverTheirCase() throws {
        let feed = try parse("""
            <rss version="2.0"><Channel><TiTlE>Shouting</TiTlE><LINK>https://s.example/</LINK>
            <ITEM><TITLE>Loud</TITLE><Link>https://s.example/1</Link><GUID>1</GUID><PUBDATE>Sat, 02 Mar 2024 10:00:00 GMT</PUBDATE>
            <Description>Body</Description></ITEM></Channel></rss>
            """)
        #expect(feed.info.title == "Shouting")
        #expect(feed.info.link == URL(string: "https://s.example/"))
        #expect(feed.entries.first?.title == "Loud")
        #expect(feed.entries.first?.link == URL(string: "https://s.example/1"))
        #expect(feed.entries.first?.published == instant("2024-03-02T10:00:00Z"))
        #expect(feed.entries.first?.summary == "Body")
    }

    // MARK: Legacy code pages

    @Test(arguments: [
        ("cp437", [0x82, 0x94], "éö"), ("ibm850", [0x82, 0x94], "éö"), ("cp866", [0x8F, 0xE0], "Пр"),
        ("x-mac-roman", [0x8E, 0x9A], "éö"), ("macintosh", [0x8E, 0x9A], "éö"), ("x-mac-cyrillic", [0x8F, 0xF0], "Пр"),
        ("koi8-u", [0xF0, 0xD2], "Пр"), ("tcvn", [0xB5], "à"), ("viscii", [0xE0], "à"),
    ] as [(String, [UInt8], String)])
    func legacyCodePagesDeclaredInTheDocumentAreDecoded(encoding: String, bytes: [UInt8], expected: String) throws {
        let document = Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><rss version=\"2.0\"><channel><title>t</title><item><guid>1</guid><title>x".utf8)
            + bytes + Array("</title></item></channel></rss>".utf8)
        let feed = try parse(document)
        #expect(feed.entries.first?.title == "x" + expected, "\(encoding)")
        let hinted = try parse(Array("<rss version=\"2.0\"><channel><title>t</title><item><guid>1</guid><title>x".utf8)
            + bytes + Array("</title></item></channel></rss>".utf8), charset: encoding)
        #expect(hinted.entries.first?.title == "x" + expected, "\(encoding) from HTTP")
    }

    // MARK: Ids as links

    @Test func idsThatAreWebAddressesAreLinks() throws {
        let atom = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
            <entry><id>https://a.example/posts/1</id><title>a</title></entry>
            <entry><id>tag:a.example,2024:2</id><title>b</title></entry></feed>
            """)
        #expect(atom.entries.map(\.link) == [URL(string: "https://a.example/posts/1"), nil])
        let rss = try parse("""
            <rss version="2.0"><channel><title>t</title>
            <item><guid>https://r.example/1</guid><title>a</title></item>
            <item><guid isPermaLink="false">https://r.example/2</guid><title>b</title></item>
            <item><guid isPermaLink="true"> http://r.example/3 </guid><title>c</title></item></channel></rss>
            """)
        #expect(rss.entries.map(\.link) == [URL(string: "https://r.example/1"), nil, URL(string: "http://r.example/3")])
    }
}
