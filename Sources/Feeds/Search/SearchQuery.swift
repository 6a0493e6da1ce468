import Foundation

/// A search as a person types it, parsed into what the store's full-text index and its columns
/// can answer. Nothing the person typed ever becomes SQL or FTS5 syntax: every word is quoted
/// (``matchExpression``), and every filter is a bound argument.
///
/// The language is the one mail and web search boxes share:
///
/// | input | matches posts |
/// |---|---|
/// | `sqlite wal` | with both words (in the title, author, feed title or text) |
/// | `"write ahead log"` | with the phrase |
/// | `sql*` | with a word that starts with `sql` |
/// | `sqlite OR postgres` | with either word (`OR` in capitals) |
/// | `-draft` | without the word |
/// | `title:wal`, `author:ann`, `title:"a phrase"` | with the word in that field |
/// | `feed:lwn`, `feed:"Hacker News"` | from a feed whose title (or address) contains the text; several `feed:` are alternatives |
/// | `is:unread`, `is:read`, `is:starred`, `is:unstarred` | in that state |
/// | `after:2026-01-01`, `before:2026-02-01` | dated on or after, or before, the start of that day |
/// | `newer:7d`, `older:2w` | dated within, or before, the last hours (`h`), days (`d`), weeks (`w`), months (`m`) or years (`y`) |
///
/// Words match ignoring case and diacritics (`cafe` finds `café`). Input that means nothing
/// (a lone `-`, an unknown `is:` value, a date that is not one) is left out, and ``problems``
/// says what was left out and why; the rest is still searched.
public struct SearchQuery: Sendable, Hashable {
    /// A word or phrase to look for.
    public struct Term: Sendable, Hashable {
        /// The field a term is limited to.
        public enum Field: String, Sendable, Hashable, CaseIterable {
            case title
            case author
        }

        /// The text as typed: one word, or the words of a phrase.
        public var text: String
        /// Whether the last word matches every word it begins (`sql*`).
        public var isPrefix: Bool
        /// The field the term must be in; `nil` for any.
        public var field: Field?

        public init(text: String, isPrefix: Bool = false, field: Field? = nil) {
            self.text = text
            self.isPrefix = isPrefix
            self.field = field
        }

        /// The term in FTS5's query syntax: the text as one quoted string (quotes doubled),
        /// so that FTS5 reads every character as text to tokenize, never as an operator.
        var matchExpression: String {
            // FTS5 reads its query as a C string: a NUL would end it inside the quotes.
            var phrase = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"").replacingOccurrences(of: "\u{0}", with: " ") + "\""
            if isPrefix { phrase += " *" }
            if let field { phrase = field.rawValue + " : " + phrase }
            return phrase
        }
    }

    /// Every group must match; a group matches when any of its terms does (`a OR b`).
    public var required: [[Term]] = []
    /// No result matches any of these.
    public var excluded: [Term] = []
    /// Posts only from feeds whose title (or, without one, address) contains one of these,
    /// ignoring case.
    public var feedNames: [String] = []
    /// Only unread posts (`true`) or only read ones (`false`).
    public var isUnread: Bool?
    /// Only starred posts (`true`) or only unstarred ones (`false`).
    public var isStarred: Bool?
    /// Only posts dated at or after this instant.
    public var notBefore: Date?
    /// Only posts dated before this instant.
    public var before: Date?
    /// What was left out of the input, and why, one sentence each.
    public var problems: [String] = []

    /// A query with no conditions: every post.
    public init() {}

    /// Whether the query has no condition at all, so every post matches.
    public var isEmpty: Bool {
        required.isEmpty && excluded.isEmpty && feedNames.isEmpty && isUnread == nil && isStarred == nil
            && notBefore == nil && before == nil
    }

    /// Whether the query has words to rank results by.
    public var hasWords: Bool { !required.isEmpty }

    /// The words that must match, in FTS5's syntax, `nil` without any: groups joined by `AND`,
    /// the terms of a group by `OR`, excluded terms after `NOT`.
    public var matchExpression: String? {
        guard !required.isEmpty else { return nil }
        let groups = required.map { group in
            group.count == 1 ? group[0].matchExpression : "(" + group.map(\.matchExpression).joined(separator: " OR ") + ")"
        }
        var expression = groups.joined(separator: " AND ")
        if let excluded = excludedExpression {
            expression = "(" + expression + ") NOT (" + excluded + ")"
        }
        return expression
    }

    /// The excluded terms joined by `OR`, `nil` without any.
    public var excludedExpression: String? {
        excluded.isEmpty ? nil : excluded.map(\.matchExpression).joined(separator: " OR ")
    }

    /// The terms whose matches a reader highlights: every required one.
    public var highlightedTerms: [Term] { required.flatMap { $0 } }

    /// The posts that match both this query and `other`: a search typed inside a saved one.
    /// Words and exclusions add up, dates narrow; `other`'s states and feeds, when it names
    /// any, replace these (feeds are alternatives, so two lists cannot both hold).
    public func narrowed(by other: SearchQuery) -> SearchQuery {
        var both = self
        both.required += other.required
        both.excluded += other.excluded
        if !other.feedNames.isEmpty { both.feedNames = other.feedNames }
        both.isUnread = other.isUnread ?? isUnread
        both.isStarred = other.isStarred ?? isStarred
        both.notBefore = [notBefore, other.notBefore].compactMap { $0 }.max()
        both.before = [before, other.before].compactMap { $0 }.min()
        both.problems += other.problems
        return both
    }
}

extension SearchQuery {
    /// Parses `text` as the query language above.
    ///
    /// - Parameters:
    ///   - text: What the person typed; any text at all.
    ///   - asYouType: Whether the input is still being typed, so its last word, when no space
    ///     or closing quote follows it, is the start of a word: with two characters or more it
    ///     matches the words it begins; a single character is left out until the next key.
    ///   - now: The instant `newer:` and `older:` count back from.
    ///   - calendar: The calendar and time zone `after:` and `before:` days are read in.
    /// - Complexity: O(n) in the length of `text`.
    public init(parsing text: String, asYouType: Bool = false, now: Date = Date(), calendar: Calendar = .current) {
        self.init()
        var scanner = QueryScanner(text)
        var pendingOr = false
        var lastWasTerm = false
        var isFirst = true
        while let token = scanner.next() {
            defer { isFirst = false }
            // `OR` after anything is an operator: between two terms it joins them, anywhere
            // else (at the end, beside a filter) it means nothing. First, it is a word.
            if token.isOrOperator, !isFirst {
                pendingOr = lastWasTerm
                continue
            }
            let isLast = scanner.isAtEnd && !scanner.endsInSpace && !token.isClosedQuote
            let added = add(token, typingPrefix: asYouType && isLast, now: now, calendar: calendar, joiningPrevious: pendingOr)
            pendingOr = false
            lastWasTerm = added
        }
    }

    /// Adds what `token` means; returns whether it was a required term that `OR` may join.
    private mutating func add(_ token: QueryScanner.Token, typingPrefix: Bool, now: Date, calendar: Calendar,
                              joiningPrevious: Bool) -> Bool {
        if let key = token.key {
            // `title:` while it is being typed is not a mistake yet.
            if typingPrefix, token.value.isEmpty { return false }
            switch key {
            case "title", "author":
                guard let term = Self.term(token.value, quoted: token.isQuoted, field: Term.Field(rawValue: key),
                                           typingPrefix: typingPrefix) else {
                    problems.append("“\(key):” needs a word after it.")
                    return false
                }
                return addTerm(term, negated: token.isNegated, joiningPrevious: joiningPrevious)
            case "feed":
                let name = token.value.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else {
                    problems.append("“feed:” needs part of a feed's title after it.")
                    return false
                }
                if token.isNegated { problems.append("“-feed:” is not supported; “feed:\(name)” is a filter only.") }
                else { feedNames.append(name) }
                return false
            case "is":
                let value = token.value.lowercased()
                let flag: (unread: Bool?, starred: Bool?)? = switch value {
                case "unread": (true, nil)
                case "read": (false, nil)
                case "starred": (nil, true)
                case "unstarred": (nil, false)
                default: nil
                }
                guard var flag else {
                    problems.append("“is:\(token.value)” is not a state: use is:unread, is:read, is:starred or is:unstarred.")
                    return false
                }
                if token.isNegated {
                    flag = (flag.unread.map(!), flag.starred.map(!))
                }
                if let unread = flag.unread { isUnread = unread }
                if let starred = flag.starred { isStarred = starred }
                return false
            case "after", "before":
                guard let day = Self.day(token.value, calendar: calendar) else {
                    problems.append("“\(key):\(token.value)” is not a date: write it as 2026-01-31.")
                    return false
                }
                // `-after:` is `before:`, and the other way round.
                if (key == "after") != token.isNegated { notBefore = max(notBefore ?? day, day) }
                else { before = min(before ?? day, day) }
                return false
            case "newer", "older":
                guard let age = Self.age(token.value) else {
                    problems.append("“\(key):\(token.value)” is not an age: write it as 12h, 7d, 2w, 3m or 1y.")
                    return false
                }
                let instant = now.addingTimeInterval(-age)
                if (key == "newer") != token.isNegated { notBefore = max(notBefore ?? instant, instant) }
                else { before = min(before ?? instant, instant) }
                return false
            default:
                break
            }
        }
        guard let term = Self.term(token.raw, quoted: token.isQuoted, field: nil, typingPrefix: typingPrefix) else {
            return false
        }
        return addTerm(term, negated: token.isNegated, joiningPrevious: joiningPrevious)
    }

    private mutating func addTerm(_ term: Term, negated: Bool, joiningPrevious: Bool) -> Bool {
        if negated {
            excluded.append(term)
            return false
        }
        if joiningPrevious, !required.isEmpty {
            required[required.count - 1].append(term)
        } else {
            required.append([term])
        }
        return true
    }

    /// The term `text` makes, or `nil` when it holds nothing the index holds: no letter, digit
    /// or private-use character, which is what the index's tokenizer keeps.
    private static func term(_ text: String, quoted: Bool, field: Term.Field?, typingPrefix: Bool) -> Term? {
        var text = text
        var isPrefix = false
        if !quoted {
            while text.hasSuffix("*") {
                text.removeLast()
                isPrefix = true
            }
        }
        guard text.unicodeScalars.contains(where: SearchText.isTokenScalar) else { return nil }
        if typingPrefix, !isPrefix, SearchText.isTokenScalar(text.unicodeScalars.last!) {
            // Only the last word of a phrase is a prefix; its length decides. One letter is
            // not a word yet: it would begin most words of a large store, and as a word of
            // its own it would empty the list until the next key.
            let lastWord = text.unicodeScalars.reversed().prefix { SearchText.isTokenScalar($0) }
            if lastWord.count >= 2 {
                isPrefix = true
            } else {
                text = String(text.unicodeScalars.dropLast(lastWord.count))
                guard text.unicodeScalars.contains(where: SearchText.isTokenScalar) else { return nil }
            }
        }
        return Term(text: text, isPrefix: isPrefix, field: field)
    }

    /// The start of the day `text` names (`2026-01-31`, or with `/`), in `calendar`.
    private static func day(_ text: String, calendar: Calendar) -> Date? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "/" }).map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
              (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day else { return nil }  // not 2026-02-30
        return date
    }

    /// The seconds `text` names: a count and a unit (`12h`, `7d`, `2w`, `3m`, `1y`).
    private static func age(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let count = Int(text.dropLast()), count >= 0, count <= 100_000 else { return nil }
        let hour: TimeInterval = 3600
        switch unit.lowercased() {
        case "h": return TimeInterval(count) * hour
        case "d": return TimeInterval(count) * 24 * hour
        case "w": return TimeInterval(count) * 7 * 24 * hour
        case "m": return TimeInterval(count) * 30 * 24 * hour
        case "y": return TimeInterval(count) * 365 * 24 * hour
        default: return nil
        }
    }
}

/// Splits query text into tokens: words, `"phrases"`, `key:value` and `key:"value"`, each maybe
/// preceded by `-`. An unbalanced quote runs to the end of the text.
private struct QueryScanner {
    struct Token {
        /// The token as typed, without its `-` and quotes.
        var raw: String
        var isQuoted: Bool
        var isNegated: Bool
        /// The lowercased key of a `key:value` token with a known key.
        var key: String?
        /// The value of a `key:value` token.
        var value: String
        /// Whether the token is quoted and its closing quote typed.
        var isClosedQuote = false

        var isOrOperator: Bool { raw == "OR" && !isQuoted && !isNegated && key == nil }
    }

    static let keys: Set<String> = ["title", "author", "feed", "is", "after", "before", "newer", "older"]

    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        characters = Array(text)
    }

    var isAtEnd: Bool {
        var probe = index
        while probe < characters.count, characters[probe].isWhitespace { probe += 1 }
        return probe == characters.count
    }

    var endsInSpace: Bool { characters.last?.isWhitespace ?? false }

    mutating func next() -> Token? {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        guard index < characters.count else { return nil }
        var isNegated = false
        if characters[index] == "-", index + 1 < characters.count, !characters[index + 1].isWhitespace {
            isNegated = true
            index += 1
        }
        if characters[index] == "\"" {
            let (phrase, closed) = quoted()
            return Token(raw: phrase, isQuoted: true, isNegated: isNegated, key: nil, value: phrase, isClosedQuote: closed)
        }
        let start = index
        while index < characters.count, !characters[index].isWhitespace, characters[index] != ":" { index += 1 }
        if index < characters.count, characters[index] == ":" {
            let key = String(characters[start..<index]).lowercased()
            if Self.keys.contains(key) {
                index += 1
                if index < characters.count, characters[index] == "\"" {
                    let (value, closed) = quoted()
                    return Token(raw: value, isQuoted: true, isNegated: isNegated, key: key, value: value, isClosedQuote: closed)
                }
                let valueStart = index
                while index < characters.count, !characters[index].isWhitespace { index += 1 }
                let value = String(characters[valueStart..<index])
                return Token(raw: value, isQuoted: false, isNegated: isNegated, key: key, value: value)
            }
        }
        while index < characters.count, !characters[index].isWhitespace { index += 1 }
        let word = String(characters[start..<index])
        return Token(raw: word, isQuoted: false, isNegated: isNegated, key: nil, value: word)
    }

    /// The text from the quote at `index` to the next quote or the end, and whether there was
    /// a closing quote.
    private mutating func quoted() -> (String, closed: Bool) {
        index += 1
        let start = index
        while index < characters.count, characters[index] != "\"" { index += 1 }
        let text = String(characters[start..<index])
        guard index < characters.count else { return (text, false) }
        index += 1
        return (text, true)
    }
}
