@testable import Feeds
import Foundation
import GRDB
import ScrollworkTestSupport
import Testing

/// `scrollwork search` end to end on the built binary.
@Suite struct SearchCommandTests {
    private let scratch = ScratchDirectory("scrollwork-search")
    private var database: String { scratch.path("data/db.sqlite").path }

    /// Blocks its thread on the child processes, so the tests are synchronous: an async test
    /// would hold a thread of the cooperative pool.
    private func storeWithPosts() throws {
        let items = [
            ("1", "SQLite and the write-ahead log", "<p>Checkpoints &amp; pages</p>", "Mon, 02 Mar 2026 10:00:00 GMT"),
            ("2", "A café in Paris", "<p>Espresso, not SQLite</p>", "Tue, 03 Mar 2026 10:00:00 GMT"),
            ("3", "Vacuum", "<p>Reclaiming <b>pages</b></p>", "Wed, 04 Mar 2026 10:00:00 GMT"),
        ].map { "<item><guid>\($0)</guid><link>https://db.example/\($0)</link><title>\($1)</title><description><![CDATA[\($2)]]></description><pubDate>\($3)</pubDate></item>" }
        let feed = try scratch.file(#"<rss version="2.0"><channel><title>Databases</title>\#(items.joined())</channel></rss>"#, suffix: "xml").path
        for arguments in [["add", feed], ["refresh"]] {
            let result = try BuiltExecutable.run("scrollwork", arguments + ["--database", database])
            #expect(result.status == 0, "\(arguments): \(result.error)")
        }
    }

    private func search(_ arguments: [String]) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run("scrollwork", ["search", "--database", database] + arguments)
    }

    @Test func printsRankedResultsAndJSON() throws {
        try storeWithPosts()
        let ranked = try search(["sqlite"])
        #expect(ranked.status == 0, "\(ranked.error)")
        // The refresh left its posts waiting for the index; the search indexed them first.
        #expect(ranked.error.contains("scrollwork: indexing new posts for search: 3 of 3 posts"), "\(ranked.error)")
        #expect(!(try search(["sqlite"]).error.contains("indexing")), "indexed once")
        let titles = ranked.output.split(separator: "\n").filter { $0.hasPrefix("2026") }
        #expect(titles.count == 2)
        #expect(titles.first?.contains("SQLite and the write-ahead log") == true, "the title match ranks first: \(ranked.output)")

        let byDate = try search(["pages", "--by", "date"])
        #expect(byDate.output.split(separator: "\n").filter { $0.hasPrefix("2026") }.map { $0.contains("Vacuum") } == [true, false])

        let json = try search(["cafe", "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["title"] as? String == "A café in Paris")
        #expect(object?["matches"] as? [[Int]] == [[2, 6]])
        #expect(object?["feed"] as? String == "Databases")
        #expect(object?["link"] as? String == "https://db.example/2")

        // A leading -word, and what the query left out.
        let excluded = try search(["sqlite", "-paris", "is:nice"])
        #expect(excluded.status == 0)
        #expect(excluded.output.contains("write-ahead") && !excluded.output.contains("Paris"))
        #expect(excluded.error.contains("left out: “is:nice” is not a state"))

        let nothing = try search(["is:nice"])
        #expect(nothing.status == 2)
        #expect(nothing.error.contains("nothing left to search for"))
        let none = try search(["zzz"])
        #expect(none.status == 0)
        #expect(none.error.contains("no post matches"))
        // FTS5's syntax typed as text is text.
        let hostile = try search([#"NEAR("a" b) OR * ^ {title}: "#])
        #expect(hostile.status == 0, "\(hostile.error)")
    }

    @Test func aStoreFromBeforeTheIndexIsIndexedWithProgress() throws {
        try FileManager.default.createDirectory(atPath: scratch.path("data").path, withIntermediateDirectories: true)
        do {
            let pool = try DatabasePool(path: database)
            try FeedStore.migrator.migrate(pool, upTo: FeedStore.SchemaVersion.v6OneDateIndex.rawValue)
            try pool.write { db in
                try db.execute(sql: "INSERT INTO feed (url, title) VALUES ('https://example.com/feed', 'Old')")
                try db.execute(sql: """
                    INSERT INTO entry (feedId, entryId, title, categories, enclosures, truncated, firstSeen, summary)
                    VALUES (1, 'a', 'Written before search', '[]', '[]', 0, 0, '<p>an old word</p>')
                    """)
            }
        }
        let found = try search(["old", "word"])
        #expect(found.status == 0, "\(found.error)")
        #expect(found.output.contains("Written before search"))
        #expect(found.error.contains("building the search index: 0 of 1 posts"))
        #expect(found.error.contains("building the search index: 1 of 1 posts"))
    }
}
