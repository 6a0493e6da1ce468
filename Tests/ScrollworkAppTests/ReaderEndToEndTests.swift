import Feeds
import Foundation
import ScrollworkTestSupport
import TerminalUI
import Testing

/// `scrollwork` as a person meets it on a fresh machine, in a pseudo-terminal: with no
/// subscriptions it reads the demo, the list appears with its thumbnails, keys move and open, a
/// refresh runs, and quitting gives the terminal back. Bare, as the README runs it, so the start
/// that bypasses the command-line parser is the one tested.
@Suite(.serialized) struct ReaderEndToEndTests {
    @Test(.timeLimit(.minutes(2 * HangGuard.scale)))
    func theDemoShowsPostsWithThumbnailsOpensOneAndQuitsCleanly() throws {
        let scratch = ScratchDirectory("scrollwork-reader")
        let child = try PseudoTerminalChild(
            executable: "scrollwork", arguments: [], columns: 100, rows: 30,
            environment: ["XDG_DATA_HOME": scratch.url.path, "TMPDIR": scratch.url.path, "COLORTERM": "truecolor"])
        var screen = Screen(columns: 100, rows: 30)
        // The list fills as the refresh stores its batches; pictures arrive over HTTP, are
        // decoded and drawn as half blocks.
        try screen.wait(for: child, "the list of 500 posts with thumbnails") { screen in
            screen.text(ofRow: 0, trailingBlanks: false).contains("500 posts") && screen.text(ofRow: 1, trailingBlanks: false).contains("▀")
        }
        #expect(child.isRaw)
        let header = screen.terminal.screen.text(ofRow: 0, trailingBlanks: false)
        #expect(header.contains("Scrollwork demo"))
        // The newest post of the demo's first generation is on the first row of the list.
        let firstTitle = screen.terminal.screen.text(ofRow: 1, trailingBlanks: false)
        #expect(firstTitle.contains("Postcards from the landing zone from a hilltop"), "\(firstTitle)")
        #expect(firstTitle.hasPrefix("●"), "unread")

        // Move to the second post and open it: its title heads the article.
        let secondTitle = screen.terminal.screen.text(ofRow: 6, trailingBlanks: false).split(separator: " ").suffix(3).joined(separator: " ")
        child.type("j")
        child.type("j")
        child.type("\r")
        try screen.wait(for: child, "the article") { $0.text(ofRow: 29, trailingBlanks: false).contains("q back") }
        #expect(screen.terminal.screen.text(ofRow: 1, trailingBlanks: false).contains(secondTitle), "\(screen.terminal.screen.text(ofRow: 1, trailingBlanks: false)) / \(secondTitle)")
        #expect(screen.terminal.screen.text(ofRow: 0, trailingBlanks: false).hasPrefix(" Scrollwork demo"), "the title bar names the feed")

        child.type("q")
        try screen.wait(for: child, "the list again") { $0.text(ofRow: 0, trailingBlanks: false).contains("500 posts") }
        child.type("r")
        try screen.wait(for: child, "a finished refresh") { $0.text(ofRow: 29, trailingBlanks: false).contains("refreshed 1 feed") }
        child.type("q")
        let status = try child.waitForStatusChange()
        #expect(status == 0, "exit status \(status)")
        #expect(child.isRestored, "the terminal's modes are back")
        screen.catchUp(with: child)
        #expect(!screen.terminal.privateModes.contains(1049), "the alternate screen is left")
        #expect(screen.terminal.unsupported.isEmpty, "\(screen.terminal.unsupported)")
        // The demo keeps its files in its own folder, gone with it: the user's data folder is
        // not made.
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("scrollwork").path))
    }

    @Test(.timeLimit(.minutes(2 * HangGuard.scale)))
    func storedPostsAreOnTheReadersFirstFrame() async throws {
        let scratch = try await Self.dataFolder("scrollwork-reader-stored") { index, published in
            FeedEntry(id: "s\(index)", title: "Stored post \(index)", published: published)
        }
        let child = try PseudoTerminalChild(
            executable: "scrollwork", arguments: [], columns: 100, rows: 30,
            environment: ["XDG_DATA_HOME": scratch.url.path, "XDG_CONFIG_HOME": scratch.url.path])
        var screen = Screen(columns: 100, rows: 30)
        try screen.wait(for: child, "the stored posts") { $0.text(ofRow: 1, trailingBlanks: false).contains("Stored post 0") }
        #expect(screen.terminal.screen.text(ofRow: 0, trailingBlanks: false).contains("40 posts"))
        // The posts came with the first frame: no frame of an empty list was drawn before.
        let written = String(decoding: child.output, as: UTF8.self)
        #expect(!written.contains("— 0 posts"), "an empty list was drawn first")
        #expect(!written.contains("No posts yet"), "an empty list was drawn first")
        child.type("q")
        let status = try child.waitForStatusChange()
        #expect(status == 0, "exit status \(status)")
    }

    @Test(.timeLimit(.minutes(2 * HangGuard.scale)))
    func typingASearchNarrowsTheListAndMarksTheWords() async throws {
        let scratch = try await Self.dataFolder("scrollwork-reader-search") { index, published in
            FeedEntry(id: "s\(index)", title: index == 7 ? "Tuning the write-ahead log" : "Stored post \(index)", published: published,
                      summary: index == 21 ? "<p>SQLite keeps a <b>WAL</b> beside the database</p>" : "<p>Nothing to see</p>")
        }
        let child = try PseudoTerminalChild(
            executable: "scrollwork", arguments: [], columns: 100, rows: 30,
            environment: ["XDG_DATA_HOME": scratch.url.path, "XDG_CONFIG_HOME": scratch.url.path])
        var screen = Screen(columns: 100, rows: 30)
        try screen.wait(for: child, "the stored posts") { $0.text(ofRow: 0, trailingBlanks: false).contains("40 posts") }
        child.type("/")
        for key in "write-ahe" { child.type(String(key)) }
        try screen.wait(for: child, "the post whose title matches") { screen in
            screen.text(ofRow: 0, trailingBlanks: false).contains("1 post matching “write-ahe”")
                && screen.text(ofRow: 1, trailingBlanks: false).contains("Tuning the write-ahead log")
        }
        #expect(screen.terminal.screen.text(ofRow: 29, trailingBlanks: false).hasPrefix(" /write-ahe▏"))
        // The words matched are marked, in reverse video here (the child's environment names no
        // colours): “write-ahead”, since the prefix “ahe” begins “ahead”.
        let title = screen.terminal.screen.text(ofRow: 1, trailingBlanks: false)
        let start = title.distance(from: title.startIndex, to: title.range(of: "write-ahead")!.lowerBound)
        let marked = (0..<100).filter { screen.terminal.screen[1, $0].style.attributes.contains(.reverse) }
        #expect(marked == Array(start..<(start + 11)), "\(marked)")

        // Another search, in the text: the excerpt's word is marked too.
        for _ in 0..<9 { child.type("\u{7F}") }
        for key in "wal sqlite" { child.type(String(key)) }
        try screen.wait(for: child, "the post whose text matches") { screen in
            screen.text(ofRow: 0, trailingBlanks: false).contains("1 post matching “wal sqlite”")
                && screen.text(ofRow: 1, trailingBlanks: false).contains("Stored post 21")
        }
        let excerpt = screen.terminal.screen.text(ofRow: 3, trailingBlanks: false)
        let wal = excerpt.distance(from: excerpt.startIndex, to: excerpt.range(of: "WAL")!.lowerBound)
        #expect(screen.terminal.screen[3, wal].style.attributes.contains(.reverse), "\(excerpt)")
        // Enter keeps the search; Escape clears it and every post is back.
        child.type("\r")
        try screen.wait(for: child, "the list's hint") { !$0.text(ofRow: 29, trailingBlanks: false).contains("▏") }
        child.type("\u{1B}")
        try screen.wait(for: child, "every post again") { $0.text(ofRow: 0, trailingBlanks: false).contains("40 posts") }
        child.type("q")
        let status = try child.waitForStatusChange()
        #expect(status == 0, "exit status \(status)")
    }

    /// A data folder (`XDG_DATA_HOME`) whose store holds 40 posts, a minute apart, newest
    /// first, made by `post` from their index and date, of a feed that cannot be fetched: what
    /// the reader shows is what is stored.
    static func dataFolder(_ name: String, _ post: (Int, Date) -> FeedEntry) async throws -> ScratchDirectory {
        let scratch = ScratchDirectory(name)
        let folder = scratch.url.appendingPathComponent("scrollwork")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try FeedStore(path: folder.appendingPathComponent("scrollwork.sqlite").path)
        let feed = try await store.addFeed(url: URL(string: "http://127.0.0.1:9/feed.xml")!, title: "Stored")
        let epoch = Date(timeIntervalSince1970: 1_790_000_000)
        _ = try await store.upsert(entries: (0..<40).map { post($0, epoch.addingTimeInterval(-60 * Double($0))) }, feed: feed.id, now: epoch)
        return scratch
    }

    /// The child's screen, as the in-memory terminal interprets what it wrote.
    struct Screen {
        var terminal: InMemoryTerminal
        private var seen = 0

        init(columns: Int, rows: Int) {
            terminal = InMemoryTerminal(columns: columns, rows: rows)
        }

        /// Applies what the child wrote since the last look.
        mutating func catchUp(with child: PseudoTerminalChild) {
            terminal.apply(Array(child.output[seen...]))
            seen = child.output.count
        }

        /// Reads the child's output until the screen satisfies `condition`. The limit only
        /// keeps a broken reader from hanging the tests; nothing is timed.
        mutating func wait(for child: PseudoTerminalChild, _ what: String, _ condition: (CellBuffer) -> Bool) throws {
            let limit = ContinuousClock.now + .seconds(60)
            while true {
                catchUp(with: child)
                if condition(terminal.screen) { return }
                guard ContinuousClock.now < limit else {
                    throw PseudoTerminalChild.Failed("never saw \(what); the screen:\n"
                        + (0..<terminal.screen.rows).map { terminal.screen.text(ofRow: $0, trailingBlanks: false) }.joined(separator: "\n"))
                }
                child.drain(waitingMilliseconds: 100)
            }
        }
    }
}
