import Foundation

/// Where a search's words are in a text: the ranges a reader highlights in a title, an excerpt
/// or an article opened from a search.
///
/// Words are found as the index finds them: text splits into words at every character that is
/// not a letter, a number or private use (``SearchText/isTokenScalar(_:)``), and words compare
/// ignoring case and diacritics. A phrase matches its words in a row; a prefix term matches the
/// words its last word begins.
public struct SearchHighlight: Sendable, Equatable {
    /// The words of one term, folded, and whether its last word is a prefix.
    private struct Pattern: Equatable {
        var words: [String]
        var lastIsPrefix: Bool
        var field: SearchQuery.Term.Field?
    }

    private let patterns: [Pattern]

    /// The words of `query` that a text can show: its required terms (excluded ones match
    /// nothing shown).
    public init(_ query: SearchQuery) {
        patterns = query.highlightedTerms.compactMap { term in
            let words = Self.words(in: term.text).map { Self.fold(term.text[$0]) }
            return words.isEmpty ? nil : Pattern(words: words, lastIsPrefix: term.isPrefix, field: term.field)
        }
    }

    /// Whether there is nothing to highlight.
    public var isEmpty: Bool { patterns.isEmpty }

    /// The ranges of `text` that match a term, in order and not overlapping. `field` is the
    /// field the text is (a title, an author), `nil` for a post's text or excerpt: a term
    /// limited to a field matches only there.
    ///
    /// - Complexity: O(n · t) for n characters and t terms.
    public func ranges(in text: String, field: SearchQuery.Term.Field? = nil) -> [Range<String.Index>] {
        let applicable = patterns.filter { $0.field == nil || $0.field == field }
        guard !applicable.isEmpty else { return [] }
        let words = Self.words(in: text)
        let folded = words.map { Self.fold(text[$0]) }
        var ranges: [Range<String.Index>] = []
        var index = 0
        while index < words.count {
            var matched = 0
            for pattern in applicable where pattern.words.count <= words.count - index {
                let count = pattern.words.count
                let isMatch = (0..<count).allSatisfy { offset in
                    let word = folded[index + offset]
                    return offset == count - 1 && pattern.lastIsPrefix ? word.hasPrefix(pattern.words[offset]) : word == pattern.words[offset]
                }
                if isMatch { matched = max(matched, count) }
            }
            if matched > 0 {
                ranges.append(words[index].lowerBound..<words[index + matched - 1].upperBound)
                index += matched
            } else {
                index += 1
            }
        }
        return ranges
    }

    /// The ranges of the words of `text`.
    private static func words(in text: String) -> [Range<String.Index>] {
        var words: [Range<String.Index>] = []
        var start: String.Index?
        var index = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        while index != scalars.endIndex {
            let isWord = SearchText.isTokenScalar(scalars[index])
            if isWord, start == nil { start = index }
            if !isWord, let begun = start {
                words.append(begun..<index)
                start = nil
            }
            index = scalars.index(after: index)
        }
        if let begun = start { words.append(begun..<scalars.endIndex) }
        return words
    }

    /// `word` as the index compares it: lowercase, without diacritics.
    private static func fold(_ word: Substring) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.lowercased() }
        return word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
