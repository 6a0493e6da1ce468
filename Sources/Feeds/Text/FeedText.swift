/// The one rule for which characters of a feed's text Feeds lets through: every text field it
/// produces (titles, authors, categories, ids, summaries, contents, OPML titles, error
/// messages that quote a document or a server) passes through ``line(_:)`` or
/// ``text(_:)``, whatever the format it came from, so RSS, Atom, JSON Feed and OPML cannot
/// diverge.
///
/// Removed from every field, however they arrived (raw bytes in a legacy encoding, UTF-8, or a
/// character reference such as `&#x9B;` or `&#27;`):
/// - C0 controls other than tab and line feed (a carriage return becomes a line feed, or is
///   dropped before one), which include ESC, the start of every terminal command;
/// - DEL (U+007F) and the C1 controls (U+0080–U+009F), among them the 8-bit CSI (U+009B),
///   OSC (U+009D) and DCS (U+0090) that some terminals act on.
///
/// Removed from single-line fields only (``line(_:)``: titles, authors, categories, ids,
/// MIME types): the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069), which a title uses to make text read backwards or to spoof what follows
/// it. They are kept in summaries and contents (``text(_:)``), where right-to-left
/// paragraphs legitimately use them and the renderer scopes them to the paragraph. The
/// implicit marks (U+200E LRM, U+200F RLM, U+061C ALM) are kept everywhere: they cannot
/// reorder text, and mixed-direction titles need them to display correctly.
///
/// Removal, not replacement: a title reads `Hello ]0;PWNED` rather than carrying anything a
/// terminal could act on; the terminal layer's sanitiser is a second, independent gate.
package enum FeedText {
    /// `text` fit for a single-line field.
    /// - Complexity: O(n) in the UTF-8 length; one pass, and no copy when nothing is removed.
    package static func line(_ text: String) -> String {
        clean(text, removingBidiControls: true)
    }

    /// `text` fit for a multi-line field (a summary or content, HTML kept).
    /// - Complexity: O(n) in the UTF-8 length; one pass, and no copy when nothing is removed.
    static func text(_ text: String) -> String {
        clean(text, removingBidiControls: false)
    }

    /// Makes `text` fit for a single-line field in place: ``line(_:)`` without a copy of a
    /// clean string, which nearly every string is.
    static func makeLine(_ text: inout String) {
        if needsCleaning(text, removingBidiControls: true) { text = clean(text, removingBidiControls: true) }
    }

    /// Makes `text` fit for a multi-line field in place (``text(_:)``).
    static func makeText(_ text: inout String) {
        if needsCleaning(text, removingBidiControls: false) { text = clean(text, removingBidiControls: false) }
    }

    private static func clean(_ text: String, removingBidiControls: Bool) -> String {
        guard needsCleaning(text, removingBidiControls: removingBidiControls) else { return text }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pendingCarriageReturn = false
        while let scalar = scalars.next() {
            if pendingCarriageReturn, scalar != "\n" { out.append("\n") }
            pendingCarriageReturn = false
            switch scalar.value {
            case 0x09, 0x0A:
                out.append(scalar)
            case 0x0D:
                pendingCarriageReturn = true
            case 0x00...0x1F, 0x7F...0x9F:
                continue
            case 0x202A...0x202E where removingBidiControls, 0x2066...0x2069 where removingBidiControls:
                continue
            default:
                out.append(scalar)
            }
        }
        if pendingCarriageReturn { out.append("\n") }
        return String(out)
    }

    /// Whether `text` holds anything ``clean(_:removingBidiControls:)`` would change, judged on
    /// its UTF-8 bytes: C0 and DEL are bytes of their own, C1 is `C2 80`–`C2 9F`, and the bidi
    /// controls are `E2 80 AA`–`E2 80 AE` and `E2 81 A6`–`E2 81 A9`.
    ///
    /// Every field of every entry passes here, contents of a megabyte included, so the bytes
    /// are read eight at a time: a word without a byte below 0x20, a DEL, a 0xC2 or (for single
    /// lines) a 0xE2 is clean as a whole, and only the others are looked at byte by byte.
    private static func needsCleaning(_ text: String, removingBidiControls: Bool) -> Bool {
        if let answer = text.utf8.withContiguousStorageIfAvailable({ needsCleaning($0, removingBidiControls: removingBidiControls) }) {
            return answer
        }
        return Array(text.utf8).withUnsafeBufferPointer { needsCleaning($0, removingBidiControls: removingBidiControls) }
    }

    private static func needsCleaning(_ bytes: UnsafeBufferPointer<UInt8>, removingBidiControls: Bool) -> Bool {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Some byte below 0x20 (for bytes under 0x80; a high byte is checked as 0xC2/0xE2).
            let belowSpace = (word &- ones &* 0x20) & ~word & highs != 0
            let suspicious = belowSpace || hasZeroByte(word ^ (ones &* 0x7F)) || hasZeroByte(word ^ (ones &* 0xC2))
                || (removingBidiControls && hasZeroByte(word ^ (ones &* 0xE2)))
            if suspicious, checkBytes(base, from: index, to: index + 8, count: count, removingBidiControls: removingBidiControls) {
                return true
            }
            index += 8
        }
        return checkBytes(base, from: index, to: count, count: count, removingBidiControls: removingBidiControls)
    }

    /// The byte-by-byte check of `from..<to`, looking past `to` for the rest of a sequence.
    private static func checkBytes(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, count: Int,
                                   removingBidiControls: Bool) -> Bool {
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte != 0x09 && byte != 0x0A { return true }
            } else if byte == 0x7F {
                return true
            } else if byte == 0xC2, index + 1 < count, bytes[index + 1] & 0xE0 == 0x80 {
                return true
            } else if byte == 0xE2, removingBidiControls, index + 2 < count {
                let second = bytes[index + 1], third = bytes[index + 2]
                if (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third)) {
                    return true
                }
            }
            index += 1
        }
        return false
    }
}

extension FeedEntry {
    /// This entry with every text field through ``FeedText``.
    package func sanitized() -> FeedEntry {
        var entry = self
        entry.sanitize()
        return entry
    }

    /// Passes every text field through ``FeedText``, in place: a parse's entries are sanitized
    /// where they lie, and a clean field (nearly all of them) is neither copied nor rewritten.
    mutating func sanitize() {
        FeedText.makeLine(&id)
        FeedText.makeLine(&title)
        if author != nil { FeedText.makeLine(&author!) }
        for index in categories.indices { FeedText.makeLine(&categories[index]) }
        if summary != nil { FeedText.makeText(&summary!) }
        if content != nil { FeedText.makeText(&content!) }
        for index in enclosures.indices where enclosures[index].type != nil { FeedText.makeLine(&enclosures[index].type!) }
    }
}

extension FeedInfo {
    /// This description with every text field through ``FeedText``.
    func sanitized() -> FeedInfo {
        var info = self
        info.title = title.map(FeedText.line)
        info.description = description.map(FeedText.text)
        return info
    }
}

extension FeedLink {
    /// This link with every text field through ``FeedText``.
    func sanitized() -> FeedLink {
        FeedLink(url: url, type: FeedText.line(type), title: title.map(FeedText.line))
    }
}
