/// The text the search index holds for a post, and the rule by which it splits text into words.
package enum SearchText {
    /// Whether the index's tokenizer (FTS5's `unicode61`, with its default categories) keeps
    /// `scalar` as part of a word: letters, numbers and private-use characters. Everything
    /// else separates words.
    package static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return false
        }
    }

    /// The words of a post's text for the index: its content, else its summary, as plain text
    /// (no markup, character references decoded).
    ///
    /// - Complexity: O(n) in the length of the markup.
    package static func body(summary: String?, content: String?) -> String {
        guard let html = content.flatMap({ $0.isEmpty ? nil : $0 }) ?? summary, !html.isEmpty else { return "" }
        return PlainText.from(html: html)
    }
}
