extension StringProtocol {
    /// The text without leading and trailing whitespace (Unicode's definition, no-break space
    /// included), looking only at the ends. Foundation's `trimmingCharacters(in:)` walks the
    /// whole string as UTF-16 on Linux, which was most of a feed's parse time.
    ///
    /// - Complexity: O(w) in the whitespace at the ends, plus the copy.
    var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isFeedWhitespace }),
              let last = scalars.lastIndex(where: { !$0.isFeedWhitespace }) else { return "" }
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return String(self) }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// Whitespace, with a fast path for ASCII, where nearly all of it is.
    var isFeedWhitespace: Bool {
        value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace || value == 0xA0
    }
}
