import Foundation

extension StringProtocol {
    /// The text without leading and trailing whitespace (Unicode's definition, no-break space
    /// included), looking only at the ends.
    ///
    /// The ends are found on the unicode scalars, the result is cut out of the UTF-8 in one
    /// copy. (Foundation's `trimmingCharacters(in:)` walks the whole string as UTF-16 on Linux;
    /// rebuilding the result through a `UnicodeScalarView` appended it a scalar at a time,
    /// through generic code, which was three quarters of the parse of a feed of long articles.)
    ///
    /// - Complexity: O(w) in the whitespace at the ends, plus one copy of the result.
    var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isFeedWhitespace }),
              let last = scalars.lastIndex(where: { !$0.isFeedWhitespace }) else { return "" }
        let end = scalars.index(after: last)
        if first == scalars.startIndex, end == scalars.endIndex { return String(self) }
        // Scalar boundaries are UTF-8 boundaries, so the bytes between are valid as they are.
        return String(decoding: utf8[first..<end], as: UTF8.self)
    }
}

extension Unicode.Scalar {
    /// Whitespace, with a fast path for ASCII, where nearly all of it is.
    var isFeedWhitespace: Bool {
        value < 0x80 ? UInt8(value).isASCIISpace : properties.isWhitespace || value == 0xA0
    }
}

extension UInt8 {
    /// Whether the byte is ASCII whitespace: space, tab, line feed, vertical tab, form feed or
    /// carriage return (the ASCII part of ``Swift/Unicode/Scalar/isFeedWhitespace``).
    var isASCIISpace: Bool {
        self == 0x20 || (0x09...0x0D).contains(self)
    }
}

extension String {
    /// The UTF-8 `bytes` as text (ill-formed sequences repaired), without leading and trailing
    /// whitespace as ``Swift/StringProtocol/trimmedWhitespace`` defines it, made in one copy:
    /// the ASCII whitespace at the ends is cut on the bytes, and only text that then starts or
    /// ends with a non-ASCII character is looked at as scalars.
    ///
    /// - Complexity: O(n): one validating copy of the kept bytes.
    init(trimmingWhitespace bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0, end = bytes.count
        while start < end, bytes[start].isASCIISpace { start += 1 }
        while end > start, bytes[end - 1].isASCIISpace { end -= 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        self = start < end && (bytes[start] >= 0x80 || bytes[end - 1] >= 0x80) ? text.trimmedWhitespace : text
    }
}

extension String {
    /// The text with ASCII letters lowercased (the others kept), for matching names and MIME
    /// types; the text itself, uncopied, when it has no uppercase ASCII letter, as nearly all
    /// attribute values of feeds do.
    var lowercasedASCII: String {
        guard utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return self }
        return String(decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

extension StringProtocol {
    /// Whether the UTF-8 of the text holds `byte`, searched with `memchr` on the text's own
    /// storage (the generic `utf8.contains` steps an index through the view a byte at a time).
    func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        } ?? utf8.contains(byte)
    }
}
