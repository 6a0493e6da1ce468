import ContentLoading
@testable import Feeds
import FeedsTestSupport
import Foundation
import ImageFixtures
import ScrollworkTestSupport
import TerminalUI
import Testing
@testable import ScrollworkReader

/// The reader driven by hand: an in-memory terminal, frames fired by the test on a clock it
/// moves, and a real store. Events the store sends are pumped one at a time, so nothing waits
/// on a timer.
@MainActor
@Suite struct ReaderTests {
    /// A loader with no images: these posts have none, and nothing may reach a network.
    struct NoImages: DataLoading {
        struct Missing: Error {}
        func loadData(for key: URL) async throws -> [UInt8] { throw Missing() }
    }

    /// Pictures of even-numbered posts load; the others fail.
    struct EvenImages: DataLoading {
        struct Missing: Error {}
        func loadData(for key: URL) async throws -> [UInt8] {
            guard let number = Int(key.deletingPathExtension().lastPathComponent), number.isMultiple(of: 2) else { throw Missing() }
            return JPEGFixture.encode(pixels: Array(repeating: 200, count: 24 * 16 * 3), width: 24, height: 16)
        }
    }

    /// A reader over a store of `count` posts in two feeds, the second with a failed refresh.
    @MainActor
    final class Harness {
        let store: FeedStore
        let terminal: ScriptedTerminal
        let frames = ManualFrames()
        let reader: Reader
        var iterator: AsyncStream<Reader.Event>.Iterator
        let opened = Recorder<[String]>()

        init(count: Int = 30, options: Reader.Options = Reader.Options(), columns: Int = 100, rows: Int = 30, notice: String? = nil,
             pictures: Bool = false, cellPixels: CellPixelSize? = nil, inline: InlinePlacements<Int, Int>.Encoding? = nil,
             kittyPlacing: PictureMode.KittyPlacing = .direct, fresh freshCount: Int = 3) async throws {
            store = try FeedStore()
            let news = try await store.addFeed(url: URL(string: "https://news.example/feed")!, title: "News")
            let broken = try await store.addFeed(url: URL(string: "https://broken.example/feed")!, title: "Broken")
            let epoch = Date(timeIntervalSince1970: 1_790_000_000)
            _ = try await store.upsert(entries: (0..<count).map { index in
                FeedEntry(id: "n\(index)", title: index == 3 ? "The lake at dawn" : "News post \(index)",
                          link: URL(string: "https://news.example/\(index)"), published: epoch.addingTimeInterval(-Double(index) * 60),
                          summary: "The text of post \(index).",
                          thumbnail: pictures ? URL(string: "https://img.example/\(index).jpg") : nil)
            }, feed: news.id, now: epoch)
            _ = try await store.upsert(entries: [FeedEntry(id: "b0", title: "Old broken post", published: epoch.addingTimeInterval(-1e6))],
                                 feed: broken.id, now: epoch)
            try await store.recordFailure(feed: broken.id, message: "HTTP 404 Not Found", at: epoch)
            terminal = ScriptedTerminal(columns: columns, rows: rows)
            var options = options
            options.refreshInterval = nil
            if let cellPixels {
                switch inline {
                case .sixel: options.pictures = .sixel(cellPixels: cellPixels)
                case .iterm: options.pictures = .iterm(cellPixels: cellPixels)
                case nil: options.pictures = .kitty(cellPixels: cellPixels, placing: kittyPlacing)
                }
            }
            // News answers with `freshCount` (three) new posts on top; Broken has no route.
            let fresh = (0..<freshCount).map { index in
                "<item><guid>fresh\(index)</guid><title>Fresh post \(index)</title>"
                    + "<pubDate>\(FeedDate.rfc3339(epoch.addingTimeInterval(60 * Double(index + 1))))</pubDate></item>"
            }
            let fetcher = ScriptedFetcher(documents: [
                news.url: Array(("<rss version=\"2.0\"><channel><title>News</title>" + fresh.joined() + "</channel></rss>").utf8),
            ])
            reader = Reader(terminal: terminal, store: store, refresher: FeedRefresher(store: store, fetcher: fetcher),
                            title: "Test", frames: frames, thumbnails: pictures ? ThumbnailShelf(loader: EvenImages()) : ThumbnailShelf(loader: NoImages()), options: options,
                            notice: notice, date: { epoch.addingTimeInterval(600) })
            let opened = self.opened
            reader.browser = BrowserLauncher(environment: ["BROWSER": "w3m"]) { arguments in
                opened.record(arguments)
                return 0
            }
            iterator = reader.events.makeAsyncIterator()
        }

        /// Takes the store's next event and hands it to the reader.
        func pump() async {
            var iterator = self.iterator
            let event = await iterator.next(isolation: #isolation)
            self.iterator = iterator
            if let event { reader.send(event) }
        }

        /// Pumps events, letting diffs and frames run after each, until `condition` holds; at
        /// most `limit` events.
        func pump(until condition: @MainActor () -> Bool, limit: Int = 50) async {
            var taken = 0
            await settle()
            while !condition(), taken < limit {
                await pump()
                await settle()
                taken += 1
            }
            #expect(condition(), "the reader never reached the expected state")
        }

        /// Lets the viewport's diffs finish and fires frames until nothing moves.
        func settle() async {
            for _ in 0..<20 {
                await reader.viewport.settled()
                frames.runUntilIdle()
                await reader.viewport.settled()
                if !frames.hasPendingFrame && !reader.viewport.needsTick { return }
            }
        }

        func key(_ key: Key) {
            reader.send(.input(.key(KeyPress(key))))
        }

        func type(_ text: String) {
            for character in text { key(.character(character)) }
        }

        /// Opens the search with `/` and types `text` into it.
        func search(_ text: String) {
            key(.character("/"))
            type(text)
        }

        func line(_ row: Int) -> String {
            terminal.screen.screen.text(ofRow: row, trailingBlanks: false)
        }

        var screenText: String {
            (0..<terminal.screen.screen.rows).map(line).joined(separator: "\n")
        }

        /// The open article's scroll, if one is open.
        var articleScroll: Int? {
            if case .article(_, let scroll) = reader.state.screen { scroll } else { nil }
        }

        /// The open article's post's title, if one is open.
        var articleTitle: String? {
            if case .article(let article, _) = reader.state.screen { article.entry.entry.title } else { nil }
        }

        var showsFeeds: Bool {
            if case .feeds = reader.state.screen { true } else { false }
        }

        /// The search being typed, if one is.
        var searchText: String? {
            if case .search(let text, _) = reader.state.screen { text } else { nil }
        }

        /// Lets the pictures asked for arrive, a frame delivering each batch, as `run` does when
        /// the loader signals arrivals.
        func loadPictures() async {
            for _ in 0..<20 where reader.thumbnails.figures.loading > 0 {
                await reader.thumbnails.loader.settled()
                reader.send(.thumbnailsArrived)
                frames.advance()
            }
        }

        /// Starts the reader and waits for its first list.
        func start() async {
            reader.start()
            await pump(until: { self.reader.viewport.items.count > 0 })
        }
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func theStoredPostsAreOnTheFirstFrameAfterTheyArriveAndOnlyThenDoesTheRefreshStart() async throws {
        let harness = try await Harness()
        var rowsHandled = false
        let running = Task { @MainActor in
            await harness.reader.run { reader, event in
                if case .rows = event { rowsHandled = true }
                reader.send(event)
            }
        }
        while !rowsHandled { await Task.yield() }
        // The first snapshot fills the list with no diff to wait for: the next frame shows it,
        // and nothing else (the refresh's progress) took that frame first.
        #expect(harness.reader.state.refreshing == nil, "the refresh waits for the first screen")
        harness.frames.advance()
        #expect(harness.line(1).contains("News post 0"), "\(harness.screenText)")
        #expect(harness.reader.state.refreshing != nil, "and starts once it is out")
        harness.reader.sink.yield(.input(.key(KeyPress(.character("Q")))))
        await running.value
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func rowsReadAsTheStoreOpenedAreOnTheVeryFirstFrameAndTheFirstSnapshotChangesNothing() async throws {
        let harness = try await Harness()
        let look = try harness.store.firstLook(Reader.firstQuery)
        harness.reader.showFirst(look.rows, of: Reader.firstQuery)
        harness.reader.start()
        // Drawn as the reader starts, before any snapshot of the store came in.
        #expect(harness.terminal.frameSizes.count == 1)
        #expect(harness.line(1).contains("News post 0"), "\(harness.screenText)")
        #expect(harness.reader.viewport.items.map(\.id) == look.rows.map(\.id))
        let first = harness.screenText
        // The store's first snapshot holds the same rows: nothing moves or changes.
        await harness.pump()
        await harness.settle()
        #expect(harness.screenText == first)
        #expect(harness.reader.viewport.items.map(\.id) == look.rows.map(\.id))
        // Later snapshots still arrive: a post marked read is shown read.
        try await harness.store.setRead(true, entries: [look.rows[0].id])
        await harness.pump(until: { harness.reader.viewport.items.first?.post?.isRead == true })
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func rowsReadForAnotherQueryThanTheListStartsWithAreNotShown() async throws {
        let harness = try await Harness()
        var other = Reader.firstQuery
        other.unreadOnly = true
        harness.reader.showFirst([], of: other)
        harness.reader.start()
        #expect(harness.reader.viewport.items.isEmpty, "an empty list of another query is not the list's")
        await harness.pump(until: { harness.reader.viewport.items.count > 0 })
        #expect(harness.line(1).contains("News post 0"), "\(harness.screenText)")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aReaderQuitBeforeItsFirstScreenStartsNoRefreshAfterwards() async throws {
        let harness = try await Harness()
        let running = Task { @MainActor in await harness.reader.run() }
        // Q before any rows: the reader ends with no refresh begun.
        harness.reader.sink.yield(.input(.key(KeyPress(.character("Q")))))
        await running.value
        // The quarter-second fallback comes due after the end: it must start nothing.
        for _ in 0..<30 { harness.frames.advance() }
        #expect(harness.reader.state.refreshing == nil)
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func anIdleReaderAsksForNoFrames() async throws {
        let harness = try await Harness()
        await harness.start()
        #expect(harness.line(1).contains("News post 0"), "\(harness.screenText)")
        let asked = harness.frames.requested
        let drawn = harness.terminal.frameSizes.count
        // Ten seconds at rest: no frame asked for, nothing drawn.
        for _ in 0..<600 { harness.frames.advance() }
        #expect(harness.frames.requested == asked)
        #expect(harness.terminal.frameSizes.count == drawn)
        #expect(!harness.frames.hasPendingFrame)

        // A key that scrolls asks for frames until the list rests again, then none.
        harness.key(.character(" "))
        #expect(harness.frames.hasPendingFrame)
        let moving = harness.frames.runUntilIdle()
        #expect(moving > 3 && moving < 60, "a page glides for a quarter of a second: \(moving) frames")
        let after = harness.frames.requested
        for _ in 0..<600 { harness.frames.advance() }
        #expect(harness.frames.requested == after)
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aReaderAtRestSaysSoOnceAfterEachBurstOfEvents() async throws {
        let harness = try await Harness()
        var rests: [Duration] = []
        // The reader keeps the closure: it must not keep the harness, which keeps the reader.
        let frames = harness.frames
        harness.reader.atRest = { rests.append(frames.now) }
        await harness.start()
        // A fifth of a second after the first screen, once, however long it stays idle.
        for _ in 0..<60 { harness.frames.advance() }
        #expect(rests.count == 1)
        for _ in 0..<600 { harness.frames.advance() }
        #expect(rests.count == 1, "nothing moved: no second rest")
        // A page glides: no rest while it moves, one after it stops.
        harness.key(.character(" "))
        var moving = 0
        while harness.frames.hasPendingFrame {
            harness.frames.advance()
            moving += 1
            #expect(rests.count == 1, "at rest while moving, after \(moving) frames")
        }
        let stopped = harness.frames.now
        for _ in 0..<60 { harness.frames.advance() }
        #expect(rests.count == 2)
        #expect(rests.last.map { $0 - stopped < .milliseconds(250) && $0 - stopped >= .milliseconds(180) } == true, "\(rests) \(stopped)")
        // A key that moves the cursor on screen draws at once, with no frame: the rest waits
        // for it too.
        for _ in 0..<5 { harness.frames.advance() }
        harness.key(.character("j"))
        let moved = harness.frames.now
        while harness.frames.hasPendingFrame { harness.frames.advance() }
        for _ in 0..<60 { harness.frames.advance() }
        #expect(rests.count == 3)
        #expect(rests.last.map { $0 - moved >= .milliseconds(180) } == true, "\(rests) \(moved)")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func theFeedListShowsUnreadCountsAndErrorsAndEnterShowsOneFeed() async throws {
        let harness = try await Harness()
        await harness.start()
        harness.key(.character("f"))
        await harness.pump(until: { harness.line(0).contains("Feeds — 2 subscriptions") && harness.screenText.contains("News") })
        let text = harness.screenText
        #expect(harness.line(1).contains("31  All feeds"), "\(text)")
        #expect(text.contains("1  Broken"))
        #expect(text.contains("failed: HTTP 404 Not Found"))
        #expect(text.contains("30  News"))
        // The error is drawn in red.
        let errorRow = (0..<30).first { harness.line($0).contains("failed: HTTP 404") }!
        let column = harness.line(errorRow).distance(from: harness.line(errorRow).startIndex,
                                                      to: harness.line(errorRow).range(of: "failed")!.lowerBound)
        #expect(harness.terminal.screen.screen[errorRow, column].style.foreground == .indexed(203))

        // Down to "Broken" (feeds by title), Enter: only its post.
        harness.key(.down)
        harness.key(.enter)
        await harness.pump(until: { harness.reader.viewport.items.count == 1 })
        await harness.settle()
        #expect(harness.line(0).contains("Test › Broken — 1 post"), "\(harness.line(0))")
        #expect(harness.line(1).contains("Old broken post"))
        // q goes back to all feeds before it quits.
        harness.key(.character("q"))
        await harness.pump(until: { harness.reader.viewport.items.count == 31 })
        #expect(harness.reader.state.running)
        harness.key(.character("q"))
        #expect(!harness.reader.state.running)
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func searchFiltersAsItIsTypedAndEscapeClearsIt() async throws {
        let harness = try await Harness()
        await harness.start()
        harness.search("LAKE")
        #expect(harness.line(29).hasPrefix(" /LAKE"), "the search field in the status line: \(harness.line(29))")
        await harness.pump(until: { harness.reader.viewport.items.count == 1 })
        await harness.settle()
        #expect(harness.line(0).contains("1 post matching “LAKE”"))
        #expect(harness.line(1).contains("The lake at dawn"))
        harness.key(.enter)
        #expect(!harness.line(29).contains("/LAKE"))
        // A search that matches nothing says so.
        harness.search("zzz")
        await harness.pump(until: { harness.reader.viewport.items.isEmpty })
        await harness.settle()
        #expect(harness.screenText.contains("No post matches “LAKEzzz”"))
        // Escape puts back the search before `/`; then Escape on the list clears it.
        harness.key(.escape)
        await harness.pump(until: { harness.reader.viewport.items.count == 1 })
        #expect(harness.line(0).contains("matching “LAKE”"))
        harness.key(.escape)
        await harness.pump(until: { harness.reader.viewport.items.count == 31 })
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func postsARefreshStoresAreFoundByTheSearchShownOnceIndexed() async throws {
        let harness = try await Harness()
        await harness.start()
        harness.search("fresh")
        harness.key(.enter)
        await harness.pump(until: { harness.reader.viewport.items.isEmpty })
        // The refresh stores three posts; they wait for the index, which the reader builds
        // after it, and the search shown finds them.
        harness.key(.character("R"))
        await harness.pump(until: { harness.reader.viewport.items.count == 3 })
        await harness.settle()
        #expect(harness.line(0).contains("3 posts matching “fresh”"))
        #expect(harness.reader.state.postsWaitingForIndex == 0)
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func anIndexThatCannotBeWrittenIsSaidInTheStatusLine() async throws {
        let harness = try await Harness()
        try await harness.store.write { db in try db.execute(sql: "DROP TABLE search_backlog") }
        await harness.start()
        await harness.pump(until: { harness.reader.state.message?.hasPrefix("new posts are not indexed for search: ") == true })
        #expect(harness.line(29).contains("new posts are not indexed for search"), "\(harness.line(29))")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func oOpensThePostsLinkWithTheTerminalGivenBack() async throws {
        let harness = try await Harness()
        await harness.start()
        harness.key(.character("j"))
        harness.key(.character("j"))
        harness.key(.character("o"))
        await harness.pump(until: { harness.terminal.releases == 1 })
        #expect(harness.opened.all == [["w3m", "https://news.example/1"]])
        await harness.settle()
        #expect(harness.line(29).contains("opened https://news.example/1"))
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aLinkThatWillNotOpenNeverGivesTheTerminalBack() async throws {
        let harness = try await Harness()
        await harness.start()

        harness.reader.send(.linkFound(URL(string: "javascript:alert(1)")!))

        #expect(harness.terminal.releases == 0)
        #expect(harness.opened.all.isEmpty)
        #expect(harness.line(29).contains("only http and https links open"))
        harness.reader.stop()
    }

    @Test func theBrowserLauncherNeverOpensOtherSchemesAndNeverUsesAShell() {
        let ran = Recorder<[String]>()
        let launcher = BrowserLauncher(environment: ["BROWSER": "firefox --new-tab %s:lynx"]) { arguments in
            ran.record(arguments)
            return arguments[0] == "lynx" ? 0 : 1
        }
        let hostile = URL(string: "https://example.com/a;rm%20-rf%20~")!
        #expect(throws: Never.self) { try launcher.open(hostile).get() }
        #expect(ran.all == [["firefox", "--new-tab", hostile.absoluteString], ["lynx", hostile.absoluteString]])
        guard case .failure(let failure) = launcher.open(URL(string: "file:///etc/passwd")!) else {
            Issue.record("a file: link must not open")
            return
        }
        #expect(failure.description.contains("only http and https"))
        #expect(ran.all.count == 2)
        let nothing = BrowserLauncher(environment: [:]) { _ in 127 }
        guard case .failure(let none) = nothing.open(URL(string: "https://example.com")!) else {
            Issue.record("no browser must fail")
            return
        }
        #expect(none.description.contains("set $BROWSER"))
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func postsBecomeReadAfterBeingVisibleLongEnoughButNotWhenAFlingSweepsPast() async throws {
        var options = Reader.Options()
        options.markReadAfter = .milliseconds(1_500)
        let harness = try await Harness(count: 200, options: options)
        await harness.start()
        // A fling over the list: the posts it sweeps past stay unread.
        harness.reader.send(.input(.mouse(MouseEvent(.scroll(.down), column: 10, row: 10))))
        await harness.settle()
        let landed = harness.reader.lastFrame.rows.map(\.item.id)
        #expect(try await harness.store.rows(EntryQuery(limit: 1_000)).filter(\.isRead).isEmpty, "nothing read during the fling")
        // Resting on the landing place for 1.5 s marks the posts fully on screen read.
        for _ in 0..<100 { harness.frames.advance() }
        await harness.pump(until: { harness.reader.state.rowsByID[landed[1]]?.isRead == true })
        let read = try await harness.store.rows(EntryQuery(limit: 1_000)).filter(\.isRead).map(\.id)
        #expect(!read.isEmpty && read.allSatisfy(landed.contains), "only posts on screen: \(read) of \(landed)")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aRefreshShowsItsProgressThenItsOutcomeAndNewPostsArriveAboveWithoutMovingTheReader() async throws {
        let harness = try await Harness()
        await harness.start()
        // Scrolled down to the tenth post, cursor on it.
        for _ in 0..<10 { harness.key(.character("j")) }
        await harness.settle()
        let top = harness.line(1)
        #expect(!top.contains("News post 0"), "scrolled: \(top)")
        harness.key(.character("R"))
        #expect(harness.line(29).hasPrefix(" refreshing 0/0 feeds"), "\(harness.line(29))")
        await harness.pump(until: { harness.line(29).contains("refreshed 2 feeds") })
        #expect(harness.line(29).contains("refreshed 2 feeds: 3 new · failed: Broken: "), "\(harness.line(29))")
        await harness.pump(until: { harness.reader.viewport.items.count == 34 })
        #expect(harness.line(1) == top, "posts arriving above keep the reader's place")
        harness.key(.character("g"))
        await harness.settle()
        #expect(harness.line(1).contains("Fresh post 2"), "\(harness.screenText)")
        harness.reader.stop()
    }

    /// Grouped by day, in the in-memory terminal: the day's heading stays on the list's first
    /// line while its posts scroll under it, and a refresh whose posts start a new day
    /// animates that day's heading in above them, through the same diff.
    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func groupedByDayTheHeadingStaysOnTopAndARefreshOfANewDayAnimatesItsHeadingIn() async throws {
        var options = Reader.Options()
        options.groupsByDay = true
        // A time zone where the stored posts were written before midnight and the fresh ones
        // after it: the epoch (14:13:20 UTC) is 23:59:20 at UTC+9:46, and the reader's clock,
        // ten minutes on, says it is the next day.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 35_160))
        options.calendar = calendar
        let harness = try await Harness(options: options)
        await harness.start()
        await harness.settle()
        #expect(harness.line(0).contains("31 posts"), "headings are not posts: \(harness.line(0))")
        #expect(harness.line(1).hasPrefix("  Yesterday ───"), "\(harness.screenText)")
        #expect(harness.line(2).contains("News post 0"))
        #expect(harness.terminal.screen.screen[1, 2].style.attributes.contains(.bold))

        // Ten posts down, the heading is still on the first line, over the posts.
        for _ in 0..<10 { harness.key(.character("j")) }
        await harness.settle()
        #expect(harness.line(1).hasPrefix("  Yesterday ───"), "\(harness.screenText)")
        #expect(!harness.screenText.contains("News post 0 "))
        #expect(harness.screenText.contains("News post 9"))
        harness.key(.character("g"))
        await harness.settle()

        // The refresh brings three posts of the new day: "Today" comes in above them, fading
        // in as they do, frame by frame.
        harness.key(.character("r"))
        var todayOpacities: [Double] = []
        for _ in 0..<50 where harness.reader.viewport.items.count < 37 || harness.reader.viewport.needsTick {
            await harness.pump()
            await harness.reader.viewport.settled()
            while harness.frames.hasPendingFrame {
                harness.frames.advance()
                let frame = harness.reader.lastFrame
                let today = (frame.rows + [frame.pinnedHeader].compactMap { $0 }).first { row in
                    if case .day(let heading) = row.item { heading.title == "Today" } else { false }
                }
                if let today { todayOpacities.append(today.opacity) }
                await harness.reader.viewport.settled()
            }
        }
        await harness.settle()
        #expect(todayOpacities.contains { $0 < 1 } && todayOpacities.last == 1, "\(todayOpacities)")
        let headings = harness.reader.viewport.items.compactMap { row in
            if case .day(let heading) = row { heading.title } else { nil }
        }
        #expect(headings == ["Today", "Yesterday", "Thursday 10 September"])
        #expect(harness.line(1).hasPrefix("  Today ───"), "\(harness.screenText)")
        #expect(harness.line(2).contains("Fresh post 2"))
        #expect(harness.screenText.contains("  Yesterday ───"))
        harness.reader.stop()
    }

    /// `bench ui`'s script, on frames the test fires: a long fling down through 500 posts, a
    /// refresh that brings a hundred, a fling back up and `g`. After every frame of the
    /// flings, each line of the list shows its own post, in the list's order with none
    /// skipped; after the refresh the new posts are there, and the end shows the newest.
    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aFlingThroughFiveHundredPostsARefreshAndAFlingBackDrawEachRowsOwnPost() async throws {
        let harness = try await Harness(count: 500, fresh: 100)
        await harness.start()
        let title = #/News post \d+|Fresh post \d+|The lake at dawn|Old broken post/#
        var frames = 0
        /// The list's lines name consecutive posts of the viewport's list, in its order.
        func checkScreen(_ moment: String) {
            let index = Dictionary(harness.reader.viewport.items.enumerated().compactMap { row in row.element.post.map { ($0.title, row.offset) } }, uniquingKeysWith: { first, _ in first })
            let shown = (1..<29).compactMap { row in harness.line(row).firstMatch(of: title).map { String($0.output) } }
            #expect(shown.count >= 5, "\(moment): a screen of posts: \(harness.screenText)")
            let positions: [Int?] = shown.map { index[$0] }
            #expect(!positions.contains(nil), "\(moment): a line shows a post the list does not hold: \(shown)")
            let found = positions.compactMap { $0 }
            #expect(found == Array((found.first ?? 0)..<(found.first ?? 0) + found.count), "\(moment): lines out of the list's order: \(shown)")
            frames += 1
        }
        func wheel(down: Bool) {
            // A notch every two frames for two seconds, then the glide to a stop.
            for notch in 0..<60 {
                harness.reader.send(.input(.mouse(MouseEvent(.scroll(down ? .down : .up), column: 10, row: 10))))
                for _ in 0..<2 {
                    harness.frames.advance()
                    checkScreen("notch \(notch) \(down ? "down" : "up")")
                }
            }
            while harness.frames.hasPendingFrame {
                harness.frames.advance()
                checkScreen("gliding \(down ? "down" : "up")")
            }
        }

        wheel(down: true)
        #expect(!harness.line(1).contains("News post 0"), "the fling moved the list: \(harness.screenText)")
        let first = (1..<29).lazy.compactMap { harness.line($0).firstMatch(of: title).map { String($0.output) } }.first
        let deep = harness.reader.viewport.items.firstIndex { $0.post?.title == first } ?? 0
        #expect(deep > 100, "a long fling goes far: the first post shown is \(first ?? "none"), at \(deep): \(harness.screenText)")

        harness.key(.character("r"))
        await harness.pump(until: { harness.reader.state.refreshing == nil && harness.reader.viewport.items.count == 601 }, limit: 200)
        checkScreen("after the refresh")

        wheel(down: false)
        harness.key(.character("g"))
        await harness.settle()
        checkScreen("at the top")
        #expect(harness.line(1).contains("Fresh post 99"), "the newest post first: \(harness.screenText)")
        #expect(frames > 240, "every frame of two flings was checked: \(frames)")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func anOpenArticleStaysOpenAndInPlaceThroughARefresh() async throws {
        let harness = try await Harness(count: 30, columns: 40, rows: 6)
        await harness.start()
        harness.key(.character("j"))
        harness.key(.enter)
        await harness.pump(until: { harness.reader.state.isReadingArticle })
        #expect(harness.line(0) == " News", "the title bar names the feed")
        #expect(harness.line(1).contains("News post 0"))
        harness.key(.character("j"))
        let shown = harness.screenText
        #expect(harness.articleScroll == 1, "\(shown)")
        // The automatic refresh brings three posts while the article is open.
        harness.reader.send(.timer(.autoRefresh))
        await harness.pump(until: { harness.reader.state.refreshing == nil && harness.reader.viewport.items.count == 34 })
        #expect(harness.articleTitle == "News post 0")
        #expect(harness.articleScroll == 1)
        #expect(harness.screenText.hasPrefix(shown.components(separatedBy: "\n").dropLast().joined(separator: "\n")),
                "the article's lines have not moved")
        // Back on the list, the post read is where it was; the new posts are above it.
        let list = harness.screenText
        harness.key(.character("q"))
        #expect(harness.line(2).hasSuffix("The text of post 0."), "\(harness.screenText) / before: \(list)")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aStarPressedTwiceQuicklyLeavesThePostAsItWas() async throws {
        let harness = try await Harness()
        await harness.start()
        harness.key(.character("j"))
        // Both presses before the store has answered either.
        harness.key(.character("s"))
        harness.key(.character("s"))
        await harness.pump(until: { harness.reader.state.pending.isEmpty })
        let post = try await harness.store.rows(EntryQuery(limit: 100)).first { $0.title == "News post 0" }
        #expect(post?.isStarred == false)
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func theImageFiguresAreTrueFromTheFirstFrame() async throws {
        let harness = try await Harness(pictures: true)
        await harness.start()
        // The first frame with posts: every picture on display asked for, none arrived yet.
        let first = harness.line(29)
        let asked = try #require(first.firstMatch(of: /images: 0 shown · (\d+) loading$/), "\(first)")
        let count = try #require(Int(asked.1))
        #expect(count >= 6, "at least the posts on screen: \(first)")
        // They arrive, and the frame that delivers them says so.
        await harness.loadPictures()
        let figures = harness.reader.thumbnails.figures
        #expect(figures.loading == 0 && figures.shown + figures.failed == count && figures.shown >= count / 2 - 1)
        #expect(harness.line(29).hasSuffix("images: \(figures.shown) shown · 0 loading · \(figures.failed) failed"), "\(harness.line(29))")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func inKittyThePicturesArePlacedOverBlankBoxesFollowTheListAndLeaveWithTheReader() async throws {
        // Cells of 10 × 20 pixels: a thumbnail box is 120 × 80, and the 24 × 16 pictures are
        // shown at their own size, centred: 48 pixels in (column 2 + 4, 8 pixels in) and 32
        // down (the box's row + 1, 12 pixels down).
        let harness = try await Harness(pictures: true, cellPixels: CellPixelSize(width: 10, height: 20))
        await harness.start()
        await harness.loadPictures()
        /// The rows where the pictures of the posts on screen must be: the first row of each
        /// picture's pixels inside the list's band (rows 1 to 28).
        func expectedRows() -> Set<Int> {
            Set(harness.reader.lastFrame.rows.compactMap { row -> Int? in
                guard harness.reader.thumbnails.overlay(for: row.item.id) != nil else { return nil }
                let top = (1 + Int(row.top.rounded())) * 20 + 32
                guard top + 16 > 20, top < 29 * 20 else { return nil }
                return max(top, 20) / 20
            })
        }
        var screen: InMemoryTerminal { harness.terminal.screen }
        let placed = Set(screen.kittyPlacements.values.map(\.row))
        #expect(placed.count >= 3, "\(screen.graphicsCommands)")
        #expect(placed == expectedRows())
        #expect(screen.kittyPlacements.values.allSatisfy { $0.column == 6 && $0.offsetX == 8 })
        #expect(screen.kittyImages.count >= placed.count)
        #expect(screen.unsupported.isEmpty)
        // Under each picture the box is blank: no half block, no shade.
        #expect(!harness.screenText.contains("▀") && !harness.screenText.contains("░"), "\(harness.screenText)")

        // A page down: the pictures move with their posts, and none is sent again.
        let sent = screen.graphicsCommands.filter { $0.hasPrefix("a=t") }.count
        harness.key(.character(" "))
        await harness.settle()
        await harness.loadPictures()
        #expect(Set(screen.kittyPlacements.values.map(\.row)) == expectedRows())
        let resent = screen.graphicsCommands.filter { $0.hasPrefix("a=t") }.count - sent
        #expect(resent <= screen.kittyImages.count, "only pictures new to the terminal are sent")

        // The help covers the list: no picture over it; closed, they are back, not sent again.
        let before = screen.graphicsCommands.filter { $0.hasPrefix("a=t") }.count
        harness.key(.character("?"))
        #expect(screen.kittyPlacements.isEmpty)
        harness.key(.character("?"))
        #expect(Set(screen.kittyPlacements.values.map(\.row)) == expectedRows())
        #expect(screen.graphicsCommands.filter { $0.hasPrefix("a=t") }.count == before)

        // A larger font comes as a resize with larger cells: the pictures load again for them,
        // centred in a box of 144 pixels now: 60 pixels in, column 2 + 5, 0 pixels in.
        harness.terminal.cellPixelSize = CellPixelSize(width: 12, height: 24)
        harness.reader.send(.input(.resize(columns: 100, rows: 30)))
        #expect(harness.reader.state.options.pictures == .kitty(cellPixels: CellPixelSize(width: 12, height: 24), placing: .direct))
        await harness.settle()
        await harness.loadPictures()
        #expect(!screen.kittyPlacements.isEmpty && screen.kittyPlacements.values.allSatisfy { $0.column == 7 && $0.offsetX == 0 })

        // The reader ends: the terminal frees every picture.
        harness.reader.stop()
        #expect(screen.kittyImages.isEmpty && screen.kittyPlacements.isEmpty)
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)), arguments: [false, true])
    func withPlaceholdersEachBoxShowsItsOwnPostsPictureAsTextThatScrollsWithIt(throughTmux: Bool) async throws {
        let harness = try await Harness(count: 60, pictures: true, cellPixels: CellPixelSize(width: 10, height: 20),
                                        kittyPlacing: .placeholders(throughTmux: throughTmux))
        await harness.start()
        await harness.loadPictures()
        var screen: InMemoryTerminal { harness.terminal.screen }
        /// For each thumbnail box on the list's band with a picture loaded, the screen rows it
        /// covers there and the image it shows.
        func boxes() -> [(rows: Range<Int>, image: Int)] {
            harness.reader.lastFrame.rows.compactMap { row in
                guard harness.reader.thumbnails.overlay(for: row.item.id) != nil else { return nil }
                let top = 1 + Int(row.top.rounded())
                let (first, end) = (max(1, top), min(29, top + 4))
                guard first < end, let shown = screen.kittyPlaceholder(atRow: first, column: 2) else { return nil }
                return (first..<end, shown.image)
            }
        }
        /// Every box whole: each of its cells a placeholder of its image naming the cell's own
        /// row and column of the box; and no placeholder anywhere else.
        func check(_ moment: String) {
            let boxes = boxes()
            var covered = 0
            for box in boxes {
                let top = box.rows.lowerBound - (screen.kittyPlaceholder(atRow: box.rows.lowerBound, column: 2)?.row ?? 0)
                for row in box.rows {
                    for column in 2..<14 {
                        let shown = screen.kittyPlaceholder(atRow: row, column: column)
                        #expect(shown.map { [$0.image, $0.row, $0.column] } == [box.image, row - top, column - 2], "\(moment): \(row), \(column)")
                    }
                }
                covered += box.rows.count * 12
            }
            let everywhere = (0..<30).reduce(0) { sum, row in sum + (0..<100).count { screen.kittyPlaceholder(atRow: row, column: $0) != nil } }
            #expect(everywhere == covered, "\(moment): no placeholder outside a box")
        }
        #expect(boxes().count >= 3)
        // Two posts never show one image: each box names its own.
        #expect(Set(boxes().map(\.image)).count == boxes().count)
        check("at the top")
        #expect(screen.kittyPlacements.isEmpty, "nothing is placed directly")
        #expect(screen.unsupported.isEmpty)

        // Page after page, and back by single steps, frame by frame; images are sent once.
        for key in [" ", " ", "k", "k", "b"] {
            harness.key(.character(Character(key)))
            while harness.frames.hasPendingFrame {
                harness.frames.advance()
                check("after \(key)")
            }
            await harness.settle()
            await harness.loadPictures()
            check("after \(key), at rest")
        }
        let sent = screen.graphicsCommands.filter { $0.hasPrefix("a=T") }.count
        #expect(sent == screen.kittyImages.count, "no image sent twice while it is held")
        // The help covers the list: no placeholder over it, and none sent again when it closes.
        harness.key(.character("?"))
        #expect((0..<30).allSatisfy { row in (0..<100).allSatisfy { screen.kittyPlaceholder(atRow: row, column: $0) == nil } })
        harness.key(.character("?"))
        check("after the help")
        #expect(screen.graphicsCommands.filter { $0.hasPrefix("a=T") }.count == sent)
        harness.reader.stop()
        #expect(screen.kittyImages.isEmpty, "the terminal frees every image at the end")
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func backInFrontInTmuxThePicturesAreSentAgain() async throws {
        let harness = try await Harness(pictures: true, cellPixels: CellPixelSize(width: 10, height: 20),
                                        kittyPlacing: .placeholders(throughTmux: true))
        await harness.start()
        await harness.loadPictures()
        var screen: InMemoryTerminal { harness.terminal.screen }
        let sent = screen.graphicsCommands.filter { $0.hasPrefix("a=T") }.count
        #expect(sent > 0)
        // tmux passed nothing while the pane was hidden; focus back, and the pictures go again.
        harness.reader.send(.input(.focusGained))
        harness.frames.advance()
        #expect(screen.graphicsCommands.filter { $0.hasPrefix("a=T") }.count >= 2 * sent)
        #expect(screen.kittyPlaceholder(atRow: 2, column: 2) != nil)
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func insideTmuxTheTerminalOutsideAnswersLastAndDecides() async throws {
        let harness = try await Harness(pictures: true)
        let tmux = ["TMUX": "/tmp/tmux-0/default,1,0"]
        harness.reader.askCapabilities(throughTmux: true) { PictureMode.resolve(.auto, capabilities: $0, environment: tmux) }
        #expect(harness.terminal.screen.queries.filter { $0 == "^[[c" }.count == 2, "tmux and the terminal outside are asked")
        #expect(harness.reader.awaitedAnswers == 2)
        await harness.start()
        // tmux answers for itself: half blocks so far.
        harness.reader.send(.input(.terminalVersion("tmux 3.3a")))
        harness.reader.send(.input(.deviceAttributes([1, 2])))
        #expect(harness.reader.state.options.pictures == .blocks)
        #expect(harness.reader.awaitedAnswers == 1)
        // The terminal outside answers through the passthrough: a kitty with placeholders.
        for reply in [InputEvent.kittyGraphicsReply("i=31;OK"), .terminalVersion("kitty(0.35.2)"),
                      .cellSizeReport(CellPixelSize(width: 9, height: 18)), .deviceAttributes([62])] {
            harness.reader.send(.input(reply))
        }
        #expect(harness.reader.awaitedAnswers == 0)
        #expect(harness.reader.state.options.pictures == .kitty(cellPixels: CellPixelSize(width: 9, height: 18), placing: .placeholders(throughTmux: true)))
        await harness.settle()
        await harness.loadPictures()
        #expect(harness.terminal.screen.kittyPlaceholder(atRow: 2, column: 2) != nil, "\(harness.screenText)")
        #expect(harness.terminal.screen.kittyPlacements.isEmpty)
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func withSextantsAskedForTheThumbnailsAreMosaicsOfSixPixelsACell() async throws {
        var options = Reader.Options()
        options.pictures = .sextants
        let harness = try await Harness(options: options, pictures: true)
        await harness.start()
        await harness.loadPictures()
        // The first post's box, columns 2 to 13 of rows 1 to 4: sextant glyphs, no half block.
        let box = (1...4).map { row in String(harness.line(row).dropFirst(2).prefix(12)) }.joined()
        #expect(box.unicodeScalars.contains { (0x1FB00...0x1FB3B).contains($0.value) }, "\(harness.screenText)")
        #expect(!harness.screenText.contains("▀"))
        #expect(harness.reader.thumbnails.glyphs == .sextants)
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func theTerminalsAnswersTurnHalfBlocksIntoPixelsWithoutTheReaderWaitingForThem() async throws {
        // The reader starts in half blocks and asks; the list is drawn before any answer.
        let harness = try await Harness(pictures: true)
        harness.reader.askCapabilities { capabilities in
            PictureMode.resolve(.auto, capabilities: capabilities, environment: [:])
        }
        #expect(harness.terminal.screen.queries.contains("^[[c"), "the device attributes are asked")
        await harness.start()
        await harness.loadPictures()
        #expect(harness.screenText.contains("▀"), "half blocks first")
        // A key typed while the answers come is still a key; the answers are not.
        harness.reader.send(.input(.kittyGraphicsReply("i=31;OK")))
        harness.key(.character("j"))
        harness.reader.send(.input(.cellSizeReport(CellPixelSize(width: 10, height: 20))))
        harness.reader.send(.input(.deviceAttributes([62, 4, 22])))
        #expect(harness.reader.state.selectedID != nil)
        #expect(harness.reader.state.options.pictures == .kitty(cellPixels: CellPixelSize(width: 10, height: 20), placing: .direct))
        // The pictures load again at their box's size in pixels and are placed over blank boxes.
        await harness.settle()
        await harness.loadPictures()
        #expect(!harness.screenText.contains("▀"), "\(harness.screenText)")
        #expect(!harness.terminal.screen.kittyPlacements.isEmpty)
        #expect(harness.terminal.screen.kittyPlacements.values.allSatisfy { $0.column == 6 }, "24 × 16 pictures centred in 120 × 80")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func anArticleShowingOnePictureTwiceDrawsItTwice() async throws {
        // Tall enough for both figures on the first screen of the article.
        let harness = try await Harness(columns: 100, rows: 60, pictures: true, cellPixels: CellPixelSize(width: 10, height: 20))
        let feed = try #require(try await harness.store.feeds().first { $0.title == "News" })
        _ = try await harness.store.upsert(entries: [FeedEntry(
            id: "twice", title: "The same picture twice", published: Date(timeIntervalSince1970: 1_790_001_000),
            content: "<p>Before.</p><img src=\"https://img.example/2.jpg\"><p>Between.</p><img src=\"https://img.example/2.jpg\">")],
            feed: feed.id, now: Date(timeIntervalSince1970: 1_790_001_000))
        await harness.start()
        #expect(harness.line(1).contains("The same picture twice"), "\(harness.screenText)")
        harness.key(.enter)
        await harness.pump(until: { harness.reader.state.isReadingArticle })
        await harness.loadPictures()
        harness.frames.advance()
        let rows = harness.terminal.screen.kittyPlacements.values.map(\.row).sorted()
        #expect(rows.count == 2, "both figures placed: \(rows)")
        #expect(Set(harness.terminal.screen.kittyPlacements.keys.map(\.image)).count == 1, "one image, sent once")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)), arguments: [InlinePlacements<Int, Int>.Encoding.sixel(.adaptive(maxColors: 256)), .iterm])
    func inSixelAndITermThePicturesAreDrawnInTheirBoxesAndNoneIsLeftBehindWhenTheListMoves(
        _ encoding: InlinePlacements<Int, Int>.Encoding
    ) async throws {
        let harness = try await Harness(count: 60, pictures: true, cellPixels: CellPixelSize(width: 10, height: 20), inline: encoding)
        await harness.start()
        /// The screen rows of each thumbnail box with a picture loaded, on the list's band.
        func boxes() -> [Range<Int>] {
            harness.reader.lastFrame.rows.compactMap { row in
                guard harness.reader.thumbnails.overlay(for: row.item.id) != nil else { return nil }
                let top = 1 + Int(row.top.rounded())
                let (first, end) = (max(1, top), min(29, top + 4))
                return first < end ? first..<end : nil
            }
        }
        /// Cells showing sixel pixels outside every box with a picture: left behind.
        func strays() -> [[Int]] {
            let screen = harness.terminal.screen
            let rows = boxes()
            return (0..<30).flatMap { row in
                (0..<100).compactMap { column -> [Int]? in
                    guard screen.inlineImage(atRow: row, column: column) != nil else { return nil }
                    return (2..<14).contains(column) && rows.contains { $0.contains(row) } ? nil : [row, column]
                }
            }
        }
        await harness.loadPictures()
        var screen: InMemoryTerminal { harness.terminal.screen }
        #expect(boxes().count >= 3)
        for box in boxes() {
            #expect(box.contains { row in (2..<14).contains { screen.inlineImage(atRow: row, column: $0) != nil } }, "a picture in rows \(box)")
        }
        #expect(strays().isEmpty)
        #expect(screen.unsupported.isEmpty)

        // Page after page, and back by single steps: every frame leaves nothing behind.
        for key in [" ", " ", "k", "k", "k", "b"] {
            harness.key(.character(Character(key)))
            while harness.frames.hasPendingFrame {
                harness.frames.advance()
                #expect(strays().isEmpty, "after \(key): \(strays().prefix(4))")
            }
            await harness.settle()
            await harness.loadPictures()
            #expect(strays().isEmpty, "after \(key), at rest")
        }
        // The help covers the list: every picture is erased.
        harness.key(.character("?"))
        #expect((0..<30).allSatisfy { row in (0..<100).allSatisfy { screen.inlineImage(atRow: row, column: $0) == nil } })
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func progressEventsDrawAtMostOnceAFrame() async throws {
        let harness = try await Harness()
        await harness.start()
        harness.key(.character("R"))
        let drawn = harness.terminal.frameSizes.count
        let feed = StoredFeed(id: 1, url: URL(string: "https://news.example/feed")!)
        var counts = EntryChangeCounts()
        counts.new = 1
        // Forty batches stored between two frames: the status line is drawn once, with all of them.
        for _ in 0..<40 { harness.reader.send(.refreshProgress(.batchStored(feed, counts: counts))) }
        #expect(harness.terminal.frameSizes.count == drawn)
        harness.frames.advance()
        #expect(harness.terminal.frameSizes.count == drawn + 1)
        #expect(harness.line(29).contains("40 new"), "\(harness.line(29))")
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aHeldKeyGlidesWithMomentumAndRestsWithTheCursorOnScreen() async throws {
        let harness = try await Harness(count: 100)
        await harness.start()
        // Key repeat: a press every 33 ms, two frames apart.
        var glided = false
        for _ in 0..<30 {
            harness.key(.character("j"))
            glided = glided || harness.reader.viewport.scroll.phase == .decelerating
            harness.frames.advance()
            harness.frames.advance()
        }
        #expect(glided, "a held key glides as a fling does")
        harness.frames.runUntilIdle()
        let selected = try #require(harness.reader.state.selectedID)
        #expect(harness.reader.lastFrame.rows.contains { $0.item.id == selected && $0.top >= 0 && $0.top + $0.height <= 28 },
                "the cursor's post is fully on screen")
        // A single press eases instead.
        harness.frames.advance(by: .seconds(1))
        harness.key(.character("j"))
        #expect(harness.reader.viewport.scroll.phase != .decelerating)
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aTerminalOfAFewRowsOrNoneStillDrawsEveryScreen() async throws {
        let harness = try await Harness(columns: 12, rows: 3)
        await harness.start()
        func lines() -> [String] {
            let screen = harness.terminal.screen.screen
            return (0..<screen.rows).map { screen.text(ofRow: $0, trailingBlanks: false) }
        }
        for rows in [3, 2, 1, 0] {
            harness.terminal.resize(columns: 12, rows: max(1, rows))
            harness.reader.send(.input(.resize(columns: 12, rows: rows)))
            harness.key(.character("?"))
            harness.key(.character("?"))
            harness.key(.character("f"))
            await harness.settle()
            if rows >= 2 { #expect(lines()[0].hasPrefix(" Feeds"), "\(rows) rows: \(lines())") }
            harness.key(.escape)
            harness.key(.enter)
            await harness.pump(until: { harness.reader.state.isReadingArticle })
            harness.key(.character("j"))
            harness.key(.character("G"))
            await harness.settle()
            // The article's bars stay in their rows: its hint on the last, whatever the height.
            if rows >= 2 { #expect(lines()[rows - 1].hasPrefix(" j/k scroll"), "\(rows) rows: \(lines())") }
            harness.key(.escape)
            await harness.settle()
            if rows >= 2 {
                #expect(lines()[0].hasPrefix(" Test"), "\(rows) rows: \(lines())")
                #expect(lines()[rows - 1].hasPrefix(" ? help"), "\(rows) rows: \(lines())")
            }
        }
        harness.reader.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func nothingIsDrawnAfterQuitting() async throws {
        let harness = try await Harness()
        await harness.start()
        harness.key(.character(" "))
        #expect(harness.frames.hasPendingFrame)
        let written = harness.terminal.frameSizes.count
        harness.key(.character("Q"))
        harness.frames.runUntilIdle()
        harness.reader.send(.message("late"))
        harness.reader.send(.timer(.markReadCheck))
        #expect(harness.terminal.frameSizes.count == written, "a frame after quitting would land on the user's screen")
    }
}

