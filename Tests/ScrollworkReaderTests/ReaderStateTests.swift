import Feeds
import FeedSync
import Foundation
import ListViewport
import TerminalUI
import Testing
@testable import ScrollworkReader

/// The reader's state machine, driven event by event: no store, no terminal, no frames. Each
/// test reads the effects that ``ReaderState/update(_:list:now:)`` returns.
extension ReaderList {
    /// The list's posts, without the days' headings.
    var posts: [EntryRow] { items.compactMap(\.post) }
}

@MainActor
@Suite struct ReaderStateTests {
    static let epoch = Date(timeIntervalSince1970: 1_790_000_000)
    static let rowHeight = Double(PostListScreen.rowHeight)

    static func row(_ id: Int64, read: Bool = false, starred: Bool = false) -> EntryRow {
        EntryRow(id: id, feedID: 1, feedTitle: "News", title: "Post \(id)", date: epoch.addingTimeInterval(-Double(id) * 60), isDated: true,
                 isRead: read, isStarred: starred, thumbnailAddress: nil, excerpt: "", position: EntryPosition(sortDate: 0, id: id))
    }

    /// A list of `count` posts in a viewport `height` rows tall scrolled to `offset`, at rest,
    /// with the frame its viewport would draw.
    static func list(_ count: Int, height: Double = 25, offset: Double = 0, rows: [EntryRow]? = nil) -> ReaderList {
        list(PostListRow.ungrouped(rows ?? (0..<count).map { row(Int64($0)) }), height: height, offset: offset)
    }

    /// A list of `items` (posts, maybe under days' headings) in a viewport `height` rows tall
    /// scrolled to `offset`, at rest, with the frame its viewport would draw: the top day's
    /// heading pinned.
    static func list(_ items: [PostListRow], height: Double = 25, offset: Double = 0) -> ReaderList {
        let geometry = RowGeometry(heights: items.map { Double(PostListScreen.height(of: $0)) })
        var scroll = ScrollModel()
        scroll.setSizes(content: geometry.totalHeight, viewport: height)
        scroll.scroll(to: offset, animated: false, at: .zero)
        let visible = geometry.rows(inOffset: scroll.offset, length: height)
        let headers = SectionHeaders(of: items) { $0.isHeading }
        let pinned = headers.pinned(in: geometry, atOffset: scroll.offset)
        let frameRows = visible.filter { $0 != pinned?.row }.map { index in
            ListViewport<PostListRow>.Row(item: items[index], top: geometry.offset(ofRow: index) - scroll.offset,
                                          height: geometry.height(ofRow: index), opacity: 1, isLeaving: false)
        }
        let pinnedRow = pinned.map {
            ListViewport<PostListRow>.Row(item: items[$0.row], top: $0.top, height: geometry.height(ofRow: $0.row), opacity: 1, isLeaving: false)
        }
        return ReaderList(items: items, geometry: geometry, scroll: scroll,
                          frame: .init(rows: frameRows, offset: scroll.offset, contentHeight: geometry.totalHeight, pinnedHeader: pinnedRow))
    }

    /// A state showing `list`'s posts, in a terminal 27 rows tall (a body of 25).
    static func state(_ list: ReaderList, options: ReaderOptions = ReaderOptions()) -> ReaderState {
        var state = ReaderState(title: "Test", options: options, layout: ScreenLayout(columns: 80, rows: 27))
        _ = state.start()
        _ = state.update(Self.snapshot(list.posts), list: list, now: .zero)
        return state
    }

    /// The store's snapshot of `rows` for query `generation`.
    static func snapshot(_ rows: [EntryRow], generation: Int = 1, date: Date = epoch) -> ReaderEvent {
        .rows(rows, Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) }), unread: rows.filter { !$0.isRead }.count,
              generation: generation, date: date)
    }

    static func key(_ character: Character) -> ReaderEvent {
        .input(.key(KeyPress(.character(character))))
    }

    @Test func theLayoutIsTheOnePlaceThatKnowsTheBars() {
        let normal = ScreenLayout(columns: 80, rows: 30)
        #expect(normal.title == .init(top: 0, height: 1))
        #expect(normal.body == .init(top: 1, height: 28))
        #expect(normal.status == .init(top: 29, height: 1))
        // A terminal too small for a body still has its bars, and a terminal with no size is one cell.
        #expect(ScreenLayout(columns: 10, rows: 2).body.height == 0)
        let none = ScreenLayout(columns: 0, rows: 0)
        #expect(none.columns == 1 && none.rows == 1 && none.body.height == 0 && none.status.top == 0)
    }

    @Test func spaceMovesTheCursorWithThePageAndTheNextMoveGoesOnFromThere() {
        var list = Self.list(100)
        var state = Self.state(list)
        // j puts the cursor on the first post, j again on the second.
        _ = state.update(Self.key("j"), list: list, now: .zero)
        _ = state.update(Self.key("j"), list: list, now: .seconds(1))
        #expect(state.selectedID == 1)
        // A page is the screen less one post: 20 rows, four posts.
        let effects = state.update(Self.key(" "), list: list, now: .seconds(2))
        #expect(effects == [.moveList(.scroll(to: 20, animated: true))])
        #expect(state.selectedID == 5, "the cursor keeps its place on the screen")
        // Once the list is there, j moves on from the new page instead of jumping back.
        list = Self.list(100, offset: 20)
        let next = state.update(Self.key("j"), list: list, now: .seconds(3))
        #expect(state.selectedID == 6)
        #expect(next == [.draw], "the post is on screen: the list stays")
        // b pages back, the cursor with it.
        let back = state.update(Self.key("b"), list: list, now: .seconds(4))
        #expect(back == [.moveList(.scroll(to: 0, animated: true))])
        #expect(state.selectedID == 2)
    }

    @Test func pagingAtTheEndsPutsTheCursorOnTheFirstOrLastPost() {
        let bottom = Self.list(10, offset: 25)
        var state = Self.state(bottom)
        _ = state.update(Self.key("j"), list: bottom, now: .zero)
        #expect(state.selectedID == 5)
        let effects = state.update(Self.key(" "), list: bottom, now: .seconds(1))
        #expect(state.selectedID == 9)
        #expect(effects == [.draw], "the last post is on screen already")
        let top = Self.list(10)
        _ = state.update(Self.key("b"), list: top, now: .seconds(2))
        #expect(state.selectedID == 0)
        // g and G take the cursor along too.
        #expect(state.update(Self.key("G"), list: top, now: .seconds(3)) == [.moveList(.scroll(to: .greatestFiniteMagnitude, animated: true))])
        #expect(state.selectedID == 9)
        _ = state.update(Self.key("g"), list: bottom, now: .seconds(4))
        #expect(state.selectedID == 0)
    }

    @Test func aKeyPressedTwiceBeforeTheStoreAnswersFlipsTheFlagTwiceInOrder() {
        let list = Self.list(10)
        var state = Self.state(list)
        #expect(state.update(Self.key("s"), list: list, now: .zero) == [.write(.setStarred(true, [0]))])
        #expect(state.update(Self.key("s"), list: list, now: .zero) == [.write(.setStarred(false, [0]))])
        // The same for read: read, then unread again, by hand: scrolling will not mark it read.
        #expect(state.update(Self.key("m"), list: list, now: .zero) == [.write(.setRead(true, [0]))])
        #expect(state.keptUnread.isEmpty)
        #expect(state.update(Self.key("m"), list: list, now: .zero) == [.write(.setRead(false, [0]))])
        #expect(state.keptUnread == [0])
        // Writes finish: the flags are forgotten once no write is left and a snapshot shows them;
        // here they are back to what the snapshot already had.
        for write in [StoreWrite.setStarred(true, [0]), .setStarred(false, [0]), .setRead(true, [0])] {
            _ = state.update(.written(write, failure: nil), list: list, now: .zero)
        }
        #expect(state.pending[0]?.read == false, "a write of it is still under way")
        _ = state.update(.written(.setRead(false, [0]), failure: nil), list: list, now: .zero)
        #expect(state.pending.isEmpty)
    }

    @Test func aSnapshotThatComesBeforeTheWriteFinishesSettlesItToo() {
        let list = Self.list(10)
        var state = Self.state(list)
        _ = state.update(Self.key("s"), list: list, now: .zero)
        var starred = list.posts
        starred[0].isStarred = true
        _ = state.update(Self.snapshot(starred), list: list, now: .zero)
        #expect(state.pending[0]?.starred == true, "the write has not said it finished")
        _ = state.update(.written(.setStarred(true, [0]), failure: nil), list: list, now: .zero)
        #expect(state.pending.isEmpty)
    }

    @Test func aFailedWriteIsSaidAndForgotten() {
        let list = Self.list(10)
        var state = Self.state(list)
        _ = state.update(Self.key("s"), list: list, now: .zero)
        let effects = state.update(.written(.setStarred(true, [0]), failure: "disk full"), list: list, now: .zero)
        #expect(effects == [.drawNextFrame])
        #expect(state.message == "cannot save: disk full")
        #expect(state.pending.isEmpty)
        #expect(state.flag(.starred, of: 0) == false, "the snapshot's value again")
    }

    @Test func aSnapshotOfAnEarlierQueryIsDroppedAndANewQueryIsNotAnimated() {
        let list = Self.list(10)
        var state = Self.state(list)
        let effects = state.update(Self.key("u"), list: list, now: .zero)
        #expect(effects.contains(.follow(ReaderState.ListFilter(unreadOnly: true), generation: 2)))
        #expect(ReaderState.ListFilter(unreadOnly: true).query(now: Self.epoch) == EntryQuery(unreadOnly: true, limit: 10_000))
        #expect(state.update(Self.snapshot(list.posts), list: list, now: .zero).isEmpty)
        #expect(state.update(Self.snapshot(list.posts, generation: 2), list: list, now: .zero)
            == [.submit(list.items, animated: false)])
        #expect(state.update(Self.snapshot(list.posts, generation: 2), list: list, now: .zero)
            == [.submit(list.items, animated: true)])
        // A search typed on narrows the same list: its first snapshot animates.
        _ = state.update(Self.key("/"), list: list, now: .zero)
        _ = state.update(Self.key("p"), list: list, now: .zero)
        _ = state.update(Self.key("o"), list: list, now: .zero)
        let narrowed = Array(list.posts.prefix(3))
        #expect(state.update(Self.snapshot(narrowed, generation: 4), list: list, now: .zero)
            == [.submit(PostListRow.ungrouped(narrowed), animated: true)])
    }

    @Test func aTypedSearchIsAFullTextQueryWhoseLastWordIsAPrefixAndWhoseMistakesAreSaid() {
        let list = Self.list(10)
        var state = Self.state(list)
        _ = state.update(Self.key("/"), list: list, now: .zero)
        for character in "wal is:nice sq" { _ = state.update(Self.key(character), list: list, now: .zero) }
        let query = state.filter.query(now: Self.epoch)
        #expect(query.search?.required == [[SearchQuery.Term(text: "wal")], [SearchQuery.Term(text: "sq", isPrefix: true)]])
        #expect(query.matchWindow == ReaderState.ListFilter.searchWindow)
        #expect(query.textContains == nil)
        #expect(state.statusText(hint: "", figures: "").contains("left out: “is:nice” is not a state"))
        #expect(state.searchHighlight?.ranges(in: "WAL and SQLite").count == 2)
        // Enter keeps it; d orders it by date, and again by relevance.
        _ = state.update(.input(.key(KeyPress(.enter))), list: list, now: .zero)
        #expect(state.filter.query(now: Self.epoch).order == .relevance)
        _ = state.update(Self.key("d"), list: list, now: .zero)
        #expect(state.filter.query(now: Self.epoch).order == .date)
        #expect(state.message == "newest first · d orders by relevance")
        #expect(state.heading(count: 2).contains("matching “wal is:nice sq”, newest first"))
        _ = state.update(Self.key("d"), list: list, now: .zero)
        #expect(state.filter.query(now: Self.epoch).order == .relevance)
        // `newer:` counts back from the time the query is made.
        _ = state.update(.input(.key(KeyPress(.escape))), list: list, now: .zero)
        #expect(state.filter.search.isEmpty)
        _ = state.update(Self.key("/"), list: list, now: .zero)
        for character in "newer:1d" { _ = state.update(Self.key(character), list: list, now: .zero) }
        #expect(state.filter.query(now: Self.epoch).search?.notBefore == Self.epoch.addingTimeInterval(-86_400))
        #expect(state.searchHighlight == nil)
    }

    @Test func postsStoredAreIndexedAfterEveryRefreshAndSyncAndASearchSaysSoMeanwhile() {
        let list = Self.list(3)
        var state = Self.state(list)
        #expect(state.start().contains(.indexWaitingPosts))
        // Held for the first screen, with the refresh.
        var held = Self.state(list)
        #expect(!held.start(holdingRefresh: true).contains(.indexWaitingPosts))
        #expect(held.update(.timer(.firstScreenDeadline), list: list, now: .zero).first == .indexWaitingPosts)
        #expect(state.update(.refreshFinished([]), list: list, now: .zero) == [.indexWaitingPosts, .drawNextFrame])
        #expect(state.update(.syncFinished(SyncRuntime.Outcome(summary: SyncSummary(), failure: nil)), list: list, now: .zero)
            == [.indexWaitingPosts, .drawNextFrame])
        // Not searching, nothing to draw.
        #expect(state.update(.postsIndexed(waiting: 400), list: list, now: .zero) == [])
        _ = state.update(Self.key("/"), list: list, now: .zero)
        for character in "wal" { _ = state.update(Self.key(character), list: list, now: .zero) }
        #expect(state.statusText(hint: "", figures: "") == "/wal▏  indexing 400 new posts · enter search · esc cancel")
        #expect(state.emptyText == "No post matches “wal” yet (indexing 400 new posts). Esc clears the search.")
        #expect(state.update(.postsIndexed(waiting: 1), list: list, now: .zero) == [.drawNextFrame])
        #expect(state.statusText(hint: "", figures: "").hasPrefix("/wal▏  indexing 1 new post · "))
        _ = state.update(.postsIndexed(waiting: 0), list: list, now: .zero)
        #expect(state.statusText(hint: "", figures: "") == "/wal▏  enter search · esc cancel")
        #expect(state.emptyText == "No post matches “wal”. Esc clears the search.")
    }

    @Test func anArticleArrivingAfterThePersonMovedOnIsNotShown() {
        let list = Self.list(10)
        var state = Self.state(list)
        #expect(state.update(.input(.key(KeyPress(.enter))), list: list, now: .zero) == [.loadArticle(0), .write(.setRead(true, [0]))])
        _ = state.update(Self.key("/"), list: list, now: .zero)
        let entry = StoredEntry(id: 0, feedID: 1, entry: FeedEntry(id: "0", title: "Post 0"), isRead: false, isStarred: false,
                                firstSeen: Self.epoch)
        #expect(state.update(.articleLoaded(entry, ArticleScreen.document(of: entry)), list: list, now: .zero).isEmpty)
        #expect(!state.isReadingArticle)
        // Back on the list, it opens when it arrives.
        _ = state.update(.input(.key(KeyPress(.escape))), list: list, now: .zero)
        _ = state.update(.input(.key(KeyPress(.enter))), list: list, now: .zero)
        let shown = state.update(.articleLoaded(entry, ArticleScreen.document(of: entry)), list: list, now: .zero)
        #expect(shown.last == .draw)
        #expect(state.isReadingArticle)
    }

    @Test func eachScreenAnswersItsOwnKeys() {
        let list = Self.list(10)
        var state = Self.state(list)
        // The help closes on any key, which does nothing else.
        _ = state.update(Self.key("?"), list: list, now: .zero)
        #expect(state.update(Self.key("j"), list: list, now: .zero) == [.draw])
        #expect(state.selectedID == nil)
        // The feed list follows the store while it is open.
        #expect(state.update(.input(.key(KeyPress(.tab))), list: list, now: .zero) == [.followFeeds(true), .draw])
        #expect(state.update(Self.key("r"), list: list, now: .zero) == [.refresh(nil), .draw], "the all-feeds line refreshes all")
        #expect(state.update(Self.key("q"), list: list, now: .zero) == [.followFeeds(false), .draw])
        // Typing a search follows a new query per key; Escape puts back the one before.
        _ = state.update(Self.key("/"), list: list, now: .zero)
        let typed = state.update(Self.key("x"), list: list, now: .zero)
        #expect(typed == [.follow(ReaderState.ListFilter(search: "x"), generation: 2), .moveList(.scroll(to: 0, animated: false)), .draw])
        #expect(state.statusText(hint: "", figures: "").hasPrefix("/x▏"))
        let escaped = state.update(.input(.key(KeyPress(.escape))), list: list, now: .zero)
        #expect(escaped == [.follow(ReaderState.ListFilter(), generation: 3), .draw])
        // q on the list with nothing to go back from quits, and nothing happens after.
        #expect(state.update(Self.key("q"), list: list, now: .zero) == [.quit])
        #expect(state.update(Self.key("j"), list: list, now: .zero).isEmpty)
        #expect(state.update(.message("late"), list: list, now: .zero).isEmpty)
    }

    @Test func keysFollowTheSettingsBindings() throws {
        var settings = ReaderSettings.defaults
        settings.keys = try KeyBindings(overriding: [.feeds: [KeyPress(.character("F"))], .search: [KeyPress(.character("s"))]])
        settings.imageMode = .always(.none)
        let options = ReaderOptions(settings: settings, colorMode: .palette256)
        #expect(!options.showsPictures, "image_mode = \"none\" draws no thumbnail box")
        let list = Self.list(10)
        var state = Self.state(list, options: options)
        #expect(state.listHint.contains("F feeds") && state.listHint.contains("s search"), "\(state.listHint)")
        _ = state.update(Self.key("f"), list: list, now: .zero)
        #expect({ if case .list = state.screen { true } else { false } }(), "f is no longer bound")
        #expect(state.update(Self.key("F"), list: list, now: .zero) == [.followFeeds(true), .draw])
        _ = state.update(.input(.key(KeyPress(.escape))), list: list, now: .zero)
        // s searches now, in place of starring: nothing is written.
        #expect(!state.update(Self.key("s"), list: list, now: .zero).contains { if case .write = $0 { true } else { false } })
        #expect(state.statusText(hint: state.listHint, figures: "").hasPrefix("/▏"))
    }

    @Test func theTerminalsAnswerChangesThePicturesOnceAndItsNoticeIsKept() {
        let list = Self.list(3)
        var state = Self.state(list)
        let kitty = PictureMode.kitty(cellPixels: CellPixelSize(width: 9, height: 18), placing: .direct)
        #expect(state.update(.pictures(kitty, notice: nil), list: list, now: .zero) == [.drawPictures(kitty), .repaint])
        #expect(state.options.pictures == kitty)
        #expect(state.update(.pictures(kitty, notice: "said"), list: list, now: .zero).isEmpty, "the same pictures: nothing to do")
        #expect(state.notice == "said")
    }

    @Test func aClickOpensThePostUnderThePointerBelowTheTitleBar() {
        let list = Self.list(10)
        var state = Self.state(list)
        // Body row 0 is screen row 1; post 1 takes body rows 5 to 9.
        let click = ReaderEvent.input(.mouse(MouseEvent(.press(.left), column: 5, row: 7)))
        #expect(state.update(click, list: list, now: .zero) == [.loadArticle(1), .write(.setRead(true, [1]))])
        // The title bar and the status line open nothing.
        #expect(state.update(.input(.mouse(MouseEvent(.press(.left), column: 5, row: 0))), list: list, now: .zero).isEmpty)
        #expect(state.update(.input(.mouse(MouseEvent(.press(.left), column: 5, row: 26))), list: list, now: .zero).isEmpty)
    }

    @Test func postsOnScreenAreMarkedReadAfterTheDelayWithOneWakeUp() {
        var options = ReaderOptions()
        options.markReadAfter = .seconds(1)
        let list = Self.list(20)
        var state = Self.state(list, options: options)
        #expect(state.update(.frameTick, list: list, now: .zero) == [.wake(.markReadCheck, after: .seconds(1))])
        #expect(state.update(.frameTick, list: list, now: .milliseconds(500)).isEmpty, "one wake-up at a time")
        let due = state.update(.timer(.markReadCheck), list: list, now: .seconds(1))
        #expect(due == [.write(.setRead(true, [0, 1, 2, 3, 4]))], "the five posts wholly on screen")
        #expect(state.update(.frameTick, list: list, now: .seconds(2)).isEmpty, "written once")
        // A post marked unread by hand stays unread.
        #expect(state.update(Self.key("m"), list: list, now: .seconds(3)) == [.write(.setRead(false, [0]))])
        #expect(state.keptUnread == [0])
        #expect(state.update(.frameTick, list: list, now: .seconds(3)).isEmpty)
        #expect(state.update(.frameTick, list: list, now: .seconds(10)).isEmpty)
    }

    @Test func theAutomaticRefreshRunsOnTheFrameClockAndNeverTwiceAtOnce() {
        var options = ReaderOptions()
        options.refreshInterval = .seconds(60)
        let list = Self.list(3)
        var state = Self.state(list, options: options)
        #expect(state.startRefreshing() == [.refresh(nil), .draw, .wake(.autoRefresh, after: .seconds(60))])
        // Due while the first is still running: no second refresh, the next wake-up asked for.
        #expect(state.update(.timer(.autoRefresh), list: list, now: .seconds(60)) == [.wake(.autoRefresh, after: .seconds(60))])
        _ = state.update(.refreshFinished([]), list: list, now: .seconds(61))
        #expect(state.update(.timer(.autoRefresh), list: list, now: .seconds(120))
            == [.refresh(nil), .draw, .wake(.autoRefresh, after: .seconds(60))])
    }

    @Test func aRefreshSaysItsProgressThenItsOutcomeWithTheNoticeOnce() {
        let list = Self.list(3)
        var state = Self.state(list)
        state.notice = "a setting this version cannot honour"
        _ = state.update(Self.key("R"), list: list, now: .zero)
        #expect(state.update(Self.key("R"), list: list, now: .zero) == [.draw])
        #expect(state.message == "already refreshing")
        let news = StoredFeed(id: 1, url: URL(string: "https://news.example/feed")!, title: "News")
        let broken = StoredFeed(id: 2, url: URL(string: "https://broken.example/feed")!, title: "Broken")
        var counts = EntryChangeCounts()
        counts.new = 3
        for progress in [FeedRefreshProgress.planned(feeds: 2), .started(news), .batchStored(news, counts: counts), .finished(FeedRefreshOutcome(feed: news, status: .refreshed(new: 3, modified: 0, unchanged: 0, malformed: false), movedTo: nil)),
                         .failed(broken, message: "HTTP 404")] {
            #expect(state.update(.refreshProgress(progress), list: list, now: .zero) == [.drawNextFrame])
        }
        #expect(state.statusText(hint: "", figures: "").hasPrefix("refreshing 2/2 feeds · 3 new · 1 failed"))
        _ = state.update(.refreshFinished([
            FeedRefreshOutcome(feed: news, status: .refreshed(new: 3, modified: 0, unchanged: 0, malformed: false), movedTo: nil),
            FeedRefreshOutcome(feed: broken, status: .failed("HTTP 404"), movedTo: nil),
        ]), list: list, now: .zero)
        #expect(state.statusText(hint: "", figures: "") == "refreshed 2 feeds: 3 new · failed: Broken: HTTP 404 · a setting this version cannot honour")
        _ = state.update(Self.key("R"), list: list, now: .zero)
        _ = state.update(.refreshFinished([]), list: list, now: .zero)
        #expect(!state.statusText(hint: "", figures: "").contains("cannot honour"), "said once")
    }

    @Test func withAnAccountEveryRefreshIsASyncThatSaysItsStepThenWhatChanged() {
        var options = ReaderOptions()
        options.syncs = true
        options.refreshInterval = .seconds(60)
        let list = Self.list(3)
        var state = Self.state(list, options: options)
        #expect(state.startRefreshing() == [.sync, .draw, .wake(.autoRefresh, after: .seconds(60))])
        #expect(state.update(Self.key("r"), list: list, now: .zero) == [.draw])
        #expect(state.message == "already syncing")

        var summary = SyncSummary()
        summary.received = 40
        #expect(state.update(.syncProgress(SyncRuntime.Progress(step: .items, summary: summary)), list: list, now: .zero) == [.drawNextFrame])
        #expect(state.statusText(hint: "", figures: "").hasPrefix("syncing: new items… · 40 received"))
        summary.new = 42
        summary.markedRead = 7
        summary.starred = 3
        summary.pushed = 2
        _ = state.update(.syncFinished(SyncRuntime.Outcome(summary: summary, failure: nil)), list: list, now: .zero)
        #expect(state.statusText(hint: "", figures: "") == "synced: 42 new, 7 marked read, 3 starred, 2 pushed")

        #expect(state.update(Self.key("R"), list: list, now: .zero) == [.sync, .draw])
        _ = state.update(.syncFinished(SyncRuntime.Outcome(summary: SyncSummary(), failure: SyncFailure(step: .logIn, error: .unauthorized))),
                         list: list, now: .zero)
        #expect(state.statusText(hint: "", figures: "")
            == "sync failed: log in: the server refused the user name or password (401) · your changes wait for the next sync")
    }

    @Test func aResizeLaysTheArticleOutAgainAndKeepsItsScrollInRange() {
        let list = Self.list(3)
        var state = Self.state(list)
        _ = state.update(.input(.key(KeyPress(.enter))), list: list, now: .zero)
        let text = "<p>" + Array(repeating: "A sentence of the article that wraps.", count: 40).joined(separator: " ") + "</p>"
        let entry = StoredEntry(id: 0, feedID: 1, entry: FeedEntry(id: "0", title: "Post 0", content: text), isRead: false,
                                isStarred: false, firstSeen: Self.epoch)
        _ = state.update(.articleLoaded(entry, ArticleScreen.document(of: entry)), list: list, now: .zero)
        _ = state.update(.input(.key(KeyPress(.character("G")))), list: list, now: .zero)
        guard case .article(let narrow, let scrolled) = state.screen else {
            Issue.record("the article is open")
            return
        }
        let effects = state.update(.input(.resize(columns: 200, rows: 27)), list: list, now: .zero)
        guard case .article(let wide, let scroll) = state.screen else {
            Issue.record("the article stays open")
            return
        }
        #expect(effects == [.resize(ScreenLayout(columns: 200, rows: 27)), .showFigures(wide.figures), .draw])
        #expect(wide.lines.count < narrow.lines.count)
        #expect(scroll <= wide.maxScroll(height: 25) && scroll <= scrolled)
    }
}
