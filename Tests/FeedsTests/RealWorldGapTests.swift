import Feeds
import Foundation
import Testing

/// Feeds as other parsers' test suites hold them, written here by hand: what each is meant to
/// say, read the way its author meant.
@Suite struct RealWorldGapTests {
    // MARK: Formats others read

    @Test func readsRSS11() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <Channel xmlns="http://purl.org/net/rss1.1#" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" rdf:about="https://example.com/">
              <title>Eleven</title><link>https://example.com/</link><description>RSS 1.1</description>
              <items rdf:parseType="Collection">
                <item rdf:about="https://example.com/1"><title>First</title><link>https://example.com/1</link><description>One</description></item>
                <item rdf:about="https://example.com/2"><title>Second</title><link>https://example.com/2</link></item>
              </items>
            </Channel>
            """)

        #expect(feed.info.title == "Eleven")
        #expect(feed.info.link == URL(string: "https://example.com/"))
        #expect(feed.entries.map(\.title) == ["First", "Second"])
        #expect(feed.entries.map(\.id) == ["https://example.com/1", "https://example.com/2"])
        #expect(feed.entries.first?.summary == "One")
    }

    @Test func readsAnAtomEntryDocumentAsAFeedOfOne() throws {
        let feed = try parse("""
            <entry xmlns="http://www.w3.org/2005/Atom"><title>Alone</title><id>urn:alone</id>
            <link href="https://example.com/alone"/><updated>2024-03-02T10:00:00Z</updated><summary>Just me</summary></entry>
            """)

        #expect(feed.info.format == .atom1)
        #expect(feed.entries.count == 1)
        #expect(feed.entries.first?.title == "Alone")
        #expect(feed.entries.first?.link == URL(string: "https://example.com/alone"))
        #expect(feed.entries.first?.updated == instant("2024-03-02T10:00:00Z"))
    }

    @Test(arguments: ["", #" xmlns="http://www.w3.org/2005/atom""#, #" xmlns="HTTP://WWW.W3.ORG/2005/Atom""#])
    func readsAtomWithAMissingOrMiscasedNamespace(namespace: String) throws {
        let feed = try parse("""
            <feed\(namespace)><title>Loose</title><link href="https://example.com/"/>
            <entry><title>Inside</title><id>urn:1</id><link href="https://example.com/1"/><content type="html">&lt;p&gt;Body&lt;/p&gt;</content></entry></feed>
            """)

        #expect(feed.info.title == "Loose")
        #expect(feed.entries.map(\.title) == ["Inside"])
        #expect(feed.entries.first?.content == "<p>Body</p>")
    }

    @Test(arguments: ["http://my.netscape.com/rdf/simple/0.9", "http://channel.netscape.com/rdf/simple/0.9/"])
    func readsRSS090UnderAVariantOfItsNamespace(namespace: String) throws {
        let feed = try parse("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="\(namespace)">
            <channel><title>Old</title><link>https://example.com/</link></channel>
            <item><title>Ninety</title><link>https://example.com/90</link></item></rdf:RDF>
            """)

        #expect(feed.info.format == .rss09)
        #expect(feed.info.title == "Old")
        #expect(feed.entries.map(\.title) == ["Ninety"])
    }

    @Test func saysWhatADocumentIsWhenItIsNoFeed() {
        #expect(parseError(#"<opml version="2.0"><body/></opml>"#)?.description.hasPrefix("an OPML list of feeds") == true)
        #expect(parseError(#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>"#)?.description == "a sitemap, not a feed")
        #expect(parseError("<greeting>hi</greeting>")?.description == "not a feed: the root element is <greeting>")
    }

    // MARK: Summaries and authors

    @Test func takesItunesMediaAndDublinCoreDescriptionsWhenThereIsNoOther() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
            <item><guid>a</guid><title>Episode</title><itunes:summary>We talk &amp; talk.</itunes:summary></item>
            <item><guid>b</guid><title>Video</title><media:group><media:description>A clip.</media:description></media:group></item>
            <item><guid>c</guid><title>Note</title><dc:description>Dublin.</dc:description></item>
            <item><guid>d</guid><title>Both</title><description>Own.</description><itunes:summary>Other.</itunes:summary></item>
            </channel></rss>
            """)

        #expect(feed.entries.map(\.summary) == ["We talk &amp; talk.", "A clip.", "Dublin.", "Own."])
    }

    @Test func anAtomAuthorKnownOnlyByAnAddressIsThatAddress() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><id>1</id><title>x</title><author><email>jo@example.com</email></author></entry>
            <entry><id>2</id><title>y</title><author><name>Jo</name><email>jo@example.com</email></author></entry></feed>
            """)

        #expect(feed.entries.map(\.author) == ["jo@example.com", "Jo"])
    }

    @Test func readsDublinCore10() throws {
        let feed = try parse("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.0/">
            <channel rdf:about="https://example.com/"><title>T</title><link>https://example.com/</link></channel>
            <item rdf:about="https://example.com/1"><dc:title>Titled by DC</dc:title><link>https://example.com/1</link>
            <dc:date>2003-06-03T09:39:21-05:00</dc:date><dc:creator>Ann</dc:creator></item></rdf:RDF>
            """)

        #expect(feed.entries.first?.title == "Titled by DC")
        #expect(feed.entries.first?.published == instant("2003-06-03T14:39:21Z"))
        #expect(feed.entries.first?.author == "Ann")
    }

    // MARK: Titles

    @Test func anEscapedTitleWithoutMarkupKeepsItsAngleBrackets() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>T</title>
            <item><guid>1</guid><title>Nice &lt;gorilla&gt; what's he weigh?</title></item>
            <item><guid>2</guid><title>a &lt;b&gt;bold&lt;/b&gt; move</title></item>
            </channel></rss>
            """)

        #expect(feed.entries.map(\.title) == ["Nice <gorilla> what's he weigh?", "a bold move"])
    }

    @Test func inlineTagsInATitleAddNoSpace() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><id>1</id><title type="html">&#8377;&lt;b&gt;4,000&lt;/b&gt; for 10 ft&lt;sup&gt;2&lt;/sup&gt;</title></entry>
            <entry><id>2</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">H<sub>2</sub>O and <em>more</em></div></title></entry>
            <entry><id>3</id><title type="html">one&lt;br&gt;two&lt;p&gt;three&lt;/p&gt;</title></entry></feed>
            """)

        #expect(feed.entries.map(\.title) == ["₹4,000 for 10 ft2", "H2O and more", "one two three"])
    }

    // MARK: Dates

    @Test(arguments: [
        ("2020/1/10 14:33", "2020-01-10T14:33:00Z"),
        ("2020/01/10", "2020-01-10T00:00:00Z"),
        ("Tue, 10 Jun 2003 8:19 pm CEST", "2003-06-10T18:19:00Z"),
        ("Tue, 10 Jun 2003 8:19pm GMT", "2003-06-10T20:19:00Z"),
        ("Tue, 10 Jun 2003 12:05 am GMT", "2003-06-10T00:05:00Z"),
        ("Tue, 10 Jun 2003 12:05 p.m. GMT", "2003-06-10T12:05:00Z"),
    ])
    func readsLenientDatesWhoseIntentIsPlain(text: String, expected: String) {
        #expect(FeedDate.parse(text).map(FeedDate.rfc3339) == expected)
    }

    @Test(arguments: ["2003-07-32", "2020/13/10", "2020/1/32", "Tue, 10 Jun 2003 13:19 pm GMT", "10/1/2020"])
    func invalidDatesStayRejected(text: String) {
        #expect(FeedDate.parse(text) == nil)
    }

    @Test func anUnnamespacedModifiedIsTheUpdateTime() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>T</title>
            <item><guid>1</guid><title>x</title><modified>2004-01-02T03:04:05Z</modified></item></channel></rss>
            """)

        #expect(feed.entries.first?.updated == instant("2004-01-02T03:04:05Z"))
    }

    // MARK: Links

    @Test func aRelativeLinkInAFileFeedIsNoLink() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>T</title><link>/blog/</link>
            <item><guid>1</guid><title>x</title><link>/blog/1</link></item>
            <item><guid>2</guid><title>y</title><link>https://example.com/2</link></item></channel></rss>
            """, url: "file:///home/someone/feed.xml")

        #expect(feed.info.link == nil)
        #expect(feed.entries.map(\.link) == [nil, URL(string: "https://example.com/2")])
    }
}
