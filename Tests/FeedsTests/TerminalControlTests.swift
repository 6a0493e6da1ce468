@testable import Feeds
import Foundation
import GRDB
import ScrollworkTestSupport
import SeededRandom
import Testing

/// Feed text never carries a command for the terminal, whatever the format and however the
/// characters were written (issue: text from a feed could drive the user's terminal).
@Suite struct TerminalControlTests {
    /// Every text field of `feed`, with whether it is single-line.
    private func fields(_ feed: ParsedFeed) -> [(text: String, singleLine: Bool)] {
        var fields: [(String, Bool)] = [(feed.info.title ?? "", true), (feed.info.description ?? "", false)]
        for entry in feed.entries {
            fields += [(entry.id, true), (entry.title, true), (entry.author ?? "", true)]
            fields += entry.categories.map { ($0, true) }
            fields += [(entry.summary ?? "", false), (entry.content ?? "", false)]
            fields += entry.enclosures.map { ($0.type ?? "", true) }
        }
        return fields
    }

    private func expectClean(_ feed: ParsedFeed, _ comment: Comment) {
        for (text, singleLine) in fields(feed) {
            #expect(HostileFeeds.terminalControls(in: text).isEmpty, "\(comment): \(text.debugDescription)")
            if singleLine {
                #expect(!text.unicodeScalars.contains(where: HostileFeeds.isBidiControl), "\(comment): \(text.debugDescription)")
            }
        }
    }

    private func expectVisibleWords(_ titles: [String], _ comment: Comment) {
        #expect(!titles.isEmpty, comment)
        for title in titles {
            for word in HostileFeeds.visibleWords {
                #expect(title.contains(word), "\(comment): \(title.debugDescription)")
            }
        }
    }

    @Test(arguments: [
        ("RSS, character references and raw UTF-8 C1", HostileFeeds.rss()),
        ("RSS in ISO-8859-1, raw C1 bytes", HostileFeeds.rssLatin1()),
        ("Atom, references and escaped HTML", HostileFeeds.atom()),
        ("JSON Feed, JSON escapes and raw C1", HostileFeeds.jsonFeed()),
    ])
    func parsedFieldsHoldNoTerminalControl(name: String, document: [UInt8]) throws {
        let feed = try parse(document)
        expectClean(feed, "\(name)")
        expectVisibleWords(feed.entries.map(\.title), "\(name)")
    }

    @Test func streamedBatchesAndPartialInfoAreCleanToo() throws {
        var parser = FeedParser(url: URL(string: "https://hostile.example/feed"), configuration: .init(batchSize: 2))
        var entries: [FeedEntry] = []
        let document = HostileFeeds.rss()
        for start in stride(from: 0, to: document.count, by: 97) {
            entries += try parser.consume(document[start..<min(start + 97, document.count)]).joined()
            if let title = parser.info?.title { #expect(HostileFeeds.terminalControls(in: title).isEmpty) }
        }
        let end = try parser.finish()
        expectClean(ParsedFeed(info: end.info, entries: entries + end.entries, isMalformed: false), "streamed")
        #expect(entries.count + end.entries.count == HostileFeeds.payloads.count + 2)
    }

    @Test func theReadableTextOfATitleSurvives() throws {
        let feed = try parse(HostileFeeds.jsonFeed())
        let title = try #require(feed.entries.first?.title)
        #expect(title == "Hello ]0;PWNED world")
        let bidi = try #require(feed.entries.first { $0.title.contains("gnp") }?.title)
        #expect(bidi == "Hello gnp.exe isolated world")
    }

    @Test func aTenMegabyteHostileTitleIsCutAndClean() throws {
        let feed = try parse(HostileFeeds.hugeTitleRSS(bytes: 10 << 20))
        let entry = try #require(feed.entries.first)
        #expect(entry.isTruncated)
        #expect(entry.title.utf8.count <= FeedParser.Configuration().maxFieldBytes)
        #expect(HostileFeeds.terminalControls(in: entry.title).isEmpty)
        #expect(entry.title.hasPrefix("Hello ]0;PWNED 2J world"))
    }

    @Test func opmlTitlesAndFoldersHoldNoTerminalControl() throws {
        let subscriptions = try OPML.subscriptions(from: HostileFeeds.opml { "https://hostile.example/\($0)" })
        #expect(subscriptions.count == HostileFeeds.payloads.count)
        for subscription in subscriptions {
            for text in [subscription.title ?? ""] + subscription.categories {
                #expect(HostileFeeds.terminalControls(in: text).isEmpty, "\(text.debugDescription)")
                #expect(!text.unicodeScalars.contains(where: HostileFeeds.isBidiControl))
            }
            expectVisibleWords([subscription.title ?? ""], "OPML")
        }
    }

    @Test func errorMessagesThatQuoteAServerAreClean() {
        let errors: [any CustomStringConvertible] = [
            FeedFetchError.connectionFailed("reset by \u{1B}]0;PWNED\u{07}"),
            FeedFetchError.unsupportedScheme("x\u{9B}2J"),
            FeedParsingError.unreadable(reason: "bad \u{1B}[2J"),
            FeedParsingError.notAFeed(rootElement: "a\u{9D}b"),
            OPMLError.notOPML(rootElement: "o\u{1B}P"),
        ]
        for error in errors {
            #expect(HostileFeeds.terminalControls(in: error.description).isEmpty, "\(error.description.debugDescription)")
        }
    }

    @Test func storedFieldsHoldNoTerminalControl() async throws {
        let (store, feed) = try await storeWithFeed()
        for document in [HostileFeeds.rss(), HostileFeeds.atom(), HostileFeeds.jsonFeed(), HostileFeeds.rssLatin1()] {
            let parsed = try parse(document)
            _ = try await store.upsert(entries: parsed.entries, feed: feed.id, now: storeEpoch)
            try await store.recordRefresh(feed: feed.id, etag: nil, lastModified: nil, info: parsed.info, at: storeEpoch)
        }
        let stored = try await store.entries(EntryQuery(limit: 1000))
        #expect(stored.count > HostileFeeds.payloads.count)
        let text = try await store.writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT entryId || title || COALESCE(author, '') || categories || COALESCE(summary, '') || COALESCE(content, '')
                FROM entry UNION ALL SELECT COALESCE(title, '') FROM feed
                """)
        }
        for field in text {
            #expect(HostileFeeds.terminalControls(in: field).isEmpty, "\(field.debugDescription)")
        }
    }

    /// The word-at-a-time scan against the plain rule, on random text where the characters to
    /// remove fall at every position of a word and across word boundaries.
    @Test func theFastScanAgreesWithThePlainRule() {
        let seed = randomizedTestSeed()
        print("FeedText scan: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let alphabet: [Unicode.Scalar] = ["a", " ", "\t", "\n", "\r", "\u{1B}", "\u{7F}", "\u{80}", "\u{9B}", "\u{A0}", "é",
                                          "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{2014}", "\u{200F}", "日", "🙂"]
        func reference(_ text: String, line: Bool) -> String {
            let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            return String(String.UnicodeScalarView(normalized.unicodeScalars.filter { scalar in
                if scalar == "\t" || scalar == "\n" { return true }
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return false }
                return !(line && ((0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)))
            }))
        }
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &random)
            // Mostly plain text, so clean strings (the fast path) are common too.
            let scalars = (0..<length).map { _ in
                Int.random(in: 0..<4, using: &random) == 0 ? alphabet[Int.random(in: 0..<alphabet.count, using: &random)] : "a"
            }
            let text = String(String.UnicodeScalarView(scalars))
            #expect(FeedText.line(text) == reference(text, line: true), "seed \(seed): \(text.debugDescription)")
            #expect(FeedText.text(text) == reference(text, line: false), "seed \(seed): \(text.debugDescription)")
        }
    }

    @Test func carriageReturnsBecomeLineFeedsAndMarksStay() {
        #expect(FeedText.text("a\r\nb\rc\r") == "a\nb\nc\n")
        #expect(FeedText.line("\u{200F}שלום\u{200E} hi") == "\u{200F}שלום\u{200E} hi")
        #expect(FeedText.text("\u{202B}ltr-embedded\u{202C}") == "\u{202B}ltr-embedded\u{202C}")
        #expect(FeedText.line("\u{202B}ltr-embedded\u{202C}") == "ltr-embedded")
        let clean = "Plain title — ünïcode"
        #expect(FeedText.line(clean) == clean)
    }

    @Test func aVersion1DatabaseIsCleanedWhenOpened() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path

        // What a build before the fix stored: the raw text, control characters and all.
        let v1 = try DatabaseQueue(path: path)
        try FeedStore.migrator.migrate(v1, upTo: FeedStore.SchemaVersion.v1.rawValue)
        try await v1.write { db in
            try db.execute(sql: "INSERT INTO feed (id, url, title, category, lastError) VALUES (1, 'https://h.example/', ?, ?, ?)",
                           arguments: ["Feed \u{1B}]0;x\u{07}", "Cat\u{9B}", "error \u{1B}[2J"])
            let insert = """
                INSERT INTO entry (feedId, entryId, title, author, categories, summary, content, enclosures, truncated, read, starred, firstSeen)
                VALUES (1, ?, ?, ?, ?, ?, ?, '[]', 0, ?, 0, 0)
                """
            try db.execute(sql: insert, arguments: ["g\u{1B}1", "Hello \u{1B}]0;PWNED\u{07} world", "\u{202E}Eve", #"["a\u001b[31m"]"#,
                                                    "<p>\u{9B}2J</p>", "<p>\u{202B}x\u{202C}</p>", 1])
            // Two ids that are one once cleaned: the cleaned row replaces the other.
            try db.execute(sql: insert, arguments: ["g1", "Other", nil, "[]", nil, nil, 0])
            try db.execute(sql: insert, arguments: ["clean", "Already clean", nil, "[]", nil, nil, 0])
        }
        try v1.close()

        let store = try FeedStore(path: path)
        let feed = try #require(try await store.feeds().first)
        #expect(feed.title == "Feed ]0;x")
        #expect(feed.category == "Cat")
        #expect(feed.lastError == "error [2J")
        let entries = try await store.entries(EntryQuery()).sorted { $0.entry.id < $1.entry.id }
        #expect(entries.map(\.entry.id) == ["clean", "g1"])
        let cleaned = entries[1]
        #expect(cleaned.entry.title == "Hello ]0;PWNED world")
        #expect(cleaned.entry.author == "Eve")
        #expect(cleaned.entry.categories == ["a[31m"])
        #expect(cleaned.entry.summary == "<p>2J</p>")
        #expect(cleaned.entry.content == "<p>\u{202B}x\u{202C}</p>")
        #expect(cleaned.isRead)
        #expect(entries[0].entry.title == "Already clean")
    }
}
