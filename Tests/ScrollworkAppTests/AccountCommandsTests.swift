import ArgumentParser
import Feeds
import FeedSync
import Foundation
import LoopbackHTTP
import ScrollworkReader
import ScrollworkTestSupport
import Testing
@testable import ScrollworkApp

/// `account`, `sync` and the feed commands with an account, against a real FreshRSS
/// (``FreshRSSServer``); skipped with the reason where it cannot start.
@Suite(.serialized) struct AccountCommandsTests {
    private let scratch = ScratchDirectory("scrollwork-account")
    private var database: String { scratch.path("data/scrollwork.sqlite").path }

    private func run<Command: AsyncParsableCommand>(_ type: Command.Type, _ arguments: [String]) async throws {
        var command = try type.parse(arguments + ["--database", database])
        try await command.run()
    }

    @Test func theJSONLineHasEveryCountAndTheError() throws {
        var summary = SyncSummary()
        summary.new = 42
        summary.markedRead = 7
        let line = SyncCommand.json(SyncRuntime.Outcome(summary: summary, failure: SyncFailure(step: .items, error: .status(500))))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])

        #expect(Set(object.keys) == ["new", "markedRead", "markedUnread", "starred", "unstarred", "pushed", "received", "requests", "error"])
        #expect(object["new"] as? Int == 42)
        #expect(object["error"] as? String == "new items: the server answered HTTP 500")
    }

    @Test func aPasswordCommandGivesItsFirstLineAndAFailingOneSaysSo() {
        #expect((try? PasswordSource.run("printf 'secret\\nmore'").get())?.revealed == "secret")
        guard case .failure(let failed) = PasswordSource.run("echo secret; exit 3") else {
            Issue.record("a failing command gave a password")
            return
        }
        #expect(failed.description == "the password command exited with status 3")
        #expect(!failed.description.contains("secret"))
        guard case .failure(let empty) = PasswordSource.run("true") else {
            Issue.record("an empty output gave a password")
            return
        }
        #expect(empty.description == "the password command printed nothing")
    }

    @Test func theAccountAndItsTokenLiveBesideTheirDatabase() {
        let database = URL(fileURLWithPath: "/data/news.sqlite")

        #expect(AccountSync.accountFile(for: database).path == "/data/news.account.json")
        #expect(AccountSync.tokenFile(for: database).url.path == "/data/news.account-token")
    }

    @Test(.enabled(if: FreshRSSServer.isAvailable, "FreshRSS cannot start here"))
    func anAccountSyncsSubscribesAndIsRemovedKeepingTheFeeds() async throws {
        let feed = #"<rss version="2.0"><channel><title>Loop</title><item><guid>a</guid><title>Alpha</title></item><item><guid>b</guid><title>Beta</title></item></channel></rss>"#
        let feeds = try await LoopbackHTTPServer.start { _, _ in .text(200, feed, headers: [("Content-Type", "application/rss+xml")]) }
        let server = try FreshRSSServer.start()
        defer { server.stop() }
        let base = server.greaderURL.deletingLastPathComponent().deletingLastPathComponent().absoluteString

        await #expect(throws: ExitCode.failure) {
            try await run(AccountCommand.Add.self, ["freshrss", base, "--user", server.user, "--password-command", "echo wrong"])
        }
        #expect(try AccountSync.account(for: URL(fileURLWithPath: database)) == nil)

        try await run(AccountCommand.Add.self, ["freshrss", base, "--user", server.user, "--password-command", "echo \(server.apiPassword)"])
        try await run(AddCommand.self, [feeds.url("/loop.xml").absoluteString, "--category", "Loops"])
        let store = try FeedStore(path: database)
        let entries = try await store.entries(EntryQuery(limit: 10))
        #expect(Set(entries.map(\.entry.title)) == ["Alpha", "Beta"])
        #expect(try await store.feeds().map(\.category) == ["Loops"])

        try await store.setRead(true, entries: entries.map(\.id))
        try await run(SyncCommand.self, ["--json"])
        #expect(try await store.queuedStateChanges().isEmpty)
        try await run(AccountCommand.List.self, [])

        try await run(AccountCommand.Remove.self, [])
        #expect(try AccountSync.account(for: URL(fileURLWithPath: database)) == nil)
        #expect(try await store.feeds().count == 1)
        #expect(try await store.feeds().first?.remoteID == nil)
        try await feeds.stop()
    }
}
