import Feeds
import Foundation
import ScrollworkTestSupport
import TerminalUI
import Testing
@testable import ScrollworkReader

/// Saved searches: in the settings file, in the feed list with their counts, and as a list.
@Suite struct QueryFeedTests {
    private let scratch = ScratchDirectory("scrollwork-query-feeds")

    @Test func theSettingsFileHoldsThemInItsOrder() throws {
        let settings = try ReaderSettings(toml: """
            refresh_interval = 10
            [query_feeds]
            "Unread Rust" = "rust is:unread"
            "Databases" = "sqlite OR postgres newer:30d"
            """, file: "config.toml")
        #expect(settings.queryFeeds == [QueryFeed(name: "Unread Rust", query: "rust is:unread"),
                                        QueryFeed(name: "Databases", query: "sqlite OR postgres newer:30d")])
        #expect(throws: SettingsError.self) { try ReaderSettings(toml: "[query_feeds]\nEmpty = \"\"", file: "config.toml") }
        #expect(throws: SettingsError.self) { try ReaderSettings(toml: "[query_feeds]\nNumber = 3", file: "config.toml") }
        // What `config` prints reads back the same.
        #expect(try ReaderSettings(toml: settings.toml(explained: true), file: "example").queryFeeds == settings.queryFeeds)
    }

    @Test func savingKeepsEveryOtherLineOfTheFile() throws {
        let file = scratch.path("config/config.toml")
        // No file yet: one is made.
        try ReaderSettings.saving(QueryFeed(name: "wal", query: "wal sqlite*"), in: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "[query_feeds]\n\"wal\" = \"wal sqlite*\"\n")
        // A file with comments and a table after: the line goes under the header.
        let text = """
            # my settings
            refresh_interval = 10 # minutes

            [query_feeds]
            "wal" = "wal sqlite*"

            [keys]
            down = "j"

            """
        try Data(text.utf8).write(to: file)
        try ReaderSettings.saving(QueryFeed(name: "He said \"hi\"", query: "\"hi there\" -spam"), in: file)
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved == text.replacingOccurrences(of: "[query_feeds]\n", with: "[query_feeds]\n\"He said \\\"hi\\\"\" = \"\\\"hi there\\\" -spam\"\n"))
        let settings = try ReaderSettings.load(from: file)
        #expect(settings.queryFeeds.map(\.name) == ["He said \"hi\"", "wal"])
        // A file that cannot be written says why, in the system's words.
        let blocked = scratch.path("a-file")
        try Data("x".utf8).write(to: blocked)
        do {
            try ReaderSettings.saving(QueryFeed(name: "x", query: "x"), in: blocked.appendingPathComponent("config.toml"))
            Issue.record("a settings file under a file was written")
        } catch {
            #expect(error.description.hasSuffix("config.toml: cannot write the settings: A file with the same name already exists."),
                    "\(error.description)")
        }
        // A file with a mistake is left as it is.
        try Data("refresh_interval = \"often\"\n".utf8).write(to: file)
        #expect(throws: SettingsError.self) { try ReaderSettings.saving(QueryFeed(name: "x", query: "x"), in: file) }
        #expect(try String(contentsOf: file, encoding: .utf8) == "refresh_interval = \"often\"\n")
    }

    @MainActor @Test func theListSavesShowsAndLeavesASavedSearch() {
        let list = ReaderStateTests.list(10)
        var options = ReaderOptions()
        options.settingsFile = URL(fileURLWithPath: "/tmp/unused.toml")
        var state = ReaderStateTests.state(list, options: options)
        // Nothing to save without a search.
        _ = state.update(ReaderStateTests.key("S"), list: list, now: .zero)
        #expect(state.message?.hasPrefix("no search to save") == true)
        _ = state.update(ReaderStateTests.key("/"), list: list, now: .zero)
        for character in "sqlite wa" { _ = state.update(ReaderStateTests.key(character), list: list, now: .zero) }
        _ = state.update(.input(.key(KeyPress(.enter))), list: list, now: .zero)
        // The last word matched as a prefix, and is saved as one.
        let saved = QueryFeed(name: "sqlite wa", query: "sqlite wa*")
        #expect(state.update(ReaderStateTests.key("S"), list: list, now: .zero) == [.saveQueryFeed(saved)])
        _ = state.update(.queryFeedSaved(saved, failure: nil), list: list, now: .zero)
        #expect(state.options.queryFeeds == [saved])
        #expect(state.message?.contains("saved “sqlite wa” as a feed") == true)

        // In the feed list, after all feeds, with its counts from the store.
        _ = state.update(ReaderStateTests.key("f"), list: list, now: .zero)
        _ = state.update(.feeds(FeedOverview(feeds: [], searches: [SearchCount(total: 12, unread: 5)])), list: list, now: .zero)
        guard case .feeds(let feeds) = state.screen else { Issue.record("no feed list"); return }
        #expect(feeds.entries.map(\.queryFeed) == [nil, saved])
        #expect(feeds.entries[1].unread == 5 && feeds.entries[1].total == 12)
        var buffer = CellBuffer(columns: 80, rows: 10)
        feeds.draw(status: "", in: buffer.layout, into: &buffer)
        #expect(buffer.text(ofRow: 3, trailingBlanks: false).contains("5  ⌕ sqlite wa"))
        #expect(buffer.text(ofRow: 4, trailingBlanks: false).contains("sqlite wa*"))

        // Enter shows its posts; its query is the list's, with no search typed.
        _ = state.update(ReaderStateTests.key("j"), list: list, now: .zero)
        let effects = state.update(.input(.key(KeyPress(.enter))), list: list, now: .zero)
        #expect(effects.contains { if case .follow(let filter, _) = $0 { filter.queryFeed == saved && filter.search.isEmpty } else { false } })
        #expect(state.heading(count: 3).contains("› ⌕ sqlite wa — 3 posts"))
        let query = state.filter.query(now: ReaderStateTests.epoch)
        #expect(query.search?.required == [[SearchQuery.Term(text: "sqlite")], [SearchQuery.Term(text: "wa", isPrefix: true)]])
        // Its words are marked in the list, as a typed search's are.
        #expect(state.searchHighlight?.ranges(in: "SQLite WAL").count == 2)
        // A search typed inside it narrows it.
        _ = state.update(ReaderStateTests.key("/"), list: list, now: .zero)
        for character in "rust" { _ = state.update(ReaderStateTests.key(character), list: list, now: .zero) }
        #expect(state.filter.query(now: ReaderStateTests.epoch).search?.required.count == 3)
        _ = state.update(.input(.key(KeyPress(.escape))), list: list, now: .zero)
        // Back leaves it for all posts.
        _ = state.update(ReaderStateTests.key("q"), list: list, now: .zero)
        #expect(state.filter.queryFeed == nil)
        #expect(state.running)
    }
}
