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

    /// - Parameter editedEvery: if set, every so many entries (starting with the first) get
    ///   an edited title, for re-ingesting a feed with some entries changed.
    static func make(_ format: Format, entries: Int, editedEvery: Int? = nil) -> [UInt8] {
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
                + "&lt;p&gt;&lt;img src=&quot;/images/\(index).jpg&quot; alt=&quot;\(title)&quot;&gt;&lt;/p&gt;"
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
