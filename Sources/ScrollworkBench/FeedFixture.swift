import Foundation
import SeededRandom

/// Generated RSS 2.0 and Atom 1.0 feeds with realistic entries: titles with entities, HTML
/// summaries and contents with links, entities and an `<img>`, dates, categories, authors.
/// The same bytes for the same size and format on every machine.
enum FeedFixture {
    enum Format: String, CaseIterable {
        case rss
        case atom
    }

    /// - Parameters:
    ///   - editedEvery: if set, every so many entries (starting with the first) get an edited
    ///     title, for re-ingesting a feed with some entries changed.
    ///   - pictures: whether the summaries hold their `<img>`; without, a reader has nothing to
    ///     fetch but the feed, as in a text reader.
    static func make(_ format: Format, entries: Int, editedEvery: Int? = nil, pictures: Bool = true) -> [UInt8] {
        var random = SeededGenerator(seed: UInt64(entries) &* 31 &+ (format == .rss ? 1 : 2))
        var out = format == .rss
            ? """
              <?xml version="1.0" encoding="UTF-8"?>
              <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
              <channel><title>Bench &amp; Co</title><link>https://bench.example/</link><description>Generated</description>
              <lastBuildDate>Sat, 02 Mar 2024 10:00:00 GMT</lastBuildDate>

              """
            : """
              <?xml version="1.0" encoding="utf-8"?>
              <feed xmlns="http://www.w3.org/2005/Atom"><title>Bench &amp; Co</title><link href="https://bench.example/"/>
              <id>urn:bench</id><updated>2024-03-02T10:00:00Z</updated>

              """
        for index in 0..<entries {
            var title = words(Int.random(in: 4...10, using: &random), using: &random)
            if let editedEvery, index % editedEvery == 0 { title += " (edited)" }
            let paragraph = words(Int.random(in: 40...90, using: &random), using: &random)
            let day = 1 + index % 28
            let category = categories[Int.random(in: 0..<categories.count, using: &random)].replacingOccurrences(of: "&", with: "&amp;")
            let html = "&lt;p&gt;\(paragraph) &amp;amp; more &amp;mdash; see &lt;a href=&quot;https://bench.example/ref/\(index)&quot;&gt;this&lt;/a&gt;.&lt;/p&gt;"
                + (pictures ? "&lt;p&gt;&lt;img src=&quot;/images/\(index).jpg&quot; alt=&quot;\(title)&quot;&gt;&lt;/p&gt;" : "")
            switch format {
            case .rss:
                out += """
                    <item><title>\(title) &amp; \(index)</title><link>https://bench.example/posts/\(index)</link>
                    <guid isPermaLink="true">https://bench.example/posts/\(index)</guid>
                    <pubDate>Mon, \(day) Jan 2024 \(10 + index % 10):\(10 + index % 50):00 +0100</pubDate>
                    <dc:creator>Author \(index % 17)</dc:creator><category>\(category)</category><category>bench</category>
                    <description>\(html)</description>
                    <content:encoded><![CDATA[<p>\(paragraph)</p><p>\(paragraph)</p>]]></content:encoded>
                    </item>

                    """
            case .atom:
                out += """
                    <entry><title type="html">\(title) &amp;amp; \(index)</title>
                    <link rel="alternate" type="text/html" href="https://bench.example/posts/\(index)"/>
                    <id>tag:bench.example,2024:\(index)</id>
                    <published>2024-01-\(day < 10 ? "0" : "")\(day)T10:\(10 + index % 50):00+01:00</published>
                    <updated>2024-01-\(day < 10 ? "0" : "")\(day)T12:00:00Z</updated>
                    <author><name>Author \(index % 17)</name></author><category term="\(category)"/>
                    <summary type="html">\(html)</summary>
                    <content type="html">&lt;p&gt;\(paragraph)&lt;/p&gt;&lt;p&gt;\(paragraph)&lt;/p&gt;</content>
                    </entry>

                    """
            }
        }
        out += format == .rss ? "</channel></rss>\n" : "</feed>\n"
        return Array(out.utf8)
    }

    /// A feed shaped like the real ones whose parse was slow: every entry a long article
    /// (about 30 KB of HTML: paragraphs with links and entities, figures, code blocks, lists)
    /// that starts and ends with whitespace, in CDATA for RSS and escaped for Atom, with
    /// character references and inline markup in the titles, as blogs and podcasts publish
    /// them. The same bytes for the same size and format on every machine.
    static func makeRealWorld(_ format: Format, entries: Int) -> [UInt8] {
        var random = SeededGenerator(seed: UInt64(entries) &* 131 &+ (format == .rss ? 7 : 11))
        var out = format == .rss
            ? """
              <?xml version="1.0" encoding="UTF-8"?>
              <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel><title>Long reads &#8211; a blog</title><link>https://long.example/</link><description>Generated</description>

              """
            : """
              <?xml version="1.0" encoding="utf-8"?>
              <feed xmlns="http://www.w3.org/2005/Atom"><title type="html">Long reads &amp;#8211; a blog</title>
              <link href="https://long.example/"/><id>urn:long</id><updated>2024-03-02T10:00:00Z</updated>

              """
        for index in 0..<entries {
            let words = words(Int.random(in: 4...9, using: &random), using: &random)
            let day = 1 + index % 28
            var article = "\n\t\t\t\n"
            for section in 0..<Int.random(in: 18...26, using: &random) {
                let paragraph = self.words(Int.random(in: 60...120, using: &random), using: &random)
                article += "<p>\(paragraph) &amp; more &#8212; see <a href=\"https://long.example/ref/\(index)/\(section)?utm_source=feed&amp;utm_medium=rss\">the notes</a>&nbsp;and <em>what&#8217;s next</em>.</p>\n"
                switch section % 6 {
                case 1: article += "<figure><img src=\"/img/\(index)-\(section).jpg\" alt=\"\(words)\" width=\"800\" height=\"450\"/><figcaption>\(words) &copy; 2024</figcaption></figure>\n"
                case 3: article += "<pre><code>let items = feed.entries.filter { $0.isNew }\nfor item in items where item.score &gt; 0.5 {\n    print(item.title)\n}\n</code></pre>\n"
                case 5: article += "<ul><li>\(words)</li><li>ft<sup>2</sup> &amp; m<sup>3</sup></li><li>&#x20B9;4,000 &lt; &#x20B9;5,000</li></ul>\n"
                default: break
                }
            }
            article += "\n    \n  "
            switch format {
            case .rss:
                out += """
                    <item><title>Nice &lt;\(words)&gt; what&#8217;s he weigh? &#8211; \(index)</title>
                    <link>https://long.example/\(index)/</link><guid isPermaLink="false">long-\(index)</guid>
                    <pubDate>Mon, \(day) Jan 2024 10:\(10 + index % 50):00 +0000</pubDate><dc:creator><![CDATA[Author \(index % 13)]]></dc:creator>
                    <description><![CDATA[\n  <p>\(words)&hellip;</p>\n]]></description>
                    <content:encoded><![CDATA[\(article)]]></content:encoded>
                    </item>

                    """
            case .atom:
                let escaped = article.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                out += """
                    <entry><title type="html">&lt;b&gt;\(words)&lt;/b&gt;: ft&lt;sup&gt;2&lt;/sup&gt; for &amp;#x20B9;4,000 &amp;#8211; \(index)</title>
                    <link rel="alternate" type="text/html" href="https://long.example/\(index)/"/><id>tag:long.example,2024:\(index)</id>
                    <updated>2024-01-\(day < 10 ? "0" : "")\(day)T12:00:00Z</updated><author><name>Author \(index % 13)</name></author>
                    <content type="html" xml:base="https://long.example/\(index)/">\(escaped)</content>
                    </entry>

                    """
            }
        }
        out += format == .rss ? "</channel></rss>\n" : "</feed>\n"
        return Array(out.utf8)
    }

    /// A podcast feed shaped like the real one that parsed slower than feedparser-rs: items of
    /// a title, a link, an entity-escaped HTML description, a date, a guid, the iTunes fields
    /// (summary, subtitle, keywords, image, explicit, author, duration), `media:content` and an
    /// enclosure, with the namespaces declared on `<rss>` and again on `<channel>`. About
    /// 2.2 KB an item; 730 items make the real feed's 1.6 MB. The same bytes on every machine.
    static func makePodcast(entries: Int) -> [UInt8] {
        var random = SeededGenerator(seed: UInt64(entries) &* 977 &+ 3)
        let namespaces = #"xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/""#
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" \(namespaces)>
            <channel \(namespaces)>
            <title>The Bench Podcast</title><link>https://pod.example/</link><language>en-us</language>
            <atom:link href="https://pod.example/feed.xml" rel="self" type="application/rss+xml"/>
            <itunes:author>Bench &amp; Co</itunes:author><itunes:image href="https://pod.example/cover.jpg"/>
            <itunes:category text="Technology"/><itunes:explicit>no</itunes:explicit>
            <description>A generated podcast.</description>

            """
        for index in 0..<entries {
            let title = words(Int.random(in: 4...9, using: &random), using: &random)
            let summary = words(Int.random(in: 60...110, using: &random), using: &random)
            let subtitle = words(Int.random(in: 8...16, using: &random), using: &random)
            let day = 1 + index % 28
            let minutes = 20 + index % 70
            let description = "&lt;p&gt;\(summary)&lt;/p&gt;&lt;p&gt;Guests: &lt;a href=&quot;https://pod.example/guests/\(index)&quot;&gt;\(subtitle)&lt;/a&gt; &amp;amp; friends.&lt;/p&gt;"
                + "&lt;ul&gt;&lt;li&gt;00:00 Intro&lt;/li&gt;&lt;li&gt;04:12 \(title)&lt;/li&gt;&lt;/ul&gt;"
            out += """
                <item>
                <title>\(index): \(title)</title>
                <link>https://pod.example/episodes/\(index)</link>
                <description>\(description)</description>
                <pubDate>Tue, \(day) Feb 2022 \(10 + index % 10):\(10 + index % 50):00 -0500</pubDate>
                <guid isPermaLink="false">pod-example-\(index)-\(minutes)</guid>
                <itunes:summary>\(summary)</itunes:summary>
                <itunes:subtitle>\(subtitle)</itunes:subtitle>
                <itunes:keywords>bench,podcast,\(title.split(separator: " ").prefix(3).joined(separator: ","))</itunes:keywords>
                <itunes:image href="https://pod.example/art/\(index).jpg"/>
                <itunes:explicit>no</itunes:explicit>
                <itunes:author>Host \(index % 5) &amp; Guests</itunes:author>
                <itunes:duration>\(minutes):\(10 + index % 50)</itunes:duration>
                <media:content url="https://cdn.pod.example/audio/\(index).mp3" fileSize="\(30_000_000 + index)" type="audio/mpeg" medium="audio"/>
                <enclosure url="https://cdn.pod.example/audio/\(index).mp3" length="\(30_000_000 + index)" type="audio/mpeg"/>
                </item>

                """
        }
        out += "</channel></rss>\n"
        return Array(out.utf8)
    }

    private static func words(_ count: Int, using random: inout SeededGenerator) -> String {
        (0..<count).map { _ in vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)] }.joined(separator: " ")
    }

    private static let vocabulary = [
        "swift", "list", "scroll", "feed", "thumbnail", "reader", "update", "batch", "café", "naïve", "résumé",
        "performance", "memory", "layout", "the", "a", "of", "and", "with", "for", "fast", "smooth", "frame",
        "network", "cache", "image", "post", "article", "linux", "server", "terminal", "über", "déjà", "vu",
    ]

    private static let categories = ["Programming", "Design", "Science", "Music", "Travel", "Food & Drink"]
}
