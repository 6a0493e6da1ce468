import Feeds
import Foundation
import Testing

@Suite("Formats")
struct FormatTests {
    @Test func readsRSS2() throws {
        let feed = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel>
              <title>Example &amp; Co</title>
              <link>https://example.com/</link>
              <description>All the &lt;b&gt;news&lt;/b&gt;</description>
              <lastBuildDate>Sat, 02 Mar 2024 10:00:00 GMT</lastBuildDate>
              <image><url>/logo.png</url><title>Not the feed title</title><link>https://wrong.example/</link></image>
              <item>
                <title>First &lt;em&gt;post&lt;/em&gt;</title>
                <link>https://example.com/1</link>
                <guid isPermaLink="false">post-1</guid>
                <description><![CDATA[<p>Hello <b>world</b></p>]]></description>
                <content:encoded><![CDATA[<p>Full text</p>]]></content:encoded>
                <pubDate>Fri, 01 Mar 2024 09:30:00 +0100</pubDate>
                <author>jane@example.com (Jane)</author>
                <category>news</category><category>tech</category>
                <enclosure url="https://cdn.example.com/a.mp3" type="audio/mpeg" length="1234"/>
              </item>
              <item><title>Second</title><link>/2</link><dc:creator>Bob</dc:creator><dc:date>2024-03-02T08:00:00Z</dc:date></item>
            </channel></rss>
            """)
        #expect(feed.info.format == .rss2)
        #expect(feed.info.title == "Example & Co")
        #expect(feed.info.link == URL(string: "https://example.com/"))
        #expect(feed.info.description == "All the <b>news</b>")
        #expect(feed.info.icon == URL(string: "https://example.com/logo.png"))
        #expect(feed.info.updated == instant("2024-03-02T10:00:00Z"))
        #expect(feed.isMalformed == false)
        #expect(feed.entries.count == 2)
        let first = feed.entries[0]
        #expect(first.id == "post-1")
        #expect(first.title == "First post")
        #expect(first.link == URL(string: "https://example.com/1"))
        #expect(first.summary == "<p>Hello <b>world</b></p>")
        #expect(first.content == "<p>Full text</p>")
        #expect(first.published == instant("2024-03-01T08:30:00Z"))
        #expect(first.author == "jane@example.com (Jane)")
        #expect(first.categories == ["news", "tech"])
        #expect(first.enclosures == [FeedEnclosure(url: URL(string: "https://cdn.example.com/a.mp3")!, type: "audio/mpeg", length: 1234)])
        let second = feed.entries[1]
        #expect(second.link == URL(string: "https://example.com/2"))
        #expect(second.author == "Bob")
        #expect(second.published == instant("2024-03-02T08:00:00Z"))
    }

    @Test(arguments: ["0.91", "0.92", "0.94"])
    func readsRSS09x(version: String) throws {
        let feed = try parse("""
            <rss version="\(version)"><channel><title>Old</title><link>http://old.example/</link>
            <item><title>One</title><link>http://old.example/1</link><description>Text</description></item>
            </channel></rss>
            """)
        #expect(feed.info.format == .rss09)
        #expect(feed.entries.map(\.title) == ["One"])
        #expect(feed.entries[0].id == "http://old.example/1")
    }

    @Test func readsRSS090() throws {
        let feed = try parse("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
            <channel><title>Netscape</title><link>http://ns.example/</link></channel>
            <item><title>Zero nine</title><link>http://ns.example/a</link></item>
            </rdf:RDF>
            """)
        #expect(feed.info.format == .rss09)
        #expect(feed.info.title == "Netscape")
        #expect(feed.entries.map(\.link) == [URL(string: "http://ns.example/a")])
    }

    @Test func readsRSS1() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="http://rdf.example/rss">
                <title>RDF site</title><link>http://rdf.example/</link><description>Desc</description>
                <dc:date>2024-01-05T10:00:00+00:00</dc:date>
                <items><rdf:Seq><rdf:li rdf:resource="http://rdf.example/a"/></rdf:Seq></items>
              </channel>
              <item rdf:about="http://rdf.example/a">
                <title>A</title><link>http://rdf.example/a</link><description>About A</description>
                <dc:date>2024-01-04T10:00:00Z</dc:date><dc:subject>Science</dc:subject><dc:creator>Ann</dc:creator>
              </item>
            </rdf:RDF>
            """)
        #expect(feed.info.format == .rss1)
        #expect(feed.info.title == "RDF site")
        #expect(feed.info.updated == instant("2024-01-05T10:00:00Z"))
        let entry = try #require(feed.entries.first)
        #expect(entry.id == "http://rdf.example/a")
        #expect(entry.published == instant("2024-01-04T10:00:00Z"))
        #expect(entry.categories == ["Science"])
        #expect(entry.author == "Ann")
    }

    @Test func readsAtom1() throws {
        let feed = try parse("""
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <title type="html">Atom &lt;i&gt;site&lt;/i&gt; &amp;amp; co</title>
              <subtitle>Sub</subtitle>
              <link rel="self" href="https://atom.example/feed"/>
              <link href="https://atom.example/"/>
              <logo>https://atom.example/logo.png</logo>
              <icon>https://atom.example/icon.png</icon>
              <updated>2024-03-01T12:00:00Z</updated>
              <author><name>Site Author</name></author>
              <entry>
                <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Rich <b>title</b></div></title>
                <id>urn:uuid:1</id>
                <link rel="alternate" type="text/html" href="https://atom.example/1"/>
                <link rel="enclosure" type="audio/mpeg" href="https://atom.example/1.mp3" length="99"/>
                <published>2024-02-29T10:00:00+02:00</published>
                <updated>2024-03-01T10:00:00Z</updated>
                <summary>Plain &lt;not markup&gt;</summary>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Para &amp; <img src="pic.png"/></p></div></content>
                <category term="swift" label="Swift"/>
                <source><title>Not this</title><id>urn:other</id><link href="https://elsewhere.example/"/></source>
              </entry>
            </feed>
            """)
        #expect(feed.info.format == .atom1)
        #expect(feed.info.title == "Atom site & co")
        #expect(feed.info.link == URL(string: "https://atom.example/"))
        #expect(feed.info.description == "Sub")
        #expect(feed.info.icon == URL(string: "https://atom.example/icon.png"))
        #expect(feed.info.updated == instant("2024-03-01T12:00:00Z"))
        let entry = try #require(feed.entries.first)
        #expect(entry.id == "urn:uuid:1")
        #expect(entry.title == "Rich title")
        #expect(entry.link == URL(string: "https://atom.example/1"))
        #expect(entry.published == instant("2024-02-29T08:00:00Z"))
        #expect(entry.updated == instant("2024-03-01T10:00:00Z"))
        #expect(entry.summary == "Plain &lt;not markup&gt;")
        #expect(entry.content == "<p>Para &amp; <img src=\"pic.png\"></img></p>")
        #expect(entry.categories == ["Swift"])
        #expect(entry.author == "Site Author")
        #expect(entry.enclosures.map(\.length) == [99])
        #expect(entry.thumbnail == URL(string: "https://example.com/pic.png"))
    }

    @Test func readsAtom03() throws {
        let feed = try parse("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#">
              <title>Old Atom</title><link rel="alternate" type="text/html" href="http://a03.example/"/>
              <tagline>Tag</tagline><modified>2005-01-01T00:00:00Z</modified>
              <entry>
                <title>E</title><link rel="alternate" type="text/html" href="http://a03.example/e"/>
                <id>tag:a03.example,2005:e</id><issued>2004-12-31T10:00:00-05:00</issued><modified>2005-01-01T00:00:00Z</modified>
                <content type="text/html" mode="escaped">&lt;p&gt;Hi&lt;/p&gt;</content>
                <author><name>Old Timer</name></author>
              </entry>
            </feed>
            """)
        #expect(feed.info.format == .atom03)
        #expect(feed.info.description == "Tag")
        #expect(feed.info.updated == instant("2005-01-01T00:00:00Z"))
        let entry = try #require(feed.entries.first)
        #expect(entry.id == "tag:a03.example,2005:e")
        #expect(entry.published == instant("2004-12-31T15:00:00Z"))
        #expect(entry.content == "<p>Hi</p>")
        #expect(entry.author == "Old Timer")
    }

    @Test(arguments: ["https://jsonfeed.org/version/1", "https://jsonfeed.org/version/1.1"])
    func readsJSONFeed(version: String) throws {
        let feed = try parse("""
            {"version": "\(version)", "title": "JSON site", "home_page_url": "https://json.example/",
             "feed_url": "https://json.example/feed.json", "description": "D", "icon": "/icon.png",
             "author": {"name": "Old Style"},
             "items": [
               {"id": "1", "url": "https://json.example/1", "title": "One &amp; only", "content_html": "<p>x <img src='/i.jpg'></p>",
                "summary": "S", "date_published": "2024-03-01T10:00:00-05:00", "date_modified": "2024-03-02T10:00:00Z",
                "authors": [{"name": "New Style"}], "tags": ["a", "b"],
                "attachments": [{"url": "https://json.example/a.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 5}]},
               {"id": 2, "content_text": "Just <text>", "image": "img/2.png"}
             ]}
            """, url: "https://json.example/feed.json")
        #expect(feed.info.format == .json)
        #expect(feed.info.title == "JSON site")
        #expect(feed.info.icon == URL(string: "https://json.example/icon.png"))
        #expect(feed.entries.count == 2)
        let first = feed.entries[0]
        #expect(first.title == "One & only")
        #expect(first.author == "New Style")
        #expect(first.published == instant("2024-03-01T15:00:00Z"))
        #expect(first.updated == instant("2024-03-02T10:00:00Z"))
        #expect(first.categories == ["a", "b"])
        #expect(first.enclosures.first?.length == 5)
        #expect(first.thumbnail == URL(string: "https://json.example/i.jpg"))
        let second = feed.entries[1]
        #expect(second.id == "2")
        #expect(second.content == "Just &lt;text&gt;")
        #expect(second.author == "Old Style")
        #expect(second.thumbnail == URL(string: "https://json.example/img/2.png"))
    }

    @Test func rejectsJSONThatIsNotAJSONFeed() {
        #expect(parseError(#"{"hello": "world"}"#) == .unreadable(reason: "JSON, but not a JSON Feed (no jsonfeed.org version)"))
    }

    @Test func rejectsXMLThatIsNotAFeed() {
        #expect(parseError("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>") == .notAFeed(rootElement: "svg"))
    }

    @Test func rejectsAnEmptyDocument() {
        #expect(parseError("  \n") == .unreadable(reason: "the document is empty"))
    }
}
