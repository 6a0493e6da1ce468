import ArgumentParser
import Feeds
import Foundation
import ScrollworkTestSupport
import Testing
@testable import ScrollworkApp

@Suite("scrollwork parse")
struct ParseCommandTests {
    private let scratch = ScratchDirectory("scrollwork-parse")

    /// Writes `text` to a fresh temporary file and returns its path.
    private func file(_ text: String, suffix: String = "xml") throws -> String {
        try scratch.file(text, suffix: suffix).path
    }

    static let rss = """
        <rss version="2.0"><channel><title>Quote "this"</title><link>https://q.example/</link>
        <item><title>One</title><link>/one</link><guid>g1</guid><pubDate>Sat, 02 Mar 2024 10:00:00 +0100</pubDate>
        <description>&lt;p&gt;Hi &lt;img src="https://q.example/i.png"&gt;&lt;/p&gt;</description><author>Ann</author></item>
        <item><title>Two</title></item>
        </channel></rss>
        """

    @Test func printsOneJSONLinePerFileWithTheDocumentedKeys() throws {
        let path = try file(Self.rss)
        let line = ParseCommand.jsonLine(file: path, ParseCommand.parse(path, with: FeedDocumentParser()))
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["file"] as? String == path)
        #expect(object["format"] as? String == "rss2")
        #expect(object["title"] as? String == "Quote \"this\"")
        #expect(object["link"] as? String == "https://q.example/")
        #expect(object["malformed"] as? Bool == false)
        #expect(object["assumedEncoding"] is NSNull)
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.count == 2)
        #expect(Set(entries[0].keys) == ["id", "title", "link", "published", "updated", "author", "summary", "thumbnail"])
        #expect(entries[0]["id"] as? String == "g1")
        // A relative link in a feed read from a file resolves against the site, not the file.
        #expect(entries[0]["link"] as? String == "https://q.example/one")
        #expect(entries[0]["published"] as? String == "2024-03-02T09:00:00Z")
        #expect(entries[0]["updated"] is NSNull)
        #expect(entries[0]["author"] as? String == "Ann")
        #expect(entries[0]["thumbnail"] as? String == "https://q.example/i.png")
        #expect(entries[1]["published"] is NSNull)
        #expect((entries[1]["id"] as? String)?.hasPrefix("title:") == true)
    }

    @Test func saysWhichEncodingItAssumedForAnEncodingNobodyKnows() throws {
        let path = scratch.path("dbcs.xml").path
        let bytes = Array(#"<?xml version="1.0" encoding="dbcs"?><rss version="2.0"><channel><title>Caf"#.utf8) + [0xE9]
            + Array("</title><item><guid>1</guid><title>One</title></item></channel></rss>".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let outcome = ParseCommand.parse(path, with: FeedDocumentParser())
        guard case .parsed(let feed) = outcome else {
            Issue.record("not parsed: \(outcome)")
            return
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ParseCommand.jsonLine(file: path, outcome).utf8)) as? [String: Any])

        #expect(object["assumedEncoding"] as? String == "windows-1252")
        #expect(object["title"] as? String == "Café")
        #expect(ParseCommand.summary(file: path, feed).hasPrefix(#"\#(path): rss2, "Café", 1 entry (unknown encoding "dbcs", read as windows-1252)"#))
    }

    @Test func reportsAFileThatIsNotAFeedAsAnErrorLine() throws {
        let page = try file("<!DOCTYPE html><html><head><link rel=alternate type=application/rss+xml href=/rss></head></html>", suffix: "html")
        let missing = "/nonexistent/\(UUID().uuidString).xml"
        for path in [page, missing] {
            let line = ParseCommand.jsonLine(file: path, ParseCommand.parse(path, with: FeedDocumentParser()))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["file", "error"])
            #expect(object["file"] as? String == path)
        }
        let pageLine = ParseCommand.jsonLine(file: page, ParseCommand.parse(page, with: FeedDocumentParser()))
        #expect(pageLine.contains("file:///rss"))
    }

    @Test func exitsWithOneWhenAnyFileFails() throws {
        let good = try file(Self.rss)
        var command = try #require(try ParseCommand.parseAsRoot(["--json", good]) as? ParseCommand)
        try command.run()
        command = try #require(try ParseCommand.parseAsRoot(["--json", good, "/nonexistent/feed.xml"]) as? ParseCommand)
        #expect(throws: ExitCode(1)) { try command.run() }
    }

    /// `ScrollworkCommand.runAsMain` turns validation failures into exit status 2.
    @Test func noFilesIsBadUsage() {
        do {
            _ = try ScrollworkCommand.parseAsRoot(["parse", "--json"])
            Issue.record("parsed without a file")
        } catch {
            #expect(ScrollworkCommand.exitCode(for: error) == .validationFailure)
        }
    }

    @Test func theSummaryListsEntriesNewestFirst() throws {
        let path = try file(Self.rss)
        guard case .parsed(let feed) = ParseCommand.parse(path, with: FeedDocumentParser()) else {
            Issue.record("the fixture did not parse")
            return
        }
        let lines = ParseCommand.summary(file: "f.xml", feed).split(separator: "\n")
        #expect(lines[0] == "f.xml: rss2, \"Quote \"this\"\" <https://q.example/>, 2 entries")
        #expect(lines[1] == "  2024-03-02T09:00:00Z  One")
        #expect(lines[2] == "  undated               Two")
    }

    @Test func isRegisteredWithTheRootCommand() {
        #expect(ScrollworkCommand.configuration.subcommands.map { ObjectIdentifier($0) }.contains(ObjectIdentifier(ParseCommand.self)))
    }
}
