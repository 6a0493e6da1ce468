import Foundation

/// An article's HTML as structured text that a plain-text view (a terminal) can lay out:
/// headings, paragraphs, nested lists, quotes, code, pictures, tables degraded to rows, and
/// links numbered in reading order with their addresses listed.
///
/// Made by ``parse(html:base:)`` from whatever HTML a feed carries: libxml2's HTML parser
/// reads it the forgiving way browsers do; scripts, styles, forms and embedded frames are
/// dropped; entities are decoded; every text passes through the feed text rule, so nothing
/// in it acts on a terminal.
public struct ArticleDocument: Sendable, Equatable {
    /// A run of text with one style, maybe part of a link.
    public struct Span: Sendable, Equatable {
        public var text: String
        public var style: Style
        /// The 1-based number of the link this text belongs to (see ``links``).
        public var link: Int?

        /// A span.
        public init(text: String, style: Style = .plain, link: Int? = nil) {
            self.text = text
            self.style = style
            self.link = link
        }
    }

    /// How a span is set.
    public enum Style: Sendable, Equatable {
        case plain, strong, emphasis, code
    }

    /// One block of the article, in reading order.
    public enum Block: Sendable, Equatable {
        /// `h1`–`h6`.
        case heading(level: Int, [Span])
        /// A paragraph, or the text of any other block; `quoteDepth` is how many quotes hold it.
        case paragraph([Span], quoteDepth: Int)
        /// A list item: `depth` 1 for a top-level list, `marker` "•" or "3.".
        case listItem(depth: Int, marker: String, [Span])
        /// Preformatted text, lines kept.
        case code(String)
        /// A picture.
        case image(URL, alt: String)
        /// A table row, cells as plain text.
        case tableRow([String], isHeader: Bool)
        /// A thematic break.
        case rule
    }

    /// The blocks, in reading order.
    public var blocks: [Block]
    /// Every link, numbered from 1 in the order they first appear.
    public var links: [URL]

    /// A document.
    public init(blocks: [Block] = [], links: [URL] = []) {
        self.blocks = blocks
        self.links = links
    }

    /// The article in `html`, with relative links and pictures resolved against `base`.
    /// - Complexity: O(n) in the HTML's size.
    public static func parse(html: String, base: URL?) -> ArticleDocument {
        let builder = ArticleBuilder(base: base)
        HTMLSAXParser.parse(html, into: builder)
        return builder.finish()
    }
}
