import Feeds
import FeedSync
import Foundation
import Testing

@Suite("Items as entries")
struct RemoteItemTests {
    let id = RemoteItemID("tag:google.com,2005:reader/item/000661363502431c")

    @Test func cleansEveryTextFieldAsAParsedFeedIs() {
        let item = RemoteItem(
            id: id, streamID: "feed/1", title: "Hello \u{1B}[2Jworld\u{202E}", author: "Ann\u{9B}31m",
            summary: "a\u{07}b\u{202E}", content: "<p>c\u{1B}d</p>", categories: ["News\u{0}", "  "],
            enclosures: [FeedEnclosure(url: URL(string: "http://a.test/x.mp3")!, type: "audio/mpeg\u{1B}")]
        )
        let entry = item.entry
        #expect(entry.title == "Hello [2Jworld")
        #expect(entry.author == "Ann31m")
        #expect(entry.summary == "ab\u{202E}")
        #expect(entry.content == "<p>cd</p>")
        #expect(entry.categories == ["News"])
        #expect(entry.enclosures.first?.type == "audio/mpeg")
    }

    @Test func makesTitlesPlainText() {
        #expect(RemoteItem(id: id, streamID: "s", title: "<b>Bold</b> &amp; \n  bright").entry.title == "Bold & bright")
        #expect(RemoteItem(id: id, streamID: "s", title: "a < b").entry.title == "a < b")
    }

    @Test func picksTheThumbnailAsForAFeed() {
        let link = URL(string: "http://site.test/posts/1")!
        let picture = FeedEnclosure(url: URL(string: "http://site.test/e.jpg")!, type: "image/jpeg")
        let audio = FeedEnclosure(url: URL(string: "http://site.test/a.mp3")!, type: "audio/mpeg")
        func thumbnail(image: URL? = nil, enclosures: [FeedEnclosure] = [], summary: String? = nil, content: String? = nil) -> String? {
            RemoteItem(id: id, streamID: "s", title: "t", link: link, summary: summary, content: content,
                       enclosures: enclosures, imageURL: image).entry.thumbnail?.absoluteString
        }
        #expect(thumbnail(image: URL(string: "http://cdn.test/i.png"), enclosures: [picture]) == "http://cdn.test/i.png")
        #expect(thumbnail(enclosures: [audio, picture], content: #"<img src="/c.png">"#) == "http://site.test/e.jpg")
        #expect(thumbnail(enclosures: [audio], summary: #"<img src="s.png">"#, content: #"<p><img src="/c.png"></p>"#) == "http://site.test/c.png")
        #expect(thumbnail(summary: #"<img src="s.png">"#, content: "none") == "http://site.test/posts/s.png")
        #expect(thumbnail(content: "none") == nil)
    }

    @Test func dropsEmptyTextsAndKeepsTheIDAsTheEntrysID() {
        let entry = RemoteItem(id: id, streamID: "s", title: "", author: " ", summary: "", content: "").entry
        #expect(entry.id == id.rawValue)
        #expect(entry.author == nil && entry.summary == nil && entry.content == nil)
    }
}
