/// Fits text into columns: truncation with an ellipsis and word wrapping, both measured with
/// ``DisplayWidth`` and both cutting only between grapheme clusters.
///
/// Both make their input safe first (``TerminalSanitizer`` with ``TerminalSanitizer/LineBreaks/shown``
/// for a single row), so the widths they measure are the widths that will be drawn.
public enum TextLayout {
    /// `text` fitted into `width` columns: unchanged if it fits, else cut between clusters and
    /// ended with `ellipsis`.
    ///
    /// The result never exceeds `width` columns. When even the ellipsis does not fit, as much
    /// of the text as fits is returned without one. Control characters are shown in caret
    /// notation before measuring, so `"a\tb"` is measured as `a^Ib`.
    /// - Complexity: O(n) in the length of `text`.
    public static func truncated(_ text: String, toWidth width: Int, ellipsis: String = "…") -> String {
        let text = TerminalSanitizer.sanitized(text, lineBreaks: .shown)
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        let ellipsis = TerminalSanitizer.sanitized(ellipsis, lineBreaks: .shown)
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        let room = ellipsisWidth <= width ? width - ellipsisWidth : width
        var kept = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if used + characterWidth > room { break }
            kept.append(character)
            used += characterWidth
        }
        return ellipsisWidth <= width ? kept + ellipsis : kept
    }

    /// `text` broken into lines of at most `width` columns.
    ///
    /// Line feeds in `text` end lines. Lines break after runs of spaces (which are dropped at
    /// the break), and before and after East Asian wide characters, so CJK text breaks between
    /// characters; closing punctuation such as `。` or `」` stays on the line before it. A word
    /// wider than `width` is cut between clusters. No cluster is ever split, and every line
    /// fits in `width` columns, except a lone cluster wider than `width` itself.
    /// - Precondition: `width > 0`.
    /// - Complexity: O(n) in the length of `text`.
    public static func wrapped(_ text: String, toWidth width: Int) -> [String] {
        precondition(width > 0, "wrapping needs a positive width")
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
            wrapParagraph(TerminalSanitizer.sanitized(String(paragraph), lineBreaks: .shown), width: width)
        }
    }

    private static func wrapParagraph(_ paragraph: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var spaces = ""
        var spacesWidth = 0
        for token in tokens(of: paragraph) {
            if token.isSpace {
                if !line.isEmpty {
                    spaces += token.text
                    spacesWidth += token.width
                }
                continue
            }
            if lineWidth + spacesWidth + token.width <= width {
                line += spaces + token.text
                lineWidth += spacesWidth + token.width
            } else if token.width <= width {
                if !line.isEmpty { lines.append(line) }
                line = token.text
                lineWidth = token.width
            } else {
                // A word wider than a whole line: fill the current line, then cut it.
                var room = line.isEmpty ? width : width - lineWidth - spacesWidth
                if room > 0 && !line.isEmpty { line += spaces }
                for character in token.text {
                    let characterWidth = DisplayWidth.of(character)
                    if characterWidth > room && !(line.isEmpty && characterWidth > width) {
                        lines.append(line)
                        line = ""
                        lineWidth = 0
                        room = width
                    }
                    line.append(character)
                    lineWidth += characterWidth
                    room -= characterWidth
                }
            }
            spaces = ""
            spacesWidth = 0
        }
        lines.append(line)
        return lines
    }

    /// A piece of a paragraph that stays on one line: a word, one wide character with the
    /// punctuation that must follow it, or a run of spaces.
    private struct Token {
        enum Kind { case word, wide, space }
        var kind: Kind
        var text = ""
        var width = 0
        var isSpace: Bool { kind == .space }
    }

    private static func tokens(of paragraph: String) -> [Token] {
        var tokens: [Token] = []
        var current: Token?
        for character in paragraph {
            let characterWidth = DisplayWidth.of(character)
            let kind: Token.Kind = character == " " ? .space : characterWidth == 2 ? .wide : .word
            let joins: Bool
            switch (current?.kind, kind) {
            case (nil, _): joins = false
            case (.space, .space), (.word, .word): joins = true
            case (.word, _), (.wide, _): joins = kind != .space && closesLine(character)
            case (.space, _): joins = false
            }
            if !joins {
                if let current { tokens.append(current) }
                current = Token(kind: kind)
            }
            current!.text.append(character)
            current!.width += characterWidth
        }
        if let current { tokens.append(current) }
        return tokens
    }

    /// Punctuation that must not start a line (a short list of the kinsoku rules of Japanese
    /// and Chinese typesetting).
    private static func closesLine(_ character: Character) -> Bool {
        "、。，．・：；？！）」』】〕〉》｝〙〗ー々ゝゞヽヾ,.;:!?)]}".contains(character)
    }
}
