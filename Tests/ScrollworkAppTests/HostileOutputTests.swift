import Feeds
import Foundation
import GRDB
import ScrollworkTestSupport
import Testing

/// The real `scrollwork` binary, run on feeds that try to drive the terminal: nothing it prints
/// for people carries a byte a terminal would act on, whether the text came through ingest or
/// straight from a database another program wrote.
@Suite struct HostileOutputTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private var database: String { directory.appendingPathComponent("db.sqlite").path }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The feed files of every format.
    private func feedFiles() throws -> [String] {
        [
            try write(HostileFeeds.rss(), "rss.xml"),
            try write(HostileFeeds.rssLatin1(), "latin1.xml"),
            try write(HostileFeeds.atom(), "atom.xml"),
            try write(HostileFeeds.jsonFeed(), "feed.json"),
        ]
    }

    @discardableResult
    private func scrollwork(_ arguments: [String], _ comment: String) throws -> BuiltExecutable.Result {
        let result = try BuiltExecutable.run("scrollwork", arguments)
        #expect(!HostileFeeds.outputActsOnTerminal(result.standardOutput), "stdout of \(comment): \(result.output.debugDescription)")
        #expect(!HostileFeeds.outputActsOnTerminal(result.standardError), "stderr of \(comment): \(result.error.debugDescription)")
        return result
    }

    @Test func everyCommandPrintsHostileFeedsInertly() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try feedFiles()
        for file in files {
            #expect(try scrollwork(["add", file, "--database", database], "add").status == 0)
        }
        let opml = try write(HostileFeeds.opml { _ in "file://" + files[0] }, "list.opml")
        try scrollwork(["import", opml, "--database", database], "import")
        let refresh = try scrollwork(["refresh", "--database", database], "refresh")
        #expect(refresh.status == 0, "\(refresh.error)")
        try scrollwork(["refresh", "--json", "--database", database], "refresh --json")
        try scrollwork(["export", "--database", database], "export")

        let list = try scrollwork(["list", "--limit", "1000", "--database", database], "list")
        #expect(list.output.contains("Hello ]0;PWNED world"))
        #expect(list.output.contains("Hello gnp.exe isolated world"))

        // --json stays exact JSON, and what it holds is clean because ingest cleaned it.
        let json = try scrollwork(["list", "--json", "--limit", "1000", "--database", database], "list --json")
        let lines = json.output.split(separator: "\n")
        #expect(lines.count > HostileFeeds.payloads.count * 3)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let title = try #require(object["title"] as? String)
            #expect(HostileFeeds.terminalControls(in: title).isEmpty, "\(title.debugDescription)")
            #expect(title.contains("Hello") || title.contains("Huge") || title == "x", "\(title.debugDescription)")
        }

        let parse = try scrollwork(["parse"] + files, "parse")
        #expect(parse.status == 0)
        #expect(parse.output.contains("Hello ]0;PWNED world"))
        let parseJSON = try scrollwork(["parse", "--json"] + files, "parse --json")
        for line in parseJSON.output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let entries = try #require(object["entries"] as? [[String: Any]])
            for entry in entries {
                for case let text as String in entry.values {
                    #expect(HostileFeeds.terminalControls(in: text).isEmpty, "\(text.debugDescription)")
                }
            }
        }
    }

    /// A database written by another program (or a build before the fix) holds raw control
    /// characters; the output layer alone must keep them from the terminal.
    @Test func listShowsControlsFromARawDatabaseVisibly() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try write(HostileFeeds.rss(), "rss.xml")
        try scrollwork(["add", file, "--database", database], "add")
        try scrollwork(["refresh", "--database", database], "refresh")
        let raw = try DatabaseQueue(path: database)
        try raw.write { db in
            try db.execute(sql: "UPDATE entry SET title = ?", arguments: ["Hello \u{1B}]0;PWNED\u{07} \u{9B}2J world"])
            try db.execute(sql: "UPDATE feed SET title = ?", arguments: ["Feed \u{1B}[2J"])
        }
        try raw.close()
        let list = try scrollwork(["list", "--database", database], "list")
        #expect(list.output.contains("Hello ^[]0;PWNED^G \u{FFFD}2J world  — Feed ^[[2J"))
        let json = try scrollwork(["list", "--json", "--database", database], "list --json")
        #expect(json.output.contains(#""title": "Hello \u001b]0;PWNED\u0007 \u009b2J world""#))
    }
}
