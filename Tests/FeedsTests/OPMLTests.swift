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
        let document = try OPML.document(for: subscriptions, title: "Export")
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

    /// An OPML document of `depth` nested folders around one feed.
    private func nested(_ depth: Int) -> [UInt8] {
        var text = #"<?xml version="1.0"?><opml version="2.0"><body>"# + "\n"
        text += String(repeating: #"<outline text="a">"#, count: depth)
        text += #"<outline text="deep" xmlUrl="https://deep.example/feed"/>"#
        text += String(repeating: "</outline>", count: depth) + "</body></opml>"
        return Array(text.utf8)
    }

    @Test func importReadsFoldersAsDeepAsTheLimit() throws {
        let subscriptions = try OPML.subscriptions(from: nested(OPML.maxCategoryDepth))
        #expect(subscriptions.map(\.categories) == [Array(repeating: "a", count: OPML.maxCategoryDepth)])
    }

    @Test func importRefusesFoldersNestedDeeperThanTheLimitNamingTheLine() {
        #expect(throws: OPMLError.foldersTooDeep(line: 2, limit: OPML.maxCategoryDepth)) {
            try OPML.subscriptions(from: nested(100_000))
        }
        var document = Array(#"<opml version="2.0"><body>"#.utf8)
        for level in 0...OPML.maxCategoryDepth { document += Array("\n<outline text=\"\(level)\">".utf8) }
        #expect(throws: OPMLError.foldersTooDeep(line: OPML.maxCategoryDepth + 2, limit: OPML.maxCategoryDepth)) {
            try OPML.subscriptions(from: document)
        }
    }

    @Test func feedsNestedInFeedsAreNotFolders() throws {
        let depth = 100_000
        let feeds = #"<opml version="2.0"><body>"# + String(repeating: #"<outline xmlUrl="https://a.example/">"#, count: depth)
            + String(repeating: "</outline>", count: depth) + "</body></opml>"
        let subscriptions = try OPML.subscriptions(from: Array(feeds.utf8))
        #expect(subscriptions.count == depth)
        #expect(subscriptions.allSatisfy { $0.categories.isEmpty })
    }

    @Test func exportWritesCategoriesAsDeepAsTheLimitForImportToReadBack() throws {
        let deepest = Array(repeating: "a", count: OPML.maxCategoryDepth)
        let subscriptions = [
            Subscription(feedURL: URL(string: "https://deep.example/feed")!, title: "Deep", categories: deepest),
            Subscription(feedURL: URL(string: "https://shallow.example/feed")!, title: "Shallow", categories: ["a"]),
        ]
        let document = try OPML.document(for: subscriptions)
        #expect(try OPML.subscriptions(from: Array(document.utf8)) == subscriptions)
        // Each level adds two lines indented by at most the limit: linear in the depth.
        #expect(document.utf8.count < 2 * OPML.maxCategoryDepth * (2 * OPML.maxCategoryDepth + 100))
    }

    @Test func exportRefusesACategoryDeeperThanTheLimit() {
        let url = URL(string: "https://deep.example/feed")!
        let deep = Subscription(feedURL: url, categories: Array(repeating: "a", count: 100_000))
        #expect(throws: OPMLError.categoryTooDeep(feedURL: url, depth: 100_000, limit: OPML.maxCategoryDepth)) {
            try OPML.document(for: [Subscription(feedURL: URL(string: "https://fine.example/feed")!), deep])
        }
    }
}
