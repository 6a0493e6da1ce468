import Feeds
import Foundation
import TerminalUI
import Thumbnails
import Testing
@testable import ScrollworkReader

@Suite struct ArticleScreenTests {
    private func text(_ line: ArticleScreen.Line) -> String { line.map(\.text).joined() }

    @Test func anArticleOpenedFromASearchMarksItsWordsAndKnowsItsFirstMatch() throws {
        var paragraphs = (0..<30).map { "<p>Paragraph \($0) says nothing much.</p>" }
        paragraphs[20] = "<p>The <b>write-ahead</b> log keeps pages; the WAL is a log.</p>"
        let highlight = SearchHighlight(SearchQuery(parsing: "\"write ahead\" wal"))
        let screen = ArticleScreen(entry: entry(paragraphs.joined()), document: ArticleScreen.document(of: entry(paragraphs.joined())),
                                   feedTitle: "Site", width: 80, highlight: highlight)
        let first = try #require(screen.firstMatchLine)
        #expect(text(screen.lines[first]).contains("write-ahead"))
        let marked = screen.lines[first].filter { $0.style.attributes.contains(.reverse) }.map(\.text)
        #expect(marked == ["write-ahead", "WAL"])
        // The bold of the markup stays under the mark; the text is unchanged.
        #expect(screen.lines[first].first { $0.text == "write-ahead" }?.style.attributes.contains(.bold) == true)
        let plain = ArticleScreen(entry: entry(paragraphs.joined()), feedTitle: "Site", width: 80)
        #expect(screen.lines.map(text) == plain.lines.map(text))
        #expect(plain.firstMatchLine == nil)
    }

    @Test func laysOutAnArticleWithNumberedLinksListedAtTheEnd() {
        let entry = StoredEntry(
            id: 1, feedID: 1,
            entry: FeedEntry(id: "a", title: "A title", link: URL(string: "https://blog.example/post"), author: "Ann",
                             published: Date(timeIntervalSince1970: 1_790_000_000),
                             content: """
                                <h2>Part one</h2><p>Some words that will need wrapping at a narrow width, with <a href="/more">a link</a>.</p>
                                <ul><li>First point</li><li>Second</li></ul><blockquote>Quoted text</blockquote><pre>code()</pre>
                                """),
            isRead: false, isStarred: false, firstSeen: Date(timeIntervalSince1970: 0))
        let screen = ArticleScreen(entry: entry, feedTitle: "Blog", width: 34)
        let lines = screen.lines.map(text)
        #expect(lines[0] == "A title")
        #expect(lines[1] == "Ann · 2026-09-21")
        #expect(lines.contains("Part one"))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 30 }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("a link[1].") })
        #expect(lines.contains("• First point") && lines.contains("• Second"))
        #expect(lines.contains("│ Quoted text"))
        #expect(lines.contains("  code()"))
        #expect(lines.suffix(2) == ["Links", "[1] https://blog.example/more"])

        var buffer = CellBuffer(columns: 34, rows: 8)
        screen.draw(scroll: 0, status: "q back", in: buffer.layout, into: &buffer)
        #expect(buffer[1, 2].grapheme == "A")
        // The title bar names the feed; the title is said once, on the first line of the text.
        let shown = (0..<buffer.rows).map { buffer.text(ofRow: $0) }
        #expect(shown[0].hasPrefix(" Blog"), "\(shown)")
        #expect(shown.filter { $0.contains("A title") }.count == 1, "\(shown)")
        #expect(screen.maxScroll(height: 6) == lines.count - 6)
    }

    private func entry(_ html: String, thumbnail: URL? = nil) -> StoredEntry {
        StoredEntry(id: 1, feedID: 1,
                    entry: FeedEntry(id: "a", title: "Real world", link: URL(string: "https://site.example/post"),
                                     content: html, thumbnail: thumbnail),
                    isRead: false, isStarred: false, firstSeen: Date(timeIntervalSince1970: 0))
    }

    @Test func realWorldMarkupDegradesSensibly() {
        let html = """
            <html><head><style>body { color: red }</style><script>alert("x")</script></head><body>
            <p>Caf&eacute; &amp; cr&egrave;me &mdash; &#8220;quoted&#8221;</p>
            <ul><li>Outer one<ul><li>Inner a</li><li>Inner b</li></ul></li><li>Outer two</li></ul>
            <ol><li>First</li><li>Second</li></ol>
            <table><tr><th>Name</th><th>Size</th></tr><tr><td>Alpha</td><td>3 MB</td></tr></table>
            <script type="text/javascript">document.write("<p>injected</p>")</script>
            <p>After<noscript>no script</noscript> the table.</p>
            </body></html>
            """
        let lines = ArticleScreen(entry: entry(html), feedTitle: "Site", width: 60).lines.map(text)
        let all = lines.joined(separator: "\n")
        #expect(lines.contains("Café & crème — “quoted”"), "\(all)")
        #expect(!all.contains("alert") && !all.contains("color: red") && !all.contains("injected"), "scripts and styles dropped: \(all)")
        let outer = lines.firstIndex { $0.hasSuffix("Outer one") }
        let inner = lines.firstIndex { $0.hasSuffix("Inner a") }
        #expect(outer != nil && inner != nil && inner! > outer!)
        if let outer, let inner {
            let indent = { (line: String) in line.prefix { $0 == " " }.count }
            #expect(indent(lines[inner]) > indent(lines[outer]), "a nested list is indented: \(lines[outer]) / \(lines[inner])")
        }
        #expect(lines.contains { $0.hasPrefix("1.") && $0.hasSuffix("First") })
        #expect(lines.contains("Name │ Size") && lines.contains("Alpha │ 3 MB"), "a table becomes rows of cells: \(all)")
    }

    @Test func imagesBecomePictureBoxesDrawnUnderTheHeaderAndStatus() {
        let html = #"<p>Before.</p><img src="/a.jpg" alt="A lake"><p>After.</p>"#
        let screen = ArticleScreen(entry: entry(html), feedTitle: "Site", width: 40)
        #expect(screen.figures.count == 1)
        guard let figure = screen.figures.first else { return }
        #expect(figure.url.absoluteString == "https://site.example/a.jpg")
        #expect(figure.columns == 36 && figure.rows == 12)
        let lines = screen.lines.map(text)
        #expect(lines[figure.line..<(figure.line + figure.rows)].allSatisfy { $0.isEmpty }, "the box's lines are left blank")
        #expect(lines[figure.line + figure.rows] == "A lake", "the alt text is the caption")
        #expect(lines[figure.line - 2] == "Before." && lines.contains("After."))

        // Loaded: a picture of one colour fills its box; scrolled half out, it stays under the header.
        let red = PixelBuffer(width: 72, height: 48, bytesPerRow: 72 * 4, bytes: Array(repeating: [UInt8]([255, 0, 0, 255]), count: 72 * 48).flatMap { $0 })
        let picture = HalfBlockPicture(red, fittingColumns: figure.columns, rows: figure.rows)
        var buffer = CellBuffer(columns: 40, rows: 10)
        screen.draw(scroll: figure.line + 4, status: "q back", pictures: { _ in .loaded(picture) }, in: buffer.layout, into: &buffer)
        #expect(buffer.text(ofRow: 0).hasPrefix(" Site"), "the title bar names the feed")
        #expect(buffer[1, 2].grapheme == "▀" || buffer[1, 2].style.background != .default, "the picture's fifth row on the first line")
        #expect(buffer.text(ofRow: 9).hasPrefix(" q back"))

        // An entry whose text has no image shows its thumbnail at the top.
        let plain = ArticleScreen(entry: entry("<p>Text only.</p>", thumbnail: URL(string: "https://site.example/t.jpg")), feedTitle: "", width: 40)
        #expect(plain.figures.map(\.url.absoluteString) == ["https://site.example/t.jpg"])
    }

    @Test func hostilyDeepQuotesAndListsLayOutAtAnyWidth() {
        let quotes = String(repeating: "<blockquote>", count: 200) + "<p>deep words here</p>" + String(repeating: "</blockquote>", count: 200)
        let lists = String(repeating: "<ul><li>", count: 200) + "deep item" + String(repeating: "</li></ul>", count: 200)
        for width in [1, 24, 80] {
            let lines = ArticleScreen(entry: entry(quotes + lists), feedTitle: "", width: width).lines.map(text)
            #expect(lines.contains { $0.hasSuffix("deep words here") || $0.hasSuffix("here") }, "width \(width)")
            #expect(lines.contains { $0.hasSuffix("deep item") || $0.hasSuffix("item") }, "width \(width)")
        }
    }

    @Test func picturesOfOtherSchemesThanHTTPAreNeverLoaded() {
        #expect(ThumbnailShelf.isRemote(URL(string: "https://example.com/a.jpg")!))
        #expect(ThumbnailShelf.isRemote(URL(string: "HTTP://example.com/a.jpg")!))
        for address in ["file:///home/u/.ssh/id_rsa", "file:///dev/tty", "ftp://example.com/a.jpg", "data:image/png;base64,AAAA"] {
            #expect(!ThumbnailShelf.isRemote(URL(string: address)!), "\(address)")
        }
    }
}

