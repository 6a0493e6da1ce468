import Feeds
import Foundation
import TerminalUI

/// Draws an open article: its title and byline, the text laid out to the width (headings,
/// paragraphs, lists, quotes, code, pictures by name, table rows) with each link numbered,
/// and the numbered addresses at the end.
struct ArticleScreen {
    /// One laid-out line: runs of text with their styles.
    typealias Line = [(text: String, style: CellStyle)]

    private(set) var lines: [Line] = []
    /// A picture of the article: its image, the line its box starts on, and the box's size in
    /// cells. Its lines are left blank for it.
    struct Figure: Equatable {
        var url: URL
        var line: Int
        var columns: Int
        var rows: Int
    }

    /// The article's pictures, in order: the entry's images, or its thumbnail when the text has
    /// none.
    private(set) var figures: [Figure] = []
    /// The post shown and its parsed text, kept to lay it out again at another width.
    let entry: StoredEntry
    let document: ArticleDocument
    let feedTitle: String

    private static let body = CellStyle()
    private static let heading = CellStyle(foreground: .indexed(75), attributes: .bold)
    private static let quote = CellStyle(foreground: .indexed(248), attributes: .italic)
    private static let code = CellStyle(foreground: .indexed(180))
    private static let muted = CellStyle(foreground: .indexed(245))
    private static let link = CellStyle(foreground: .indexed(39), attributes: .underline)

    /// The parsed text of `entry`: HTML parsing is work for a background task, not for the
    /// frame loop.
    static func document(of entry: StoredEntry) -> ArticleDocument {
        ArticleDocument.parse(html: entry.entry.content ?? entry.entry.summary ?? "", base: entry.entry.link)
    }

    /// The article of `entry`, its text parsed here; see ``init(entry:document:feedTitle:width:showsPictures:)``.
    init(entry: StoredEntry, feedTitle: String, width: Int, showsPictures: Bool = true) {
        self.init(entry: entry, document: Self.document(of: entry), feedTitle: feedTitle, width: width, showsPictures: showsPictures)
    }

    /// The article of `entry` whose text `document` holds, laid out for `width` columns, with
    /// the words of `highlight` (the search it was opened from) marked.
    /// - Complexity: O(the document's text); no parsing.
    init(entry: StoredEntry, document: ArticleDocument, feedTitle: String, width: Int, showsPictures: Bool = true,
         highlight: SearchHighlight? = nil) {
        self.entry = entry
        self.document = document
        self.feedTitle = feedTitle
        self.highlight = highlight
        let width = max(20, width - 4)
        var lines: [Line] = []
        lines += Self.wrap([(entry.entry.title.isEmpty ? "(untitled)" : entry.entry.title, Self.heading)], width: width)
        let titleLines = lines.count
        let date = (entry.entry.published ?? entry.entry.updated).map { String(FeedDate.rfc3339($0).prefix(10)) }
        // The feed's name is in the title bar.
        let byline = [entry.entry.author, date].compactMap { $0 }.joined(separator: " · ")
        if !byline.isEmpty { lines += Self.wrap([(byline, Self.muted)], width: width) }
        lines.append([])
        let box = Self.figureBox(width: width)
        var figures: [Figure] = []
        func figure(_ url: URL) {
            figures.append(Figure(url: url, line: lines.count, columns: box.columns, rows: box.rows))
            lines += Array(repeating: [], count: box.rows)
        }
        let hasImages = document.blocks.contains { if case .image = $0 { true } else { false } }
        if showsPictures, !hasImages, let thumbnail = entry.entry.thumbnail {
            figure(thumbnail)
            lines.append([])
        }
        for block in document.blocks {
            switch block {
            case let .heading(_, spans):
                lines += Self.wrap(Self.runs(spans, base: Self.heading), width: width)
            case let .paragraph(spans, quoteDepth):
                // Hostile markup nests without end: past a third of the width, deeper quotes and
                // lists are drawn at the same depth.
                let prefix = String(repeating: "│ ", count: min(quoteDepth, width / 6))
                lines += Self.wrap(Self.runs(spans, base: quoteDepth > 0 ? Self.quote : Self.body), width: width - prefix.count)
                    .map { line in prefix.isEmpty ? line : [(prefix, Self.muted)] + line }
            case let .listItem(depth, marker, spans):
                let indent = String(repeating: "  ", count: min(max(0, depth - 1), width / 6))
                let head = indent + marker + " "
                let wrapped = Self.wrap(Self.runs(spans, base: Self.body), width: width - head.count)
                for (index, line) in wrapped.enumerated() {
                    lines.append([(index == 0 ? head : String(repeating: " ", count: head.count), Self.muted)] + line)
                }
                continue
            case .code(let text):
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append([("  " + TextLayout.truncated(String(line), toWidth: width - 2), Self.code)])
                }
            case let .image(url, alt):
                if showsPictures, figures.count < Self.maxFigures {
                    figure(url)
                    if !alt.isEmpty { lines += Self.wrap([(alt, Self.muted)], width: width) }
                } else {
                    lines.append([("[picture" + (alt.isEmpty ? "" : ": \(alt)") + "]", Self.muted)])
                }
            case let .tableRow(cells, isHeader):
                lines += Self.wrap([(cells.joined(separator: " │ "), isHeader ? Self.heading : Self.body)], width: width)
            case .rule:
                lines.append([(String(repeating: "─", count: min(width, 40)), Self.muted)])
            }
            lines.append([])
        }
        if !document.links.isEmpty {
            lines.append([("Links", Self.heading)])
            for (index, url) in document.links.enumerated() {
                lines += Self.wrap([("[\(index + 1)] ", Self.muted), (url.absoluteString, Self.link)], width: width)
            }
        }
        if let highlight {
            var first: Int?
            for index in lines.indices {
                let marked = Self.marking(lines[index], highlight, field: index < titleLines ? .title : nil)
                if marked.count != lines[index].count, first == nil { first = index }
                lines[index] = marked
            }
            firstMatchLine = first
        }
        self.lines = lines
        self.figures = figures
    }

    /// The words of the search the article was opened from, marked in its lines.
    let highlight: SearchHighlight?
    /// The first line with a marked word, if any: an article opened from a search opens there.
    private(set) var firstMatchLine: Int?

    /// `line` with the words of `highlight` in it drawn in ``PostListScreen/matchStyle`` over
    /// their own style; the same runs when nothing matches.
    static func marking(_ line: Line, _ highlight: SearchHighlight, field: SearchQuery.Term.Field?) -> Line {
        let text = line.map(\.text).joined()
        let matches = highlight.ranges(in: text, field: field).map { range in
            text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound)
                ..< text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.upperBound)
        }
        guard !matches.isEmpty else { return line }
        var marked: Line = []
        var offset = 0
        for run in line {
            let scalars = Array(run.text.unicodeScalars)
            let runRange = offset..<(offset + scalars.count)
            var cuts = [runRange.lowerBound, runRange.upperBound]
            for match in matches {
                if runRange.contains(match.lowerBound) { cuts.append(match.lowerBound) }
                if runRange.contains(match.upperBound) { cuts.append(match.upperBound) }
            }
            let bounds = Array(Set(cuts)).sorted()
            for (start, end) in zip(bounds, bounds.dropFirst()) where start < end {
                var piece = String.UnicodeScalarView()
                piece.append(contentsOf: scalars[(start - offset)..<(end - offset)])
                var style = run.style
                if matches.contains(where: { $0.contains(start) }) {
                    style = PostListScreen.matchStyle
                    style.attributes.formUnion(run.style.attributes)
                }
                marked.append((String(piece), style))
            }
            offset = runRange.upperBound
        }
        return marked
    }

    /// Pictures drawn at most; later images are named only.
    static let maxFigures = 12
    /// The column of a picture's box.
    static let figureColumn = 2

    /// A picture's box for text `width` columns wide: as wide as the text up to 64 columns, a
    /// third as tall (a 3:2 picture on cells twice as tall as wide), at most 16 rows.
    static func figureBox(width: Int) -> (columns: Int, rows: Int) {
        let columns = max(8, min(width, 64))
        return (columns, max(3, min(16, columns / 3)))
    }

    /// Draws the lines from `scroll` on into the body of `layout`, below the title bar (the
    /// feed's name: the article's own title is its first line) and above the status line, and
    /// the pictures whose boxes show, each as `pictures` says it is now.
    func draw(scroll: Int, status: String, pictures: (URL) -> PictureState = { _ in .loading },
              accent: TerminalColor = ReaderColors.defaults.accent, in layout: ScreenLayout, into buffer: inout CellBuffer) {
        buffer.fill(row: 0, column: 0, width: buffer.columns, height: buffer.rows, with: .blank)
        let body = layout.body
        for figure in figures where figure.line + figure.rows > scroll && figure.line < scroll + body.height {
            buffer.draw(pictures(figure.url), row: body.top + figure.line - scroll, column: Self.figureColumn, columns: figure.columns, rows: figure.rows)
        }
        // The header and the status line are drawn last: a picture half scrolled out stays
        // under them.
        buffer.drawTitleBar(barTitle, accent: accent, in: layout)
        for (offset, line) in lines.dropFirst(scroll).prefix(body.height).enumerated() {
            var column = 2
            for run in line {
                column = buffer.write(run.text, row: body.top + offset, column: column, style: run.style)
            }
        }
        buffer.drawStatusLine(status, in: layout)
    }

    /// What the title bar says: where the article comes from, as the list's heading says where
    /// its posts come from.
    var barTitle: String { feedTitle.isEmpty ? "Article" : feedTitle }

    /// The largest scroll that still fills the screen.
    func maxScroll(height: Int) -> Int { max(0, lines.count - height) }

    /// The spans as styled runs; link text is underlined and followed by its number.
    private static func runs(_ spans: [ArticleDocument.Span], base: CellStyle) -> Line {
        var runs: Line = []
        for (index, span) in spans.enumerated() {
            var style = base
            switch span.style {
            case .strong: style.attributes.insert(.bold)
            case .emphasis: style.attributes.insert(.italic)
            case .code: style = code
            case .plain: break
            }
            if let link = span.link {
                style.attributes.insert(.underline)
                runs.append((span.text, style))
                if index + 1 == spans.count || spans[index + 1].link != link { runs.append(("[\(link)]", muted)) }
            } else {
                runs.append((span.text, style))
            }
        }
        return runs
    }

    /// Runs broken into lines of at most `width` columns, at spaces; a word longer than a line
    /// is cut by the terminal layer's wrapper.
    static func wrap(_ runs: Line, width: Int) -> [Line] {
        var lines: [Line] = []
        var current: Line = []
        var used = 0
        for run in runs {
            // Words keep their trailing space, so joining them gives the text back.
            var words: [String] = []
            var word = ""
            for character in run.text {
                word.append(character)
                if character == " " {
                    words.append(word)
                    word = ""
                }
            }
            if !word.isEmpty { words.append(word) }
            for word in words {
                let size = DisplayWidth.of(word.trimmingCharacters(in: .whitespaces))
                if used + size > width, used > 0 {
                    lines.append(current)
                    current = []
                    used = 0
                }
                if size > width {
                    for piece in TextLayout.wrapped(word, toWidth: width) {
                        lines.append([(piece, run.style)])
                    }
                    continue
                }
                current.append((word, run.style))
                used += DisplayWidth.of(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
