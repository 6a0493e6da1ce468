import ArgumentParser
import Feeds
import Foundation
import ScrollworkReader

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search every word of every stored post, most relevant first.",
        discussion: """
            The query language: words (all must match), "a phrase", prefix*, OR between \
            alternatives, -word to exclude, title:WORD, author:WORD, feed:NAME (part of a feed's \
            title), is:unread, is:read, is:starred, is:unstarred, after:2026-01-31, \
            before:2026-01-31, newer:7d and older:2w (h, d, w, m, y). Words match ignoring case \
            and accents. Write a query with a leading -word after `--`, or quote it.

            The words matched are shown in bold where the output is a terminal. With --json, one \
            object per post: {"id", "feed", "title", "link", "published", "read", "starred", \
            "excerpt", "matches"}, where matches holds the [start, end) character offsets of the \
            matched words in the title.

            Posts stored since the last search (by refresh or sync) are indexed first, with \
            progress on a terminal; the reader indexes them in the background.
            """)

    @OptionGroup var store: StoreOptions
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The query.", valueName: "query")) var words: [String] = []
    @Flag(help: "Print one JSON object per post.") var json = false
    @Option(help: ArgumentHelp("The order of the results: relevance or date.", valueName: "order")) var by: EntryQuery.Order = .relevance
    @Option(help: "The most posts to print.") var limit = 20

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
        guard !words.joined().trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("give a query: scrollwork search WORDS") }
    }

    func run() async throws {
        let query = SearchQuery(parsing: words.joined(separator: " "))
        for problem in query.problems {
            printError("scrollwork search: left out: \(problem)")
        }
        guard !query.isEmpty else {
            printError("scrollwork search: nothing left to search for")
            throw ExitCode.validationFailure
        }
        try await reportingFailures("search") {
            let store = try store.openForReading()
            // Posts stored since the last search are indexed first, so that none is missed;
            // a store this user may only read is searched as it is.
            if store.isReadOnly {
                let waiting = try await store.waitingPostCount()
                if waiting > 0 { printError("scrollwork search: \(waiting) posts stored since the last index are not searched: this store is read-only here") }
            } else {
                try await store.indexAllWaitingPosts(progress: reportWaitingPostsIndexed)
            }
            let results = EntryQuery(search: query, order: by, limit: limit)
            let rows = try await store.rows(results)
            // A row has no link: JSON reads the same page's entries once for theirs.
            let links = json ? Dictionary(try await store.entries(results).map { ($0.id, $0.entry.link) }, uniquingKeysWith: { first, _ in first }) : [:]
            let highlight = SearchHighlight(query)
            let bold = !json && isatty(STDOUT_FILENO) == 1
            for row in rows {
                let feedName = row.feedTitle
                let titleMatches = highlight.ranges(in: row.title, field: .title)
                if json {
                    let offsets = titleMatches.map {
                        "[\(row.title.distance(from: row.title.startIndex, to: $0.lowerBound)), \(row.title.distance(from: row.title.startIndex, to: $0.upperBound))]"
                    }
                    let link = links[row.id] ?? nil
                    let fields = [
                        ("id", "\(row.id)"), ("feed", JSONText.quoted(feedName)), ("title", JSONText.quoted(row.title)),
                        ("link", link.map { JSONText.quoted($0.absoluteString) } ?? "null"),
                        ("published", row.isDated ? JSONText.quoted(FeedDate.rfc3339(row.date)) : "null"),
                        ("read", "\(row.isRead)"), ("starred", "\(row.isStarred)"),
                        ("excerpt", JSONText.quoted(row.excerpt)), ("matches", "[" + offsets.joined(separator: ", ") + "]"),
                    ]
                    Console.printExact("{" + fields.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}")
                } else {
                    let date = row.isDated ? String(FeedDate.rfc3339(row.date).prefix(10)) : "undated   "
                    let prefix = "\(date)  \(row.isRead ? " " : "*") "
                    Console.print(prefix + row.title + "  — " + feedName, bold: bold ? Self.shifted(titleMatches, in: row.title, by: prefix) : [])
                    if !row.excerpt.isEmpty {
                        let indent = String(repeating: " ", count: 12)
                        Console.print(indent + row.excerpt, bold: bold ? Self.shifted(highlight.ranges(in: row.excerpt), in: row.excerpt, by: indent) : [])
                    }
                }
            }
            if rows.isEmpty { printError("scrollwork search: no post matches") }
        }
    }

    /// `ranges` of `text` as ranges of `prefix + text + anything`: counted in Unicode scalars,
    /// which joining strings never merges.
    static func shifted(_ ranges: [Range<String.Index>], in text: String, by prefix: String) -> [Range<String.Index>] {
        let line = prefix + text
        let shift = prefix.unicodeScalars.count
        func moved(_ index: String.Index) -> String.Index {
            line.unicodeScalars.index(line.unicodeScalars.startIndex, offsetBy: shift + text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: index))
        }
        return ranges.map { moved($0.lowerBound)..<moved($0.upperBound) }
    }
}

extension EntryQuery.Order: ExpressibleByArgument {}
