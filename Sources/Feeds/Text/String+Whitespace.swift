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
        value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace || value == 0xA0
    }
}
