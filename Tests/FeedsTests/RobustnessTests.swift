import Feeds
import Foundation
import SeededRandom
import Testing

@Suite("Robustness")
struct RobustnessTests {
    static let fixture = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE rss [<!ENTITY brand "Example">]>
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
        <channel><title>&brand; &amp; friends</title><link>https://r.example/</link>
        <item><title>Caf&eacute; &lt;b&gt;one&lt;/b&gt;</title><link>/1</link><guid>1</guid>
        <pubDate>Sat, 02 Mar 2024 10:00:00 GMT</pubDate><media:thumbnail url="/t.jpg"/>
        <description><![CDATA[<p>Hello <img src="x.png"></p>]]></description>
        <content:encoded>&lt;p&gt;Full&lt;/p&gt;</content:encoded></item>
        <item><title>Two</title><enclosure url="/a.mp3" type="audio/mpeg" length="12"/></item>
        </channel></rss>
        """

    static let atomFixture = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://r.example/"><title type="html">A &amp;amp; B</title>
        <entry><id>1</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">X <b>y</b></div></title>
        <link href="one"/><published>2024-03-02T10:00:00+01:00</published>
        <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p><img src="i.png"/></p></div></content>
        <author><name>N</name></author></entry></feed>
        """

    static let jsonFixture = """
        {"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": [{"id": "1", "title": "T",
         "content_html": "<p><img src=\"/i.png\"></p>", "date_published": "2024-03-02T10:00:00Z"}]}
        """

    /// Truncated, spliced and byte-flipped versions of a feed either parse or fail with a
    /// typed error, streamed in random chunk sizes; never a crash, never an entry without an id.
    /// `SCROLLWORK_SEED=<seed>` repeats a run.
    @Test(arguments: [fixture, atomFixture, jsonFixture])
    func survivesMutatedInput(fixture: String) {
        let seed = randomizedTestSeed()
        print("RobustnessTests seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let original = Array(fixture.utf8)
        for _ in 0..<300 {
            var bytes = original
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            case 1:
                let start = Int.random(in: 0..<bytes.count, using: &random)
                let end = Int.random(in: start...bytes.count, using: &random)
                bytes.removeSubrange(start..<end)
            default:
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            var parser = FeedParser(url: URL(string: "https://r.example/feed"), configuration: .init(batchSize: 1))
            var entries: [FeedEntry] = []
            do {
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + Int.random(in: 1...64, using: &random))
                    entries += try parser.consume(bytes[offset..<end]).flatMap { $0 }
                    offset = end
                }
                entries += try parser.finish().entries
                #expect(entries.allSatisfy { !$0.id.isEmpty }, "seed \(seed)")
            } catch {
                #expect(!error.description.isEmpty, "seed \(seed)")
            }
        }
    }

    @Test func theUnmutatedFixtureParsesCompletely() throws {
        let feed = try parse(Self.fixture, url: "https://r.example/feed")
        #expect(feed.info.title == "Example & friends")
        #expect(feed.entries.map(\.title) == ["Café one", "Two"])
        #expect(feed.entries[0].thumbnail == URL(string: "https://r.example/t.jpg"))
        #expect(!feed.isMalformed)
    }
}
