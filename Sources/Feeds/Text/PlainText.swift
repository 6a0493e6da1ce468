import Foundation

/// Turns HTML (or text that may contain some) into plain text for titles.
package enum PlainText {
    /// `html` without tags and comments, character references decoded, runs of whitespace
    /// (no-break spaces included) collapsed to one space, and trimmed.
    ///
    /// A `<` that does not start a tag (`a < b`) is kept as text.
    /// - Complexity: O(n).
    package static func from(html: String) -> String {
        guard html.containsUTF8(UInt8(ascii: "<")) else { return collapsingWhitespace(HTMLEntities.decode(html)) }
        let stripped = html.utf8.withContiguousStorageIfAvailable(withoutTags) ?? Array(html.utf8).withUnsafeBufferPointer(withoutTags)
        return collapsingWhitespace(HTMLEntities.decode(stripped))
    }

    /// The start of ``from(html:)``, made from as little of `html` as gives more than
    /// `characters` characters: either all of `from(html:)`, or a text longer than `characters`
    /// whose characters are the first of `from(html:)`'s.
    ///
    /// An excerpt shows 240 characters of up to 8 KB of markup, and made the text of all of it.
    /// The markup is read until its text holds enough bytes (a byte and a half a character),
    /// to just after a space of its text (outside any tag), where no character reference or
    /// UTF-8 sequence is cut and the text read, less its last character (which a prepended mark
    /// joins to the space after it), is a prefix of the whole's; then four times as far, until
    /// the text is long enough or the markup ends.
    /// - Complexity: O(k) for the k bytes of markup it reads.
    package static func from(html: String, atLeast characters: Int) -> String {
        var html = html
        let hasTags = html.containsUTF8(UInt8(ascii: "<"))
        return html.withUTF8 { bytes in
            // A byte and a half of text (markup not counted) a character, as a start: text in a
            // Latin script is done in one reading, other scripts or many spaces in two.
            let characters = min(max(characters, 0), 1 << 40)
            var budget = max(64, characters + characters / 2)
            while true {
                let (raw, read) = hasTags ? withoutTags(bytes, stoppingAfter: budget) : untilSpace(bytes, after: budget)
                var text = collapsingWhitespace(HTMLEntities.decode(raw))
                if read == bytes.count { return text }
                // The last character may join the space after it in the whole text (a prepended
                // mark such as U+0600 does), so it is not taken; every one before it is the whole's.
                if !text.isEmpty { text.removeLast() }
                if text.characterCount(exceeds: characters) { return text }
                budget = budget > Int.max / 4 ? Int.max : budget * 4
            }
        }
    }

    /// The bytes of `bytes` up to and with the first ASCII space at or after `limit` (all of them
    /// when there is none), as a string, and how many they are.
    private static func untilSpace(_ bytes: UnsafeBufferPointer<UInt8>, after limit: Int) -> (String, Int) {
        var end = min(limit, bytes.count)
        while end < bytes.count, !bytes[end].isASCIISpace { end += 1 }
        end = min(end + 1, bytes.count)
        return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self), end)
    }

    /// The text of `bytes` with every tag and comment replaced by a space, read on the bytes:
    /// excerpts run this over kilobytes of markup per entry.
    private static func withoutTags(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        withoutTags(bytes, stoppingAfter: .max).text
    }

    /// ``withoutTags(_:)`` of `bytes`, stopped at the first ASCII space of the text written at
    /// or after `limit` bytes of it (the space kept), and how many bytes of `bytes` it read.
    private static func withoutTags(_ bytes: UnsafeBufferPointer<UInt8>, stoppingAfter limit: Int) -> (text: String, read: Int) {
        var read = bytes.count
        // Written in place into the new string, never longer: a tag (three bytes at least)
        // becomes one space or nothing.
        let text = String(unsafeUninitializedCapacity: bytes.count) { out in
            var written = 0
            var index = 0
            let count = bytes.count
            while index < count {
                if written < limit {
                    // The text up to the next `<`, short of the limit, copied at once.
                    let start = bytes.baseAddress! + index
                    let span = Swift.min(count - index, limit - written)
                    var run = span
                    if let tag = memchr(start, Int32(UInt8(ascii: "<")), span) {
                        run = UnsafeRawPointer(tag) - UnsafeRawPointer(start)
                    }
                    if run > 0 {
                        (out.baseAddress! + written).update(from: start, count: run)
                        written += run
                        index += run
                        continue
                    }
                } else if written > 0, out[written - 1].isASCIISpace {
                    read = index
                    break
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: "<"), index + 1 < count, startsTag(bytes, at: index + 1) {
                    let isComment = index + 3 < count && bytes[index + 1] == UInt8(ascii: "!")
                        && bytes[index + 2] == UInt8(ascii: "-") && bytes[index + 3] == UInt8(ascii: "-")
                    // Searched from just after `<`, so `<!-->` is a whole (empty) comment, as in HTML.
                    if let end = isComment ? findCommentEnd(in: bytes, from: index + 1) : find(UInt8(ascii: ">"), in: bytes, from: index + 1) {
                        // Block tags separate words: "<p>one</p><p>two</p>" reads "one two". Inline
                        // ones do not: "ft<sup>2</sup>" is "ft2", "₹<b>4,000</b>" is "₹4,000".
                        if isComment || !isInline(bytes, tagAt: index + 1) {
                            out[written] = 0x20
                            written += 1
                        }
                        index = end
                        continue
                    }
                }
                out[written] = byte
                written += 1
                index += 1
            }
            return written
        }
        return (text, read)
    }

    /// The name of the tag whose text starts at `index` (after `<`, past a `/`), as a
    /// ``tagKey(_:)``: its letters and digits up to the first other character, case folded.
    /// Made on every tag of every excerpt, so it allocates nothing.
    private static func tagName(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        var position = index
        if position < bytes.count, bytes[position] == UInt8(ascii: "/") { position += 1 }
        var key: UInt64 = 0
        var length = 0
        while position < bytes.count {
            guard let code = nameCode(bytes[position]) else { break }
            // No element's name is longer: a longer one matches none.
            guard length < maxNameLength else { return .max }
            key = key << 6 | code
            length += 1
            position += 1
        }
        return key
    }

    /// The longest name ``tagKey(_:)`` packs: 10 characters of 6 bits.
    private static let maxNameLength = 10

    /// 1–26 for a letter of either case, 27–36 for a digit, nil for anything else: never 0, so
    /// names of different lengths never pack alike.
    private static func nameCode(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt64(byte - UInt8(ascii: "a") + 1)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt64(byte - UInt8(ascii: "A") + 1)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0") + 27)
        default: nil
        }
    }

    /// An element's name packed as ``tagName(_:at:)`` packs it.
    private static func tagKey(_ name: StaticString) -> UInt64 {
        let bytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        precondition(bytes.count <= maxNameLength, "an element's name fits a tag key")
        return bytes.reduce(0) { $0 << 6 | (nameCode($1) ?? 0) }
    }

    private static func isInline(_ bytes: UnsafeBufferPointer<UInt8>, tagAt index: Int) -> Bool {
        inlineElements.contains(tagName(bytes, at: index))
    }

    /// HTML's phrasing elements, which sit inside a word as easily as between words.
    private static let inlineElements: Set<UInt64> = Set(([
        "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd",
        "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
    ] as [StaticString]).map(tagKey))

    /// HTML's elements, inline and block, for telling markup from text that only looks like it.
    private static let htmlElements: Set<UInt64> = inlineElements.union(([
        "address", "article", "aside", "blockquote", "br", "caption", "center", "dd", "div", "dl", "dt", "figcaption",
        "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "img", "li", "main", "nav", "ol", "p",
        "pre", "section", "table", "tbody", "td", "th", "thead", "tr", "ul", "video", "audio", "iframe", "picture", "source",
    ] as [StaticString]).map(tagKey))

    /// Whether `text`, declared HTML, really holds some: an HTML element's tag or a character
    /// reference. A title such as "Nice <gorilla> what's he weigh?" escaped into an RSS title
    /// holds neither, and is the text it shows, as feedparser and browsers' readers take it.
    package static func looksLikeHTML(_ text: String) -> Bool {
        guard text.containsUTF8(UInt8(ascii: "<")) || text.containsUTF8(UInt8(ascii: "&")) else { return false }
        var text = text
        return text.withUTF8 { bytes in
            for index in bytes.indices where index + 1 < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "<") where startsTag(bytes, at: index + 1):
                    if bytes[index + 1] == UInt8(ascii: "!") || htmlElements.contains(tagName(bytes, at: index + 1)) { return true }
                case UInt8(ascii: "&"):
                    // `&name;`, `&#123;` or `&#x1F;`.
                    var end = index + 1
                    if bytes[end] == UInt8(ascii: "#") { end += 1 }
                    let start = end
                    while end < bytes.count, end - start < 32, bytes[end] < 0x80,
                          (bytes[end] | 0x20) >= UInt8(ascii: "a") && (bytes[end] | 0x20) <= UInt8(ascii: "z") || FeedDate.isDigit(bytes[end]) {
                        end += 1
                    }
                    if end > start, end < bytes.count, bytes[end] == UInt8(ascii: ";") { return true }
                default:
                    break
                }
            }
            return false
        }
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

    /// The index just past the first `byte` in `bytes` from `start`, or `nil`.
    private static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes[start...].firstIndex(of: byte).map { $0 + 1 }
    }

    /// The index just past the first `-->` in `bytes` from `start`, or `nil`.
    private static func findCommentEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while let end = find(UInt8(ascii: ">"), in: bytes, from: index) {
            if end - 3 >= start, bytes[end - 2] == UInt8(ascii: "-"), bytes[end - 3] == UInt8(ascii: "-") { return end }
            index = end
        }
        return nil
    }

    /// `text` with runs of whitespace collapsed to one space, and trimmed.
    ///
    /// Read on the UTF-8 bytes, copying the runs between spaces whole; only the lead bytes of
    /// the non-ASCII spaces (`C2`, `E1`, `E2`, `E3`) have their character decoded.
    /// - Complexity: O(n).
    package static func collapsingWhitespace(_ text: String) -> String {
        if isCollapsed(text) { return text }
        var text = text
        return text.withUTF8 { bytes in
            // Written in place into the new string, which is never longer: appending to an
            // array byte by byte (a uniqueness check and a capacity check each) was most of it.
            String(unsafeUninitializedCapacity: bytes.count) { out in
                var written = 0
                var pendingSpace = false
                var index = 0
                let count = bytes.count
                while index < count {
                    // A run of visible ASCII (and DEL), most of any text, is copied at once.
                    let plain = bytes.endOfASCIIWord(from: index)
                    if plain > index {
                        if pendingSpace {
                            out[written] = 0x20
                            written += 1
                            pendingSpace = false
                        }
                        let run = plain - index
                        (out.baseAddress! + written).update(from: bytes.baseAddress! + index, count: run)
                        written += run
                        index = plain
                        continue
                    }
                    let (length, isSpace) = Self.character(bytes, at: index)
                    if isSpace {
                        pendingSpace = written > 0
                    } else {
                        if pendingSpace {
                            out[written] = 0x20
                            written += 1
                        }
                        pendingSpace = false
                        // A control character or a non-ASCII one: runs of ASCII are copied above.
                        (out.baseAddress! + written).update(from: bytes.baseAddress! + index, count: length)
                        written += length
                    }
                    index += length
                }
                return written
            }
        }
    }

    /// The length of the UTF-8 sequence at `index` of valid UTF-8, and whether it is a space
    /// (``Swift/Unicode/Scalar/isFeedWhitespace``).
    private static func character(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (length: Int, isSpace: Bool) {
        let lead = bytes[index]
        if lead < 0x80 { return (1, lead.isASCIISpace) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard lead == 0xC2 || (0xE1...0xE3).contains(lead), index + length <= bytes.count else { return (length, false) }
        var scalar = UInt32(lead) & (length == 2 ? 0x1F : 0x0F)
        for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (length, Unicode.Scalar(scalar)?.isFeedWhitespace ?? false)
    }

    /// Whether `text` has no whitespace but single spaces between words, so collapsing would
    /// change nothing; most titles are like that, and checking is cheaper than rebuilding.
    private static func isCollapsed(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isCollapsed)
    }

    private static func isCollapsed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previousWasSpace = true
        for byte in bytes {
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
        return !previousWasSpace || bytes.isEmpty
    }

    /// `text` escaped for inclusion in HTML, so plain-text content can be kept as HTML.
    static func escapedForHTML(_ text: String) -> String {
        escapedMarkup(text, escapingNewlines: false)
    }

    /// `text` with `&`, `<`, `>` and `"` escaped for XML or HTML text and attribute values;
    /// newlines too if asked (`&#10;`), so an attribute value keeps them through parsing.
    /// Works on the UTF-8 bytes; text with nothing to escape is returned as it is, uncopied.
    static func escapedMarkup(_ text: String, escapingNewlines: Bool) -> String {
        var text = text
        return text.withUTF8 { bytes in
            func needsEscape(_ byte: UInt8) -> Bool {
                byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
                    || (escapingNewlines && byte == UInt8(ascii: "\n"))
            }
            guard let first = bytes.firstIndex(where: needsEscape) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 8 + 16)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
            for byte in bytes[first...] {
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "\n") where escapingNewlines: out.append(contentsOf: "&#10;".utf8)
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }
}

extension String {
    /// The index just after the string's first `count` characters, or `nil` when it has fewer.
    ///
    /// Found on the bytes where the first `count` and the one after them are ASCII but `\r`:
    /// each of those is a character of its own (only a non-ASCII scalar, or `\n` after `\r`,
    /// joins the one before it). Otherwise the characters are walked, only as far as `count`.
    /// - Complexity: O(`count`).
    package func index(afterCharacters count: Int) -> Index? {
        let bytes = utf8.count
        if bytes < count { return nil }
        var text = self
        let isPlainASCII = text.withUTF8 { $0.isASCIIWithoutCarriageReturn(prefix: count + 1) }
        if isPlainASCII { return utf8.index(startIndex, offsetBy: count) }
        return index(startIndex, offsetBy: count, limitedBy: endIndex)
    }

    /// Whether the string has more than `count` characters, counted only as far as that
    /// (``index(afterCharacters:)``).
    package func characterCount(exceeds count: Int) -> Bool {
        index(afterCharacters: count).map { $0 != endIndex } ?? false
    }
}
