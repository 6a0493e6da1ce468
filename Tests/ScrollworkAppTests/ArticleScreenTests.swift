import Feeds
import Foundation
import TerminalUI
import Testing
@testable import ScrollworkApp

@Suite struct ArticleScreenTests {
    private func text(_ line: ArticleScreen.Line) -> String { line.map(\.text).joined() }

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
        #expect(lines[1] == "Blog · Ann · 2026-09-21")
        #expect(lines.contains("Part one"))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 30 }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("a link[1].") })
        #expect(lines.contains("• First point") && lines.contains("• Second"))
        #expect(lines.contains("│ Quoted text"))
        #expect(lines.contains("  code()"))
        #expect(lines.suffix(2) == ["Links", "[1] https://blog.example/more"])

        var buffer = CellBuffer(columns: 34, rows: 8)
        screen.draw(scroll: 0, status: "q back", into: &buffer)
        #expect(buffer[1, 2].grapheme == "A")
        #expect(screen.maxScroll(height: 6) == lines.count - 6)
    }
}
