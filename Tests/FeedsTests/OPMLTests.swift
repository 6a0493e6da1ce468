import Feeds
import Foundation
import Testing

@Suite("OPML")
struct OPMLTests {
    @Test func importsNestedOutlinesAsCategories() throws {
        let document = """
            <?xml version="1.0"?>
            <opml version="1.0"><head><title>Mine</title></head><body>
              <outline text="Loose" type="rss" xmlUrl="https://loose.example/feed" htmlUrl="https://loose.example/"/>
              <outline text="Tech">
                <outline title="Swift" text="ignored">
                  <outline text="Swift.org &amp; friends" type="rss" xmlUrl="https://swift.org/atom.xml"/>
                </outline>
                <outline text="Linux" type="rss" xmlUrl="/linux.rss"/>
              </outline>
              <outline text="Broken" type="rss" xmlUrl=""/>
            </body></opml>
            """
        let subscriptions = try OPML.subscriptions(from: Array(document.utf8), url: URL(string: "https://me.example/subs.opml"))
        #expect(subscriptions == [
            Subscription(feedURL: URL(string: "https://loose.example/feed")!, title: "Loose", siteURL: URL(string: "https://loose.example/")),
            Subscription(feedURL: URL(string: "https://swift.org/atom.xml")!, title: "Swift.org & friends", categories: ["Tech", "Swift"]),
            Subscription(feedURL: URL(string: "https://me.example/linux.rss")!, title: "Linux", categories: ["Tech"]),
        ])
    }

    @Test func roundTripsThroughExport() throws {
        let subscriptions = [
            Subscription(feedURL: URL(string: "https://a.example/feed?x=1&y=2")!, title: "A \"quoted\" <feed>", siteURL: URL(string: "https://a.example/")),
            Subscription(feedURL: URL(string: "https://b.example/rss")!, title: "B", categories: ["News"]),
            Subscription(feedURL: URL(string: "https://c.example/rss")!, title: "C", categories: ["News", "Local"]),
            Subscription(feedURL: URL(string: "https://d.example/rss")!, title: "D", categories: ["News", "Local"]),
            Subscription(feedURL: URL(string: "https://e.example/rss")!, title: "Café", categories: ["Tech & Science"]),
        ]
        let document = OPML.document(for: subscriptions, title: "Export")
        #expect(try OPML.subscriptions(from: Array(document.utf8)) == subscriptions)
        #expect(document.contains(#"<outline text="News" title="News">"#))
    }

    @Test func rejectsAFeedGivenAsOPML() {
        #expect(throws: OPMLError.notOPML(rootElement: "rss")) {
            try OPML.subscriptions(from: Array("<rss version=\"2.0\"><channel/></rss>".utf8))
        }
    }

    @Test func rejectsText() {
        #expect(throws: OPMLError.unreadable(reason: "no root element")) {
            try OPML.subscriptions(from: Array("just words".utf8))
        }
    }
}
