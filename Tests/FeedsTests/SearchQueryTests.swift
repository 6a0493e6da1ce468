import Feeds
import Foundation
import SeededRandom
import Testing

@Suite struct SearchQueryTests {
    private static let now = Date(timeIntervalSince1970: 1_780_000_000)
    private static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    private func parse(_ text: String, asYouType: Bool = false) -> SearchQuery {
        SearchQuery(parsing: text, asYouType: asYouType, now: Self.now, calendar: Self.utc)
    }

    private func word(_ text: String, prefix: Bool = false, _ field: SearchQuery.Term.Field? = nil) -> SearchQuery.Term {
        SearchQuery.Term(text: text, isPrefix: prefix, field: field)
    }

    @Test func wordsAreAllRequiredAndQuoted() {
        let query = parse("sqlite  wal")
        #expect(query.required == [[word("sqlite")], [word("wal")]])
        #expect(query.matchExpression == #""sqlite" AND "wal""#)
        #expect(query.problems.isEmpty)
    }

    @Test func phrasesPrefixesAndFields() {
        let query = parse(#""write ahead log" sql* title:wal author:"Ann Lee" TITLE:x*"#)
        #expect(query.required == [
            [word("write ahead log")], [word("sql", prefix: true)], [word("wal", .title)],
            [word("Ann Lee", .author)], [word("x", prefix: true, .title)],
        ])
        #expect(query.matchExpression
            == #""write ahead log" AND "sql" * AND title : "wal" AND author : "Ann Lee" AND title : "x" *"#)
    }

    @Test func orJoinsItsNeighboursAndBindsTighterThanAnd() {
        let query = parse("sqlite OR postgres OR mysql wal")
        #expect(query.required == [[word("sqlite"), word("postgres"), word("mysql")], [word("wal")]])
        #expect(query.matchExpression == #"("sqlite" OR "postgres" OR "mysql") AND "wal""#)
        // A lowercase `or`, or one with nothing before it, is a word.
        #expect(parse("this or that").required.count == 3)
        #expect(parse("OR that").required == [[word("OR")], [word("that")]])
        // With nothing after it, or beside a filter, it joins nothing.
        #expect(parse("this OR").required == [[word("this")]])
        #expect(parse("this OR feed:x that").required == [[word("this")], [word("that")]])
    }

    @Test func excludedWordsComeAfterNot() {
        let query = parse("sqlite -draft -title:\"old news\"")
        #expect(query.excluded == [word("draft"), word("old news", .title)])
        #expect(query.matchExpression == #"("sqlite") NOT ("draft" OR title : "old news")"#)
        let onlyExcluded = parse("-draft")
        #expect(onlyExcluded.matchExpression == nil)
        #expect(onlyExcluded.excludedExpression == #""draft""#)
        #expect(!onlyExcluded.isEmpty)
    }

    @Test func operatorsTypedAsTextStayText() {
        // FTS5's own syntax, typed into the box: every piece is quoted, quotes doubled.
        let query = parse(#"NEAR(a b) AND NOT x^ {title}:y a"b"#)
        #expect(query.matchExpression == #""NEAR(a" AND "b)" AND "AND" AND "NOT" AND "x^" AND "{title}:y" AND "a""b""#)
        // Nothing the index could hold: no term at all.
        #expect(parse("- -- +++ * \"\" ***").required.isEmpty)
        #expect(parse("- -- +++ * \"\" ***").isEmpty)
    }

    @Test func anUnbalancedQuoteRunsToTheEnd() {
        #expect(parse(#"wal "write ahead"#).required == [[word("wal")], [word("write ahead")]])
        #expect(parse(#"title:"write ahead"#).required == [[word("write ahead", .title)]])
    }

    @Test func feedsAndStates() {
        let query = parse(#"feed:lwn feed:"Hacker News" is:unread is:STARRED"#)
        #expect(query.feedNames == ["lwn", "Hacker News"])
        #expect(query.isUnread == true)
        #expect(query.isStarred == true)
        #expect(query.required.isEmpty)
        #expect(parse("-is:unread").isUnread == false)
        #expect(parse("is:read is:unstarred").isUnread == false)
        #expect(parse("is:read is:unstarred").isStarred == false)
    }

    @Test func datesAndAges() {
        let query = parse("after:2026-01-01 before:2026/02/01")
        #expect(query.notBefore == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(query.before == Date(timeIntervalSince1970: 1_769_904_000))
        #expect(parse("newer:7d").notBefore == Self.now.addingTimeInterval(-7 * 86_400))
        #expect(parse("newer:12h").notBefore == Self.now.addingTimeInterval(-12 * 3600))
        #expect(parse("older:2w").before == Self.now.addingTimeInterval(-14 * 86_400))
        #expect(parse("newer:1y newer:3m").notBefore == Self.now.addingTimeInterval(-90 * 86_400))
        #expect(parse("-newer:1d").before == Self.now.addingTimeInterval(-86_400))
    }

    @Test func mistakesAreSaidAndLeftOut() {
        let query = parse("wal is:nice after:2026-02-30 after:tomorrow newer:7x title: feed:")
        #expect(query.required == [[word("wal")]])
        #expect(query.isUnread == nil && query.notBefore == nil && query.feedNames.isEmpty)
        #expect(query.problems.count == 6)
        #expect(query.problems[0].contains("is:nice"))
        #expect(query.problems[1].contains("2026-02-30"))
        #expect(query.problems[3].contains("7x"))
    }

    @Test func asYouTypeTheLastWordIsAPrefixFromTwoCharacters() {
        #expect(parse("sqlite wa", asYouType: true).required == [[word("sqlite")], [word("wa", prefix: true)]])
        // One letter is left out until the next key: it is not a word yet.
        #expect(parse("sqlite w", asYouType: true).required == [[word("sqlite")]])
        #expect(parse("w", asYouType: true).isEmpty)
        #expect(parse(#""write a"#, asYouType: true).required == [[word("write ")]])
        #expect(parse(#""write a""#, asYouType: true).required == [[word("write a")]])
        #expect(parse("sqlite w").required == [[word("sqlite")], [word("w")]])
        #expect(parse("sqlite wa ", asYouType: true).required == [[word("sqlite")], [word("wa")]])
        #expect(parse(#""write ahe"#, asYouType: true).required == [[word("write ahe", prefix: true)]])
        #expect(parse("title:wa", asYouType: true).required == [[word("wa", prefix: true, .title)]])
        #expect(parse("c++", asYouType: true).required == [[word("c++")]])
        // A key still being typed is not a mistake yet.
        #expect(parse("wal title:", asYouType: true).problems.isEmpty)
        #expect(!parse("wal title:").problems.isEmpty)
    }

    @Test func diacriticsAndOtherScriptsAreWords() {
        #expect(parse("café 東京 ß").required.count == 3)
        #expect(parse("— … ·").required.isEmpty)
    }

    @Test func anyTextParsesIntoQuotedTerms() {
        let seed = randomizedTestSeed()
        print("SearchQuery any text: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let pieces = ["a", "é", "OR", "AND", "NOT", "NEAR", "-", "\"", "*", ":", "(", ")", "{", "}", "^", "+", " ", "  ",
                      "title:", "author:", "feed:", "is:", "after:", "newer:", "2026-01-01", "7d", "東", "\u{0}", "\n", "'", "\\", "%", "_"]
        for round in 0..<2_000 {
            let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let query = parse(text, asYouType: round.isMultiple(of: 2))
            for term in query.required.flatMap({ $0 }) + query.excluded {
                #expect(term.text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil },
                        "seed \(seed): \(text.debugDescription) gave an empty term")
            }
            if let expression = query.matchExpression {
                // Every quote inside a term is doubled, so quotes pair up.
                #expect(expression.filter { $0 == "\"" }.count.isMultiple(of: 2), "seed \(seed): \(text.debugDescription)")
                // FTS5 reads the expression as a C string.
                #expect(!expression.unicodeScalars.contains("\u{0}"), "seed \(seed): \(text.debugDescription)")
            }
        }
    }
}

@Suite struct SearchHighlightTests {
    private func marked(_ query: String, _ text: String, field: SearchQuery.Term.Field? = nil, asYouType: Bool = false) -> [String] {
        SearchHighlight(SearchQuery(parsing: query, asYouType: asYouType)).ranges(in: text, field: field).map { String(text[$0]) }
    }

    @Test func wordsMatchAsTheIndexMatchesThem() {
        #expect(marked("cafe", "Le CAFÉ, un café; cafeteria") == ["CAFÉ", "café"])
        #expect(marked("caf", "Le CAFÉ, un café; cafeteria", asYouType: true) == ["CAFÉ", "café", "cafeteria"])
        #expect(marked("\"write ahead log\" wal", "A write-ahead log (WAL) is a log; write ahead logs") == ["write-ahead log", "WAL"])
        #expect(marked("-draft post", "A draft post") == ["post"])
        #expect(marked("東京", "東京 and 京都") == ["東京"])
    }

    @Test func aFieldsTermsMarkOnlyThatField() {
        #expect(marked("title:wal sqlite", "SQLite WAL", field: .title) == ["SQLite", "WAL"])
        #expect(marked("title:wal sqlite", "SQLite WAL") == ["SQLite"])
        #expect(SearchHighlight(SearchQuery(parsing: "is:unread")).isEmpty)
    }
}
