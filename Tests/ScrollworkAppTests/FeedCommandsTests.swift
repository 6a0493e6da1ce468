import ArgumentParser
import Feeds
import Foundation
import ScrollworkTestSupport
import Testing
@testable import ScrollworkApp

/// The feed commands end to end on a temporary database and feed files.
@Suite struct FeedCommandsTests {
    private let scratch = ScratchDirectory("scrollwork-commands")
    private var database: String { scratch.path("data/db.sqlite").path }

    private func feedFile(_ titles: [String]) throws -> String {
        let items = titles.enumerated().map { "<item><guid>\($0)</guid><title>\($1)</title></item>" }.joined()
        return try scratch.file(#"<rss version="2.0"><channel><title>Mine</title>\#(items)</channel></rss>"#, suffix: "xml").path
    }

    private func run<Command: AsyncParsableCommand>(_ type: Command.Type, _ arguments: [String]) async throws {
        var command = try type.parse(arguments + ["--database", database])
        try await command.run()
    }

    @Test func addRefreshListRemove() async throws {
        let path = try feedFile(["First post", "Second post"])
        try await run(AddCommand.self, [path, "--category", "Blogs/Friends"])
        await #expect(throws: ExitCode.failure) { try await run(AddCommand.self, [path]) }
        try await run(RefreshCommand.self, [])
        try await run(ListCommand.self, ["--json"])
        try await run(ExportCommand.self, [])
        try await run(RemoveCommand.self, [path])
        await #expect(throws: ExitCode.failure) { try await run(RemoveCommand.self, [path]) }
        #expect(FileManager.default.fileExists(atPath: database))
    }

    @Test func refreshExitsOneWhenAFeedFails() async throws {
        try await run(AddCommand.self, ["/nonexistent/feed.xml"])
        await #expect(throws: ExitCode.failure) { try await run(RefreshCommand.self, ["--json"]) }
    }

    @Test func refreshReportsEachFeedAsALine() {
        let line = RefreshCommand.json(.init(
            feed: .init(id: 1, url: URL(string: "https://a.example/feed")!),
            status: .refreshed(new: 2, modified: 1, unchanged: 7, malformed: false), movedTo: nil))
        #expect(line == #"{"feed": "https://a.example/feed", "new": 2, "modified": 1, "unchanged": 7, "malformed": false}"#)
        let failed = RefreshCommand.line(.init(
            feed: .init(id: 1, url: URL(string: "https://a.example/feed")!), status: .failed("HTTP 500"), movedTo: nil))
        #expect(failed == "https://a.example/feed: error: HTTP 500")
    }

    @Test func commandsThatOnlyReadCreateNoDatabase() async throws {
        for command in [["list"], ["refresh"], ["export"], ["remove", "/tmp/feed.xml"]] {
            var parsed = try ScrollworkCommand.parseAsRoot(command + ["--database", database])
            guard var asyncCommand = parsed as? AsyncParsableCommand else {
                try parsed.run()
                continue
            }
            await #expect(throws: ExitCode.failure, "\(command)") { try await asyncCommand.run() }
            #expect(!FileManager.default.fileExists(atPath: database), "\(command) created a database")
            #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: database).deletingLastPathComponent().path))
        }
        let path = try feedFile(["One"])
        try await run(AddCommand.self, [path])
        #expect(FileManager.default.fileExists(atPath: database), "add creates the database")
    }

    @Test func badAddressesAreBadUsage() {
        #expect(throws: (any Error).self) { try AddCommand.parse(["ftp://example.com/feed"]) }
        #expect(throws: (any Error).self) { try ListCommand.parse(["--limit", "0"]) }
    }

    @Test func importSubscribesToEveryOutlineOnce() async throws {
        // A document never subscribes a file feed (`add PATH` does), so the third is skipped.
        let third = try feedFile(["C"])
        let opml = scratch.path("list.opml")
        try Data("""
            <?xml version="1.0"?><opml version="2.0"><body>
            <outline text="Folder"><outline type="rss" text="one" xmlUrl="https://example.com/one.xml"/></outline>
            <outline type="rss" text="two" xmlUrl="http://example.org/two.xml"/>
            <outline type="rss" text="three" xmlUrl="file://\(third)"/>
            </body></opml>
            """.utf8).write(to: opml)
        try await run(ImportCommand.self, [opml.path])
        try await run(ImportCommand.self, [opml.path])
        let store = try StoreOptions.parse(["--database", database]).open()
        let feeds = try await store.feeds()
        #expect(feeds.count == 2)
        #expect(feeds.contains { $0.category == "Folder" })
        #expect(!feeds.contains { $0.url.isFileURL })
    }

    @Test func aDatabaseOneCanOnlyReadIsListedAndExported() async throws {
        try await run(AddCommand.self, [try feedFile(["Read me"])])
        try await run(RefreshCommand.self, [])
        let folder = URL(fileURLWithPath: database).deletingLastPathComponent().path
        // Read-only for whoever runs the commands: as root (who may write anything), another
        // user; as anyone else, the file and its folder without write permission.
        var prefix: [String] = []
        if getuid() == 0 {
            prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            chmod(folder, 0o755)
            chmod(database, 0o644)
        } else {
            chmod(database, 0o444)
            chmod(folder, 0o555)
        }
        defer { chmod(folder, 0o755) }

        let list = try BuiltExecutable.run("scrollwork", ["list", "--database", database], through: prefix)
        let export = try BuiltExecutable.run("scrollwork", ["export", "--database", database], through: prefix)

        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("Read me"))
        #expect(export.status == 0, "\(export.error)")
        #expect(export.output.contains("<opml"))
    }
}

/// Categories nested 100,000 levels deep, from every way in, end to end on the built binary:
/// a clear error each time, never a crash.
@Suite struct DeepCategoryTests {
    private let scratch = ScratchDirectory("scrollwork-deep-categories")
    private var database: String { scratch.path("db.sqlite").path }

    private func scrollwork(_ arguments: [String]) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run("scrollwork", arguments + ["--database", database])
    }

    private func feedFile() throws -> String {
        try scratch.file(#"<rss version="2.0"><channel><title>Deep</title></channel></rss>"#, suffix: "xml").path
    }

    @Test func exportOfADatabaseWithACategory100000LevelsDeepEndsWithAClearError() async throws {
        let feed = try feedFile()
        let deep = Array(repeating: "a", count: 100_000).joined(separator: "/")
        let store = try StoreOptions.parse(["--database", database]).open()
        _ = try await store.addFeed(url: URL(fileURLWithPath: feed), category: deep)
        _ = try await store.addFeed(url: URL(string: "https://fine.example/feed")!, category: "News")

        let export = try scrollwork(["export"])
        #expect(export.status == 1, "\(export.error)")
        #expect(export.error == """
            scrollwork export: file://\(feed): its category is 100000 levels deep; categories nest at most \(OPML.maxCategoryDepth) levels; \
            remove the feed and add it again with a shorter --category\n
            """)
        #expect(export.output.isEmpty)
    }

    @Test func addRefusesACategoryDeeperThanTheLimit() throws {
        // 60,000 levels: as deep as one command-line argument can go (128 KiB on Linux).
        let add = try scrollwork(["add", try feedFile(), "--category", Array(repeating: "a", count: 60_000).joined(separator: "/")])
        #expect(add.status != 0)
        #expect(add.error.contains("--category is 60000 folders deep; categories nest at most \(OPML.maxCategoryDepth) levels"), "\(add.error)")
        let atTheLimit = try scrollwork(["add", try feedFile(), "--category", Array(repeating: "a", count: OPML.maxCategoryDepth).joined(separator: "/")])
        #expect(atTheLimit.status == 0, "\(atTheLimit.error)")
        let export = try scrollwork(["export"])
        #expect(export.status == 0, "\(export.error)")
    }

    @Test func importRefusesOutlinesNestedDeeperThanTheLimit() throws {
        let feed = try feedFile()
        let opml = try scratch.file(
            #"<?xml version="1.0"?><opml version="2.0"><body>"# + "\n" + String(repeating: #"<outline text="a">"#, count: 100_000)
                + #"<outline text="deep" xmlUrl="https://example.com/\#(URL(fileURLWithPath: feed).lastPathComponent)"/>"# + String(repeating: "</outline>", count: 100_000) + "</body></opml>",
            suffix: "opml")
        let result = try scrollwork(["import", opml.path])
        #expect(result.status == 1)
        #expect(result.error == """
            scrollwork import: \(opml.path): unreadable OPML: line 2: folders nest more than \(OPML.maxCategoryDepth) levels deep, \
            the most a category may\n
            """)
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func importCountsTheFoldersThatSlashesInANameMake() throws {
        // A web feed: a document never subscribes a file one.
        let feed = "https://example.com/deep.xml"
        let name = Array(repeating: "a", count: 50_000).joined(separator: "/")
        let opml = try scratch.file(
            #"<opml version="2.0"><body><outline text="\#(name)"><outline text="deep" xmlUrl="\#(feed)"/></outline></body></opml>"#,
            suffix: "opml")
        let result = try scrollwork(["import", opml.path])
        #expect(result.status == 1)
        #expect(result.error.contains("\(opml.path): \(feed): its category is 50000 levels deep"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
