import Foundation

/// Turns HTML events into ``ArticleDocument`` blocks: inline text gathers into spans until a
/// block boundary, lists and quotes nest, `pre` keeps its lines, tables become rows.
final class ArticleBuilder: HTMLEventHandling {
    private let base: URL?
    private var blocks: [ArticleDocument.Block] = []
    private var links: [URL] = []
    private var linkNumbers: [URL: Int] = [:]

    private var spans: [ArticleDocument.Span] = []
    /// Elements whose text is dropped (script, style…), counted while open.
    private var dropping = 0
    private var strong = 0, emphasis = 0, code = 0
    private var linkStack: [Int?] = []
    private var headingLevel: Int?
    private var quoteDepth = 0
    /// Open lists: whether ordered, and the next number.
    private var lists: [(ordered: Bool, next: Int)] = []
    /// The marker of the list item whose text is being gathered.
    private var pendingMarker: String?
    private var preformatted: String?
    private var row: [String]?
    private var rowIsHeader = false
    private var cell: [ArticleDocument.Span]?

    private static let dropped: Set<String> = ["script", "style", "noscript", "iframe", "object", "embed", "svg", "form",
                                               "button", "select", "textarea", "head", "template", "canvas", "audio", "video"]
    private static let blockElements: Set<String> = ["p", "div", "section", "article", "header", "footer", "aside", "main",
                                                     "nav", "figure", "figcaption", "dl", "dt", "dd", "address", "center"]

    init(base: URL?) {
        self.base = base
    }

    func finish() -> ArticleDocument {
        flush()
        return ArticleDocument(blocks: blocks, links: links)
    }

    func startElement(_ name: String, attributes: [String: String]) {
        if Self.dropped.contains(name) {
            dropping += 1
            return
        }
        guard dropping == 0 else { return }
        if preformatted != nil {
            if name == "br" { preformatted! += "\n" }
            return
        }
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6":
            flush()
            headingLevel = Int(name.dropFirst()) ?? 1
        case "br":
            if cell == nil { flush() } else { appendText(" ") }
        case "hr":
            flush()
            blocks.append(.rule)
        case "pre":
            flush()
            preformatted = ""
        case "blockquote":
            flush()
            quoteDepth += 1
        case "ul", "ol":
            flush()
            let start = attributes["start"].flatMap { Int($0) } ?? 1
            lists.append((name == "ol", start))
        case "li":
            flush()
            if lists.isEmpty { lists.append((false, 1)) }
            let list = lists[lists.count - 1]
            pendingMarker = list.ordered ? "\(list.next)." : "•"
            lists[lists.count - 1].next += 1
        case "tr":
            flush()
            row = []
            rowIsHeader = false
        case "td", "th":
            if row == nil { row = [] }
            if name == "th" { rowIsHeader = true }
            cell = []
        case "img":
            guard let source = attributes["src"], let url = URLResolver.resolve(source, against: base) else { return }
            flush()
            blocks.append(.image(url, alt: FeedText.line(PlainText.collapsingWhitespace(attributes["alt"] ?? ""))))
        case "a":
            linkStack.append(attributes["href"].flatMap { URLResolver.resolve($0, against: base) }.map(number))
        case "b", "strong": strong += 1
        case "i", "em", "cite": emphasis += 1
        case "code", "kbd", "samp", "tt": code += 1
        case _ where Self.blockElements.contains(name):
            flush()
        default:
            break
        }
    }

    func endElement(_ name: String) {
        if Self.dropped.contains(name) {
            dropping = max(0, dropping - 1)
            return
        }
        guard dropping == 0 else { return }
        if name == "pre", let text = preformatted {
            preformatted = nil
            let trimmed = FeedText.text(text).trimmingCharacters(in: .newlines)
            if !trimmed.isEmpty { blocks.append(.code(trimmed)) }
            return
        }
        guard preformatted == nil else { return }
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6":
            flush()
            headingLevel = nil
        case "blockquote":
            flush()
            quoteDepth = max(0, quoteDepth - 1)
        case "ul", "ol":
            flush()
            if !lists.isEmpty { lists.removeLast() }
        case "li":
            flush()
        case "td", "th":
            if let cell {
                row?.append(Self.plain(cell))
                self.cell = nil
            }
        case "tr":
            endRow()
        case "table":
            endRow()
            flush()
        case "a": if !linkStack.isEmpty { linkStack.removeLast() }
        case "b", "strong": strong = max(0, strong - 1)
        case "i", "em", "cite": emphasis = max(0, emphasis - 1)
        case "code", "kbd", "samp", "tt": code = max(0, code - 1)
        case _ where Self.blockElements.contains(name):
            flush()
        default:
            break
        }
    }

    func characters(_ text: String) {
        guard dropping == 0 else { return }
        if preformatted != nil {
            preformatted! += text
            return
        }
        appendText(text)
    }

    // MARK: Building

    private func number(_ url: URL) -> Int {
        if let existing = linkNumbers[url] { return existing }
        links.append(url)
        linkNumbers[url] = links.count
        return links.count
    }

    private func appendText(_ text: String) {
        let style: ArticleDocument.Style = code > 0 ? .code : strong > 0 ? .strong : emphasis > 0 ? .emphasis : .plain
        let link = linkStack.last(where: { $0 != nil }) ?? nil
        let text = FeedText.text(text)
        if cell != nil {
            cell!.append(ArticleDocument.Span(text: text, style: style, link: link))
            return
        }
        if let last = spans.last, last.style == style, last.link == link {
            spans[spans.count - 1].text += text
        } else {
            spans.append(ArticleDocument.Span(text: text, style: style, link: link))
        }
    }

    /// Ends the text being gathered as a block of its kind.
    private func flush() {
        let spans = Self.collapsed(self.spans)
        self.spans = []
        guard !spans.isEmpty else { return }
        if let headingLevel {
            blocks.append(.heading(level: headingLevel, spans))
        } else if let marker = pendingMarker {
            blocks.append(.listItem(depth: lists.count, marker: marker, spans))
            pendingMarker = nil
        } else {
            blocks.append(.paragraph(spans, quoteDepth: quoteDepth))
        }
    }

    private func endRow() {
        guard let row else { return }
        self.row = nil
        if row.contains(where: { !$0.isEmpty }) { blocks.append(.tableRow(row, isHeader: rowIsHeader)) }
    }

    /// Spans with runs of whitespace collapsed across their boundaries, trimmed at both ends,
    /// empty ones removed.
    private static func collapsed(_ spans: [ArticleDocument.Span]) -> [ArticleDocument.Span] {
        var result: [ArticleDocument.Span] = []
        var afterSpace = true
        for span in spans {
            var text = ""
            for character in span.text {
                if character.isWhitespace {
                    if !afterSpace { text.append(" ") }
                    afterSpace = true
                } else {
                    text.append(character)
                    afterSpace = false
                }
            }
            if !text.isEmpty { result.append(ArticleDocument.Span(text: text, style: span.style, link: span.link)) }
        }
        if let last = result.last, last.text.hasSuffix(" ") {
            result[result.count - 1].text.removeLast()
            if result[result.count - 1].text.isEmpty { result.removeLast() }
        }
        return result
    }

    private static func plain(_ spans: [ArticleDocument.Span]) -> String {
        collapsed(spans).map(\.text).joined()
    }
}
