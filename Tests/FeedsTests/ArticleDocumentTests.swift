import Feeds
import Foundation
import Testing

@Suite struct ArticleDocumentTests {
    private let base = URL(string: "https://blog.example/posts/1")

    private func text(_ spans: [ArticleDocument.Span]) -> String { spans.map(\.text).joined() }

    @Test func headingsParagraphsAndNumberedLinks() {
        let document = ArticleDocument.parse(html: """
            <h2>Title &amp; more</h2><p>Read <a href="/a">this</a> and <a href="https://x.example/">that</a>,
            then <a href="/a">this again</a>.</p><p>Second&nbsp;paragraph <b>bold</b> <em>em</em> <code>x()</code></p>
            """, base: base)
        #expect(document.links == [URL(string: "https://blog.example/a")!, URL(string: "https://x.example/")!])
        guard document.blocks.count == 3, case .heading(2, let title) = document.blocks[0],
              case .paragraph(let first, 0) = document.blocks[1], case .paragraph(let second, 0) = document.blocks[2] else {
            Issue.record("unexpected blocks: \(document.blocks)")
            return
        }
        #expect(text(title) == "Title & more")
        #expect(text(first) == "Read this and that, then this again.")
        #expect(first.filter { $0.link == 1 }.map(\.text) == ["this", "this again"])
        #expect(second.map(\.style) == [.plain, .strong, .plain, .emphasis, .plain, .code])
        #expect(text(second) == "Second paragraph bold em x()", "a no-break space reads as a space")
    }

    @Test func nestedListsQuotesAndCode() {
        let document = ArticleDocument.parse(html: """
            <ul><li>One<ol start="3"><li>Three</li><li>Four</li></ol></li><li>Two</li></ul>
            <blockquote><p>Quoted</p><blockquote>Deeper</blockquote></blockquote>
            <pre>let x = 1
              indented &lt;kept&gt;</pre>
            """, base: base)
        let summary = document.blocks.map { block -> String in
            switch block {
            case let .listItem(depth, marker, spans): "li\(depth) \(marker) \(text(spans))"
            case let .paragraph(spans, depth): "p\(depth) \(text(spans))"
            case .code(let code): "code \(code)"
            default: "\(block)"
            }
        }
        #expect(summary == ["li1 • One", "li2 3. Three", "li2 4. Four", "li1 • Two", "p1 Quoted", "p2 Deeper",
                            "code let x = 1\n  indented <kept>"])
    }

    @Test func scriptsStylesAndFormsAreDroppedAndTablesBecomeRows() {
        let document = ArticleDocument.parse(html: """
            <style>p { color: red }</style><script>alert("x")</script><p>Visible</p>
            <table><tr><th>Name</th><th>Size</th></tr><tr><td>a <b>b</b></td><td>2</td></tr></table>
            <form><input value="secret"><button>Go</button></form><img src="pic.jpg" alt="A lake">
            """, base: base)
        #expect(document.blocks == [
            .paragraph([.init(text: "Visible")], quoteDepth: 0),
            .tableRow(["Name", "Size"], isHeader: true),
            .tableRow(["a b", "2"], isHeader: false),
            .image(URL(string: "https://blog.example/posts/pic.jpg")!, alt: "A lake"),
        ])
    }

    @Test func brokenMarkupIsReadAsABrowserWouldAndHostileTextIsClean() {
        let document = ArticleDocument.parse(html: "<p>Unclosed <b>bold<p>Next &#x1B;]0;x&#7; para<div>tail", base: nil)
        let texts = document.blocks.compactMap { block -> String? in
            if case .paragraph(let spans, _) = block { return text(spans) } else { return nil }
        }
        #expect(texts == ["Unclosed bold", "Next ]0;x para", "tail"])
        #expect(ArticleDocument.parse(html: "", base: nil).blocks.isEmpty)
    }
}
