/// Turns HTML (or text that may contain some) into plain text for titles.
enum PlainText {
    /// `html` without tags and comments, character references decoded, runs of whitespace
    /// (no-break spaces included) collapsed to one space, and trimmed.
    ///
    /// A `<` that does not start a tag (`a < b`) is kept as text.
    /// - Complexity: O(n).
    static func from(html: String) -> String {
        guard html.utf8.contains(UInt8(ascii: "<")) else { return collapsingWhitespace(HTMLEntities.decode(html)) }
        let stripped = html.utf8.withContiguousStorageIfAvailable(withoutTags) ?? Array(html.utf8).withUnsafeBufferPointer(withoutTags)
        return collapsingWhitespace(HTMLEntities.decode(stripped))
    }

    /// The text of `bytes` with every tag and comment replaced by a space, read on the bytes:
    /// excerpts run this over kilobytes of markup per entry.
    private static func withoutTags(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), index + 1 < count, startsTag(bytes, at: index + 1) {
                let isComment = index + 3 < count && bytes[index + 1] == UInt8(ascii: "!")
                    && bytes[index + 2] == UInt8(ascii: "-") && bytes[index + 3] == UInt8(ascii: "-")
                // Searched from just after `<`, so `<!-->` is a whole (empty) comment, as in HTML.
                if let end = find(isComment ? Array("-->".utf8) : [UInt8(ascii: ">")], in: bytes, from: index + 1) {
                    // Tags separate words: "<p>one</p><p>two</p>" reads "one two".
                    out.append(0x20)
                    index = end
                    continue
                }
            }
            out.append(byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the character at `index` starts a tag after `<`: a letter, `/`, `!` or `?`.
    private static func startsTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let byte = bytes[index]
        if byte < 0x80 {
            return (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
        }
        let rest = UnsafeBufferPointer(rebasing: bytes[index..<min(index + 4, bytes.count)])
        return String(decoding: rest, as: UTF8.self).unicodeScalars.first?.properties.isAlphabetic ?? false
    }

    /// The index just past the first `needle` in `bytes` from `start`, or `nil`.
    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && (needle.count == 1 || Array(bytes[index..<index + needle.count]) == needle) {
                return index + needle.count
            }
            index += 1
        }
        return nil
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
