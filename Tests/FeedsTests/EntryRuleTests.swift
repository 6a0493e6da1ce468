import Feeds
import Foundation
import Testing

@Suite("Entry rules: ids, links, thumbnails")
struct EntryRuleTests {
    static func rss(_ items: String, channelExtras: String = "") -> String {
        """
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel><title>T</title>\(channelExtras)\(items)</channel></rss>
        """
    }

    @Test func idFallsBackToLinkAndDateThenLinkThenTitleHash() throws {
        let feed = try parse(Self.rss("""
            <item><guid>  explicit  </guid><title>A</title></item>
            <item><title>B</title><link>https://x.example/b</link><pubDate>Sat, 02 Mar 2024 10:00:00 GMT</pubDate></item>
            <item><title>C</title><link>https://x.example/c</link></item>
            <item><title>D</title></item>
            <item><title>D</title></item>
            <item><title>E</title></item>
            """))
        let ids = feed.entries.map(\.id)
        #expect(ids[0] == "explicit")
        #expect(ids[1] == "https://x.example/b 2024-03-02T10:00:00Z")
        #expect(ids[2] == "https://x.example/c")
        // FNV-1a 64 of "D" (computed independently), fixed across processes and platforms.
        #expect(ids[3] == "title:af63f94c86021dd3")
        #expect(ids[3] == ids[4])
        #expect(ids[5] != ids[3])
    }

    /// A guid of nothing but control characters is empty once cleaned, so the fallbacks apply:
    /// found by `RobustnessTests` with seed 11942495022162171313, where a flipped byte left an
    /// Atom entry with an empty id.
    @Test func aGuidOfControlCharactersAloneFallsBackLikeAnEmptyOne() throws {
        let feed = try parse(Self.rss("""
            <item><guid>\u{85}\u{9F} \u{202E}</guid><title>B</title><link>https://x.example/b</link><pubDate>Sat, 02 Mar 2024 10:00:00 GMT</pubDate></item>
            <item><guid> \u{7F}</guid><title>D</title></item>
            """))
        #expect(feed.entries.map(\.id) == ["https://x.example/b 2024-03-02T10:00:00Z", "title:af63f94c86021dd3"])
    }

    @Test func permalinkGuidServesAsLinkButNotOneMarkedFalse() throws {
        let feed = try parse(Self.rss("""
            <item><title>A</title><guid>https://x.example/a</guid></item>
            <item><title>B</title><guid isPermaLink="false">https://x.example/b</guid></item>
            """))
        #expect(feed.entries[0].link == URL(string: "https://x.example/a"))
        #expect(feed.entries[1].link == nil)
    }

    @Test func linksResolveAgainstXMLBaseAndTheFeedURL() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://base.example/blog/">
              <title>B</title>
              <entry xml:base="posts/">
                <id>1</id><title>One</title><link href="one.html"/>
                <content type="html" xml:base="/media/">&lt;img src="pic.jpg"&gt;</content>
              </entry>
              <entry><id>2</id><title>Two</title><link href="../two.html"/></entry>
              <entry><id>3</id><title>Three</title><link xml:base="https://other.example/x/" href="three"/></entry>
            </feed>
            """, url: "https://feeds.example/atom.xml")
        #expect(feed.entries.map(\.link) == [
            URL(string: "https://base.example/blog/posts/one.html"),
            URL(string: "https://base.example/two.html"),
            URL(string: "https://other.example/x/three"),
        ])
        #expect(feed.entries[0].thumbnail == URL(string: "https://base.example/media/pic.jpg"))
    }

    @Test func relativeLinksWithoutXMLBaseUseTheFeedURL() throws {
        let feed = try parse(Self.rss("<item><title>A</title><link>/a?x=1&amp;y=2</link></item>"),
                             url: "https://site.example/feeds/rss.xml")
        #expect(feed.entries[0].link == URL(string: "https://site.example/a?x=1&y=2"))
    }

    @Test func relativeLinksInAFeedReadFromAFileUseTheSiteLink() throws {
        let feed = try parse(
            Self.rss("<item><title>A</title><link>/posts/1</link><description>&lt;img src=\"i.png\"&gt;</description></item>",
                     channelExtras: "<link>https://site.example/blog/</link>"),
            url: "file:///home/me/feed.xml")
        #expect(feed.entries[0].link == URL(string: "https://site.example/posts/1"))
        #expect(feed.entries[0].thumbnail == URL(string: "https://site.example/blog/i.png"))
    }

    @Test func atomPrefersTheHTMLAlternateLink() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><id>1</id><title>x</title>
            <link rel="self" href="https://a.example/self"/>
            <link rel="alternate" type="application/pdf" href="https://a.example/doc.pdf"/>
            <link rel="alternate" type="text/html" href="https://a.example/page"/>
            </entry></feed>
            """)
        #expect(feed.entries[0].link == URL(string: "https://a.example/page"))
    }

    /// One case per thumbnail rule, each item also carrying every lower-ranked source.
    static let thumbnailCases: [(String, String)] = [
        ("""
         <item><title>t</title><description>&lt;img src="/summary.png"&gt;</description>
         <itunes:image href="/itunes.png"/><enclosure url="/enclosure.jpg" type="image/jpeg"/>
         <media:content url="/content.jpg" medium="image"/><media:group><media:thumbnail url="/thumb.jpg"/></media:group></item>
         """, "https://example.com/thumb.jpg"),
        ("""
         <item><title>t</title><description>&lt;img src="/summary.png"&gt;</description>
         <itunes:image href="/itunes.png"/><enclosure url="/enclosure.jpg" type="image/jpeg"/>
         <media:content url="/video.mp4" medium="video"/><media:content url="/content.jpg" type="image/jpeg"/></item>
         """, "https://example.com/content.jpg"),
        ("""
         <item><title>t</title><description>&lt;img src="/summary.png"&gt;</description>
         <itunes:image href="/itunes.png"/><enclosure url="/audio.mp3" type="audio/mpeg"/><enclosure url="/enclosure.jpg" type="image/jpeg"/></item>
         """, "https://example.com/enclosure.jpg"),
        ("""
         <item><title>t</title><description>&lt;img src="/summary.png"&gt;</description><itunes:image href="/itunes.png"/></item>
         """, "https://example.com/itunes.png"),
        ("""
         <item><title>t</title><description>&lt;p&gt;&lt;IMG alt="x" SRC='/summary.png'&gt;</description>
         <content:encoded xmlns:content="http://purl.org/rss/1.0/modules/content/">&lt;img width=1 src=/content-first.png&gt;</content:encoded></item>
         """, "https://example.com/content-first.png"),
        ("""
         <item><title>t</title><description>&lt;p&gt;text &lt;img data-x="1" src="pics/s.png?a=1&amp;amp;b=2"&gt;</description></item>
         """, "https://example.com/pics/s.png?a=1&b=2"),
    ]

    @Test(arguments: thumbnailCases)
    func findsTheThumbnailByTheFirstRuleThatApplies(item: String, expected: String) throws {
        let feed = try parse(Self.rss(item))
        #expect(feed.entries.first?.thumbnail == URL(string: expected))
    }

    @Test func hasNoThumbnailWithoutAnImage() throws {
        let feed = try parse(Self.rss("<item><title>t</title><description>no image</description><enclosure url=\"/a.mp3\" type=\"audio/mpeg\"/></item>"))
        #expect(feed.entries.first?.thumbnail == nil)
    }

    @Test func namespacesAreMatchedByURINotPrefix() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:m="http://search.yahoo.com/mrss/" xmlns:c="http://purl.org/rss/1.0/modules/content/"
                 xmlns:creator="http://purl.org/dc/elements/1.1/" xmlns:media="http://example.com/not-media">
            <channel><title>T</title><item><title>t</title>
            <media:thumbnail url="/wrong.jpg"/><m:thumbnail url="/right.jpg"/>
            <c:encoded>&lt;p&gt;full&lt;/p&gt;</c:encoded><creator:creator>Pat</creator:creator>
            </item></channel></rss>
            """)
        let entry = try #require(feed.entries.first)
        #expect(entry.thumbnail == URL(string: "https://example.com/right.jpg"))
        #expect(entry.content == "<p>full</p>")
        #expect(entry.author == "Pat")
    }

    @Test func atomInADefaultPrefixedNamespace() throws {
        let feed = try parse("""
            <a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>P</a:title>
            <a:entry><a:id>x</a:id><a:title>Prefixed</a:title></a:entry></a:feed>
            """)
        #expect(feed.info.format == .atom1)
        #expect(feed.entries.map(\.title) == ["Prefixed"])
    }

    @Test func titlesArePlainText() throws {
        let feed = try parse(Self.rss("""
            <item><title>  Caf&amp;eacute; &lt;b&gt;bold&lt;/b&gt;
              and   &amp;lt;tags&amp;gt; &amp;#8220;quoted&amp;#x201D; a &lt; b </title></item>
            <item><title><![CDATA[<p>CDATA <i>title</i></p> &amp; more]]></title></item>
            """))
        #expect(feed.entries[0].title == "Café bold and <tags> \u{201C}quoted\u{201D} a < b")
        #expect(feed.entries[1].title == "CDATA title & more")
    }

    /// A limit that falls on a character boundary, and one that falls inside a character.
    @Test(arguments: [(10, "ééééé"), (9, "éééé")])
    func cutsFieldsAtTheLimitAndSaysSo(limit: Int, expected: String) throws {
        var configuration = FeedParser.Configuration()
        configuration.maxFieldBytes = limit
        let feed = try parse(Self.rss("<item><title>short</title><description>ééééééééé</description></item><item><title>ok</title></item>"),
                             configuration: configuration)
        #expect(feed.entries[0].summary == expected)
        #expect(feed.entries[0].isTruncated)
        #expect(!feed.entries[1].isTruncated)
    }
}

@Suite("Attributes")
struct AttributeTests {
    @Test func decodesReferencesInAttributeValues() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>T</title><item><title>t</title>
            <enclosure url="https://x.example/a.mp3?a=1&amp;b=2&#38;c=&eacute;" type="audio/mpeg"/></item></channel></rss>
            """)
        #expect(feed.entries.first?.enclosures.first?.url.absoluteString == "https://x.example/a.mp3?a=1&b=2&c=%C3%A9")
    }
}

extension AttributeTests {
    @Test func expandsDeclaredEntitiesInAttributeValues() throws {
        let feed = try parse("""
            <!DOCTYPE rss [<!ENTITY host "cdn.example">]>
            <rss version="2.0"><channel><title>T</title><item><title>t</title>
            <enclosure url="https://&host;/b.jpg" type="image/jpeg"/></item></channel></rss>
            """)
        #expect(feed.entries.first?.thumbnail == URL(string: "https://cdn.example/b.jpg"))
    }
}
