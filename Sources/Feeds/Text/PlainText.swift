/// Turns HTML (or text that may contain some) into plain text for titles.
enum PlainText {
    /// `html` without tags and comments, character references decoded, runs of whitespace
    /// (no-break spaces included) collapsed to one space, and trimmed.
    ///
    /// A `<` that does not start a tag (`a < b`) is kept as text.
    /// - Complexity: O(n).
    static func from(html: String) -> String {
        guard html.utf8.contains(UInt8(ascii: "<")) else { return collapsingWhitespace(HTMLEntities.decode(html)) }
        var text = String.UnicodeScalarView()
        var scalars = html.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "<", let next = scalars.first, next.properties.isAlphabetic || "/!?".unicodeScalars.contains(next) {
                let closing: String = scalars.starts(with: "!--".unicodeScalars) ? "-->" : ">"
                if let range = scalars.firstRange(of: closing.unicodeScalars) {
                    scalars = scalars[range.upperBound...]
                    // Tags separate words: "<p>one</p><p>two</p>" reads "one two".
                    text.append(" ")
                    continue
                }
            }
            text.append(scalar)
        }
        return collapsingWhitespace(HTMLEntities.decode(String(text)))
    }

    /// `text` with runs of whitespace collapsed to one space, and trimmed.
    static func collapsingWhitespace(_ text: String) -> String {
        if isCollapsed(text) { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.isFeedWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(0x20) }
            pendingSpace = false
            if scalar.isASCII {
                out.append(UInt8(scalar.value))
            } else if let encoded = UTF8.encode(scalar) {
                out.append(contentsOf: encoded)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` has no whitespace but single spaces between words, so collapsing would
    /// change nothing; most titles are like that, and checking is cheaper than rebuilding.
    private static func isCollapsed(_ text: String) -> Bool {
        var previousWasSpace = true
        for byte in text.utf8 {
            switch byte {
            case 0x20:
                if previousWasSpace { return false }
                previousWasSpace = true
            case 0x09...0x0D:
                return false
            case 0xC2, 0xE1, 0xE2, 0xE3:
                // Lead bytes of the non-ASCII spaces (U+00A0, U+1680, U+2000–U+205F, U+3000):
                // rare enough to leave to the full check.
                return false
            default:
                previousWasSpace = false
            }
        }
        return !previousWasSpace || text.isEmpty
    }

    /// `text` escaped for inclusion in HTML, so plain-text content can be kept as HTML.
    static func escapedForHTML(_ text: String) -> String {
        escapedMarkup(text, escapingNewlines: false)
    }

    /// `text` with `&`, `<`, `>` and `"` escaped for XML or HTML text and attribute values;
    /// newlines too if asked (`&#10;`), so an attribute value keeps them through parsing.
    static func escapedMarkup(_ text: String, escapingNewlines: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n" where escapingNewlines: out += "&#10;"
            default: out.append(character)
            }
        }
        return out
    }
}
