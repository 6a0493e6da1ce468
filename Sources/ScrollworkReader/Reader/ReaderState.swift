import Feeds
import FeedSync
import Foundation
import ListViewport
import TerminalUI

/// Everything the reader shows and remembers, as a value, and what each event does to it.
///
/// ``update(_:list:now:)`` is pure: it reads the event, the list as it looks now and the
/// time, changes the state and returns the effects for ``Reader`` to perform (store writes,
/// refreshes, following the store, timers, moving the list, drawing). It never awaits, starts
/// a task or touches the store, so tests drive it without a database or a terminal.
package struct ReaderState {
    /// The matches a search of the post list reads, those stored last, ranked
    /// (``EntryQuery/matchWindow``).
    package static let searchMatchWindow = 1_000

    /// The screen in front, with its own state. The list is always under it.
    enum Screen {
        /// The post list.
        case list
        /// The key help over the list; any key closes it.
        case help
        /// A search being typed after `/`, shown in the status line, with the search it
        /// replaces (Escape puts it back).
        case search(text: String, before: String)
        /// The feed list over the post list.
        case feeds(FeedListScreen)
        /// An open article and how far it is scrolled.
        case article(ArticleScreen, scroll: Int)
    }

    /// What the list shows: all posts, or one feed's, maybe only unread ones, maybe only those
    /// matching a search.
    struct ListFilter: Equatable {
        var feed: FeedSummary?
        var unreadOnly = false
        /// The search as typed, in the query language of ``SearchQuery``; its last word
        /// matches the words it begins, since the list follows it as it is typed.
        var search = ""
        /// The saved search whose posts the list shows, narrowed by ``search``.
        var queryFeed: QueryFeed?
        /// How a search's results are ordered.
        var order = EntryQuery.Order.relevance

        /// The matches a search reads, those stored last, ranked: at most a keystroke's
        /// work in a store of any size (`bench search` measures it on 100,000 posts).
        static var searchWindow: Int { ReaderState.searchMatchWindow }

        /// The store's query for this filter; `now` is the instant `newer:` and `older:`
        /// count back from.
        func query(now: Date) -> EntryQuery {
            guard let parsed = parsedSearch(now: now) else { return EntryQuery(feed: feed?.id, unreadOnly: unreadOnly, limit: 10_000) }
            return EntryQuery(feed: feed?.id, unreadOnly: unreadOnly, search: parsed, order: order, matchWindow: Self.searchWindow, limit: 10_000)
        }

        /// The saved search narrowed by the typed one, either, or `nil` for neither.
        private func parsedSearch(now: Date) -> SearchQuery? {
            let typed = search.isEmpty ? nil : SearchQuery(parsing: search, asYouType: true, now: now)
            guard let queryFeed else { return typed }
            let saved = SearchQuery(parsing: queryFeed.query, now: now)
            return typed.map(saved.narrowed(by:)) ?? saved
        }

        /// The search, parsed for what does not depend on the time: its words, to highlight,
        /// and what it left out.
        var parsedSearch: SearchQuery? { parsedSearch(now: Date(timeIntervalSince1970: 0)) }
    }

    /// The refresh under way: feeds done of all, new posts so far, feeds failed.
    package struct Refreshing: Equatable {
        var done = 0
        var total = 0
        var new = 0
        var failed = 0
        /// Where a sync is, when the refresh is one.
        var sync: SyncRuntime.Progress?
        var isSync = false
    }

    /// A post's flags as written but not yet seen in a snapshot, so that a key pressed twice
    /// before the store answers flips the flag twice.
    struct PendingFlags: Equatable {
        var read: Bool?
        var starred: Bool?
        /// Writes of this post not finished yet.
        var writes = 0
    }

    let title: String
    private(set) var options: ReaderOptions
    private(set) var layout: ScreenLayout
    private(set) var screen: Screen = .list
    /// What the list shows.
    private(set) var filter = ListFilter()
    /// The words of the list's search, which the list highlights; `nil` without a search.
    private(set) var searchHighlight: SearchHighlight?
    /// What the list's search left out, and why, if anything.
    private(set) var searchProblem: String?
    /// How many posts a refresh or sync stored that the search index does not hold yet: a
    /// search finds them once the runtime has indexed them.
    private(set) var postsWaitingForIndex = 0
    /// The post the list's cursor is on, kept by identity as posts arrive above it.
    private(set) var selectedID: EntryRow.ID?
    /// The newest snapshot's rows by identity.
    private(set) var rowsByID: [EntryRow.ID: EntryRow] = [:]
    /// The newest snapshot's rows in order, when it was read on the wall clock, and when it
    /// came on the frame clock, for grouping them by day again when the grouping is turned on
    /// or off, or a new day starts.
    private var snapshotRows: (posts: [EntryRow], date: Date, at: Duration) = ([], Date(timeIntervalSince1970: 0), .zero)
    /// The number of the last wake-up asked for at a midnight, and the midnight it is for
    /// while it is pending: a new one replaces it only for another midnight.
    private var newDayNumber = 0
    private var newDayMidnight: Date?
    /// Unread posts in the newest snapshot.
    private(set) var unreadCount = 0
    /// The status line's message, shown until the next one.
    private(set) var message: String?
    /// Said once in the status line after the first refresh: a setting that cannot be honoured.
    var notice: String?
    /// The notice the last ``Event/pictures(_:notice:)`` gave, to take back when pictures
    /// change and it no longer holds.
    private var picturesNotice: String?
    package private(set) var refreshing: Refreshing?
    /// Refreshes finished since the reader started.
    package private(set) var refreshesFinished = 0
    /// The post being read from the store to open; an article that arrives for another post,
    /// or after the person moved on, is not shown.
    private(set) var opening: EntryRow.ID?
    /// Posts marked unread by hand this session: scrolling never marks them read.
    private(set) var keptUnread: Set<EntryRow.ID> = []
    private(set) var pending: [EntryRow.ID: PendingFlags] = [:]
    /// Since when each post has been fully visible while the list moved slowly enough to read.
    private var visibleSince: [EntryRow.ID: Duration] = [:]
    /// The last cursor move by key and when: presses repeating fast are a held key.
    private var lastMove: (delta: Int, time: Duration)?
    /// The generation of the query followed, and of the snapshots the list shows: none yet, so
    /// the first snapshot fills the list at once, with no diff to wait for.
    private(set) var generation = 0
    private var shownGeneration = 0
    /// The generation whose query refines the one shown (the search typed on), whose first
    /// snapshot animates.
    private var refinedGeneration: Int?
    private var timers: Set<ReaderTimer> = []
    private(set) var running = true
    /// Whether the first refresh waits for the first screen of posts (``start(holdingRefresh:)``).
    private(set) var refreshWaits = false
    /// The question about what the terminal draws, while its answers are awaited
    /// (``askCapabilities(throughTmux:insideTmux:resolve:)``).
    var question: CapabilityQuestion?
    /// The cell size in pixels the kernel last said, to follow a font change: the terminal's
    /// own answer wins until the kernel's changes.
    var kernelCellPixels: CellPixelSize?
    /// Events taken, so that a rest asked for before the last one is not said.
    private(set) var eventsTaken = 0
    /// The count of events taken when a rest was last asked for.
    var restAsked: Int?

    init(title: String, options: ReaderOptions, layout: ScreenLayout) {
        self.title = title
        self.options = options
        self.layout = layout
    }

    /// Whether the article is open.
    var isReadingArticle: Bool {
        if case .article = screen { true } else { false }
    }

    /// Follows the list's query; the first thing the reader does. When `holdingRefresh`, the
    /// first refresh waits for the first screen of posts, whose drawing its progress would
    /// take, or for a store with none to give (an empty snapshot), or a quarter of a second.
    ///
    /// Posts stored while the reader was closed (`scrollwork refresh`, a reader quit before it
    /// indexed them) are indexed at once, or, when the refresh is held, with it: the first
    /// screen does not share the store and the cores with them.
    mutating func start(holdingRefresh: Bool = false) -> [ReaderEffect] {
        var effects = follow()
        if holdingRefresh {
            refreshWaits = true
            effects += wake(.firstScreenDeadline, after: .milliseconds(250))
        } else {
            effects.append(.indexWaitingPosts)
        }
        return effects
    }

    /// Starts refreshing, and indexing the posts waiting, unless the refresh held for the
    /// first screen has started.
    private mutating func startRefreshingOnce() -> [ReaderEffect] {
        guard refreshWaits else { return [] }
        refreshWaits = false
        return [.indexWaitingPosts] + startRefreshing()
    }

    /// Refreshes every feed now, and then on the settings' interval.
    mutating func startRefreshing() -> [ReaderEffect] {
        var effects = refresh(nil)
        if let interval = options.refreshInterval { effects += wake(.autoRefresh, after: interval) }
        return effects
    }

    // MARK: Update

    /// Takes one event: changes the state and returns what the runtime must do, in order.
    ///
    /// - Parameters:
    ///   - list: the list as it looks now; the state reads it to move the cursor and to find
    ///     the post a key acts on.
    ///   - now: the frame clock's time.
    /// - Complexity: O(1) for most events; O(n) in the list's posts for a snapshot, a cursor
    ///   move or marking all read.
    mutating func update(_ event: ReaderEvent, list: ReaderList, now: Duration) -> [ReaderEffect] {
        // After quitting, nothing happens: the terminal may be given back already.
        guard running else { return [] }
        // A rest is due only if no event came since it was asked for.
        if case .timer(.rest(let taken)) = event { return taken == eventsTaken ? [.atRest] : [] }
        eventsTaken += 1
        var effects = take(event, list: list, now: now)
        // The first screen of posts is out, or the store has none to give: the refresh held
        // for it starts.
        if refreshWaits, running {
            switch event {
            case .rows(let rows, _, _, _, _) where rows.isEmpty: effects += startRefreshingOnce()
            case .frameTick where !list.items.isEmpty: effects += startRefreshingOnce()
            case .timer(.firstScreenDeadline): effects += startRefreshingOnce()
            default: break
            }
        }
        return effects
    }

    /// The runtime asks for no frame after the last event: the reader comes to rest
    /// ``restDelay`` later (``ReaderEffect/atRest``), unless another event comes first. Asked
    /// once per event.
    mutating func idle() -> [ReaderEffect] {
        guard running, restAsked != eventsTaken else { return [] }
        restAsked = eventsTaken
        return [.wake(.rest(eventsTaken), after: Self.restDelay)]
    }

    /// How long after its last event the reader is at rest.
    static let restDelay = Duration.milliseconds(200)

    /// ``update(_:list:now:)`` of one event, with no bookkeeping of events taken or the held refresh.
    mutating func take(_ event: ReaderEvent, list: ReaderList, now: Duration) -> [ReaderEffect] {
        switch event {
        case .input(let input):
            if let effects = answer(input, list: list, now: now) { return effects }
            return handle(input, list: list, now: now)
        case .kernelCellPixels(let cell):
            return followKernel(cell, list: list, now: now)
        case let .rows(rows, byID, unread, generation, date):
            guard generation == self.generation else { return [] }
            rowsByID = byID
            snapshotRows = (rows, date, now)
            unreadCount = unread
            settlePending()
            // The first snapshot of a new query is another list, not a change to animate.
            // A search refined as it is typed is the same list narrowing: its rows animate
            // out, in and into their ranks through the diff, as a refresh's do.
            let animated = generation == shownGeneration || generation == refinedGeneration
            shownGeneration = generation
            return [.submit(listRows, animated: animated)] + wakeAtMidnight()
        case .feeds(let overview):
            let summaries = overview.feeds
            if case .feeds(var list) = screen {
                list.update(summaries, queryFeeds: Array(zip(options.queryFeeds, overview.searches)))
                screen = .feeds(list)
            }
            if let feed = filter.feed, let current = summaries.first(where: { $0.id == feed.id }) {
                filter.feed = current
            }
            return [.drawNextFrame]
        case .thumbnailsArrived:
            return [.drawNextFrame]
        case let .pictures(mode, notice):
            if let notice {
                self.notice = notice
            } else if self.notice != nil && self.notice == picturesNotice {
                self.notice = nil
            }
            picturesNotice = notice
            guard mode != options.pictures else { return [] }
            options.pictures = mode
            return [.drawPictures(mode), .repaint]
        case let .articleLoaded(entry, document):
            guard opening == entry.id, case .list = screen else { return [] }
            opening = nil
            let article = ArticleScreen(entry: entry, document: document, feedTitle: rowsByID[entry.id]?.feedTitle ?? "",
                                        width: layout.columns, showsPictures: options.showsPictures, highlight: searchHighlight)
            // Opened from a search: at its first match, a few lines of context above.
            show(article, scrolledTo: article.firstMatchLine.map { $0 - 3 } ?? 0)
            return [.showFigures(article.figures), .draw]
        // What the status line says is drawn with the next frame: a refresh storing batch after
        // batch must not draw more than once a frame.
        case .refreshProgress(let progress):
            noteRefresh(progress)
            return [.drawNextFrame]
        case .refreshFinished(let outcomes):
            finishRefresh(outcomes)
            return [.indexWaitingPosts, .drawNextFrame]
        case .syncProgress(let progress):
            refreshing?.sync = progress
            return [.drawNextFrame]
        case .syncFinished(let outcome):
            finishSync(outcome)
            return [.indexWaitingPosts, .drawNextFrame]
        case .postsIndexed(let waiting):
            let searching = !filter.search.isEmpty || filter.queryFeed != nil
            postsWaitingForIndex = waiting
            return searching ? [.drawNextFrame] : []
        case .message(let text):
            message = text
            return [.drawNextFrame]
        case let .queryFeedSaved(feed, failure):
            if let failure {
                message = "the search was not saved: " + failure
            } else {
                if !options.queryFeeds.contains(feed) { options.queryFeeds.append(feed) }
                message = "saved “\(feed.name)” as a feed · f shows it"
            }
            return [.drawNextFrame]
        case .linkFound(let link):
            return open(link)
        case .timer(.autoRefresh):
            timers.remove(.autoRefresh)
            var effects = refreshing == nil ? refresh(nil) : []
            if let interval = options.refreshInterval { effects += wake(.autoRefresh, after: interval) }
            return effects
        case .timer(.markReadCheck):
            timers.remove(.markReadCheck)
            return markReadOnScroll(list: list, now: now)
        case .timer(.firstScreenDeadline):
            timers.remove(.firstScreenDeadline)
            return []
        case .timer(.newDay(let number)):
            guard number == newDayNumber, newDayMidnight != nil else { return [] }
            newDayMidnight = nil
            moveSnapshotClock(to: now)
            guard groupsByDay else { return [] }
            return [.submit(listRows, animated: true), .drawNextFrame] + wakeAtMidnight()
        case .timer(.rest):
            return []
        case let .written(write, failure):
            for id in write.ids {
                pending[id]?.writes -= 1
                if failure != nil { pending[id] = nil }
            }
            // The snapshot showing the write may have come before the word that it finished.
            settlePending()
            guard let failure else { return [] }
            return say("cannot save: \(failure)", now: false)
        case .frameTick:
            return markReadOnScroll(list: list, now: now)
        }
    }

    /// The status line says `text`, drawn now or with the next frame.
    private mutating func say(_ text: String, now: Bool = true) -> [ReaderEffect] {
        message = text
        return [now ? .draw : .drawNextFrame]
    }

    private mutating func wake(_ timer: ReaderTimer, after delay: Duration) -> [ReaderEffect] {
        guard timers.insert(timer).inserted else { return [] }
        return [.wake(timer, after: delay)]
    }

    private mutating func quit() -> [ReaderEffect] {
        running = false
        return [.quit]
    }

    // MARK: Input

    private mutating func handle(_ input: InputEvent, list: ReaderList, now: Duration) -> [ReaderEffect] {
        switch input {
        case .key(let press):
            return handle(press, list: list, now: now)
        case .mouse(let mouse):
            return handle(mouse, list: list, now: now)
        case .resize(let columns, let rows):
            // A terminal can report no size at all while it is being resized.
            layout = ScreenLayout(columns: columns, rows: rows)
            var effects: [ReaderEffect] = [.resize(layout)]
            if case .article(let open, let scroll) = screen {
                let article = ArticleScreen(entry: open.entry, document: open.document, feedTitle: open.feedTitle,
                                            width: layout.columns, showsPictures: options.showsPictures, highlight: open.highlight)
                show(article, scrolledTo: scroll)
                effects.append(.showFigures(article.figures))
            }
            return effects + [.draw]
        case .repaint:
            return [.repaint]
        case .focusGained:
            // Back in front in tmux: images sent while the pane was hidden never passed
            // through (tmux passes only from visible panes), so every picture is sent again.
            // tmux reports the focus with `focus-events on`.
            guard case .kitty(_, .placeholders(throughTmux: true)) = options.pictures else { return [] }
            return [.resendPictures]
        default:
            return []
        }
    }

    /// Ctrl-C and Ctrl-Z are fixed; every other key goes through the settings' bindings, except
    /// while a search is typed.
    private mutating func handle(_ press: KeyPress, list: ReaderList, now: Duration) -> [ReaderEffect] {
        if press.modifiers.contains(.control) {
            switch press.key {
            case .character("z"): return [.suspend]
            case .character("c"): return quit()
            default: break
            }
        }
        if case .search(let text, let before) = screen { return editSearch(press, text: text, before: before) }
        let action = options.keys.action(for: press)
        switch action {
        case .redraw: return [.repaint]
        case .quit: return quit()
        default: break
        }
        switch screen {
        case .help:
            screen = .list
            return [.draw]
        case .article(let article, let scroll):
            return handleArticle(action, article: article, scroll: scroll)
        case .feeds(let feeds):
            return handleFeedList(action, tab: press.key == .tab, feeds: feeds, list: list, now: now)
        case .list, .search:
            if press.key == .tab { return showFeeds() }
            guard let action else { return [] }
            return handleList(action, list: list, now: now)
        }
    }

    private mutating func handleList(_ action: ReaderAction, list: ReaderList, now: Duration) -> [ReaderEffect] {
        switch action {
        case .back:
            if !filter.search.isEmpty { return setFilter { $0.search = "" } + [.draw] }
            if filter.queryFeed != nil { return setFilter { $0.queryFeed = nil } + [.draw] }
            if filter.feed != nil { return setFilter { $0.feed = nil } + [.draw] }
            return quit()
        case .down: return moveSelection(by: 1, list: list, now: now)
        case .up: return moveSelection(by: -1, list: list, now: now)
        case .open: return openTarget(list: list)
        case .pageDown: return page(by: 1, list: list)
        case .pageUp: return page(by: -1, list: list)
        case .top: return jump(toEnd: false, list: list)
        case .bottom: return jump(toEnd: true, list: list)
        case .refresh: return refresh(filter.feed?.feed)
        case .refreshAll: return refresh(nil)
        case .star: return toggle(.starred, list: list)
        case .toggleRead: return toggle(.read, list: list)
        case .markAllRead: return markAllRead(list: list)
        case .unreadOnly:
            let effects = setFilter { $0.unreadOnly.toggle() }
            let key = options.keys.label(for: .unreadOnly)
            message = filter.unreadOnly ? "unread posts only · \(key) shows all" : "all posts · \(key) shows unread only"
            return effects + [.draw]
        case .search:
            screen = .search(text: filter.search, before: filter.search)
            return [.draw]
        case .saveSearch:
            guard !filter.search.isEmpty else { return say("no search to save: / searches") }
            guard options.settingsFile != nil else { return say("searches cannot be saved here: the reader has no settings file") }
            // What the list shows: a last word typed without a space after it matched the
            // words it begins, which the saved query says with `*`.
            let typed = filter.search + (filter.parsedSearch?.required.last?.last?.isPrefix == true && !filter.search.hasSuffix("*") ? "*" : "")
            let name = filter.queryFeed.map { $0.name + " › " + filter.search } ?? filter.search
            let query = filter.queryFeed.map { $0.query + " " + typed } ?? typed
            return [.saveQueryFeed(QueryFeed(name: name, query: query))]
        case .searchOrder:
            guard !filter.search.isEmpty || filter.queryFeed != nil else { return say("no search to order: / searches") }
            let effects = setFilter { $0.order = $0.order == .relevance ? .date : .relevance }
            let key = options.keys.label(for: .searchOrder)
            message = filter.order == .date ? "newest first · \(key) orders by relevance" : "most relevant first · \(key) orders by date"
            return effects + [.moveList(.scroll(to: 0, animated: false)), .draw]
        case .groupByDay:
            options.groupsByDay.toggle()
            // Days are titled from the wall clock now, not when the last snapshot came.
            moveSnapshotClock(to: now)
            let key = options.keys.label(for: .groupByDay)
            if options.groupsByDay && !groupsByDay {
                message = "grouped by day when ordered by date · \(key) turns it off"
            } else {
                message = options.groupsByDay ? "grouped by day · \(key) ungroups" : "not grouped by day · \(key) groups"
            }
            // The same posts, their headings animating in or out; the cursor stays on its post.
            return [.submit(listRows, animated: true), .draw] + wakeAtMidnight()
        case .feeds: return showFeeds()
        case .openLink:
            guard let id = targetID(list: list) else { return [] }
            return [.findLink(id)]
        case .help:
            screen = .help
            return [.draw]
        case .quit, .redraw: return []
        }
    }

    /// Typing after `/`: the list follows the search as it is typed (the store searches titles
    /// and excerpts off the main actor), Enter keeps it, Escape puts back the one before.
    private mutating func editSearch(_ press: KeyPress, text: String, before: String) -> [ReaderEffect] {
        var text = text
        switch press.key {
        case .enter:
            screen = .list
            return [.draw]
        case .escape:
            screen = .list
            return setFilter { $0.search = before } + [.draw]
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .character(let character) where !press.modifiers.contains(.alt):
            guard text.count < 200 else { return [] }
            text.append(character)
        default: return []
        }
        screen = .search(text: text, before: before)
        let effects = setFilter { $0.search = text }
        guard !effects.isEmpty else { return [.draw] }
        refinedGeneration = generation
        // The best matches are at the top.
        return effects + [.moveList(.scroll(to: 0, animated: false)), .draw]
    }

    private mutating func handleArticle(_ action: ReaderAction?, article: ArticleScreen, scroll: Int) -> [ReaderEffect] {
        guard let action else { return [] }
        let height = layout.body.height
        var scroll = scroll
        switch action {
        case .back:
            screen = .list
            return [.showFigures([]), .draw]
        case .down: scroll += 1
        case .up: scroll -= 1
        case .pageDown: scroll += height - 1
        case .pageUp: scroll -= height - 1
        case .top: scroll = 0
        case .bottom: scroll = article.maxScroll(height: height)
        case .star: return toggle(.starred, of: article.entry)
        case .toggleRead: return toggle(.read, of: article.entry)
        case .openLink: return open(article.entry.entry.link)
        case .refresh, .refreshAll: return refresh(nil)
        default: return []
        }
        show(article, scrolledTo: scroll)
        return [.draw]
    }

    /// Shows `article` scrolled to `scroll`, kept between its top and the last screenful.
    private mutating func show(_ article: ArticleScreen, scrolledTo scroll: Int) {
        screen = .article(article, scroll: min(max(0, scroll), article.maxScroll(height: layout.body.height)))
    }

    /// Opens a post's link in the browser, unless it has none or it is not a web address.
    private mutating func open(_ link: URL?) -> [ReaderEffect] {
        guard let link else { return say("this post has no link") }
        if let refusal = BrowserLauncher.refusal(link) { return say(refusal.description) }
        return [.openLink(link)]
    }

    private mutating func handleFeedList(_ action: ReaderAction?, tab: Bool, feeds: FeedListScreen, list: ReaderList,
                                         now: Duration) -> [ReaderEffect] {
        if tab { return hideFeeds() }
        guard let action else { return [] }
        var feeds = feeds
        switch action {
        case .back, .feeds: return hideFeeds()
        case .down: feeds.move(by: 1)
        case .up: feeds.move(by: -1)
        case .top: feeds.move(by: -feeds.entries.count)
        case .bottom: feeds.move(by: feeds.entries.count)
        case .refresh: return refresh(feeds.selectedFeed?.feed)
        case .refreshAll: return refresh(nil)
        case .open:
            let (chosen, queryFeed) = (feeds.selectedFeed, feeds.selectedQueryFeed)
            return hideFeeds() + setFilter {
                $0.feed = chosen
                $0.queryFeed = queryFeed
                $0.search = ""
            } + [.moveList(.scroll(to: 0, animated: false))]
        default: return []
        }
        screen = .feeds(feeds)
        return [.draw]
    }

    private mutating func handle(_ mouse: MouseEvent, list: ReaderList, now: Duration) -> [ReaderEffect] {
        if case .article(let article, let scroll) = screen {
            guard case .scroll(let direction) = mouse.action, direction == .up || direction == .down else { return [] }
            show(article, scrolledTo: scroll + (direction == .up ? -3 : 3))
            return [.draw]
        }
        guard case .list = screen else { return [] }
        if case .scroll(let direction) = mouse.action, direction == .up || direction == .down {
            return [.moveList(.fling(velocity: direction == .up ? -1_200 : 1_200))]
        }
        let body = layout.body
        // A click on a day's heading, or on the one pinned over the list, opens nothing.
        guard case .press(.left) = mouse.action, mouse.row >= body.top + Int(list.coveredTop.rounded()),
              let row = list.frame.rows.first(where: { row in
                  let top = body.top + Int(row.top.rounded())
                  return !row.isLeaving && top <= mouse.row && mouse.row < top + Int(row.height.rounded()) && body.contains(mouse.row)
              }), row.item.post != nil
        else { return [] }
        selectedID = row.item.id
        return openTarget(list: list)
    }

    // MARK: The cursor

    /// Moves the cursor `delta` posts and scrolls, gliding, just enough to show it. A key held
    /// down (its presses repeating faster than every 150 ms) glides with a fling's momentum,
    /// each press aiming the fling further, so the list slows down as a fling does when the key
    /// is let go; a single press eases the list into place.
    private mutating func moveSelection(by delta: Int, list: ReaderList, now: Duration) -> [ReaderEffect] {
        let items = list.items
        guard !items.isEmpty else { return [] }
        let current = list.row(of: selectedID)
        // The next post that way, over a day's heading; the cursor stays at either end.
        let next = current.map { list.post(atOrAfter: $0 + delta, step: delta) ?? $0 } ?? list.topRow
        selectedID = items[next].id
        let held = lastMove.map { $0.delta == delta && now - $0.time < .milliseconds(150) } ?? false
        lastMove = (delta, now)
        guard let destination = reveal(row: next, from: list.scroll.predictedLanding, list: list) else { return [.draw] }
        return [.moveList(held ? .glide(landingAt: destination) : .scroll(to: destination, animated: true))]
    }

    /// Where to scroll, from `offset`, so that `row` is wholly on screen, below the day's
    /// heading pinned over the list's top when it is grouped; `nil` when it is.
    private func reveal(row: Int, from offset: Double, list: ReaderList) -> Double? {
        let top = list.geometry.offset(ofRow: row) - list.pinnedHeadingHeight
        let bottom = list.geometry.offset(ofRow: row + 1)
        let height = list.scroll.viewportHeight
        if top < offset { return top }
        if bottom > offset + height { return bottom - height }
        return nil
    }

    /// Space and `b`: the list moves a page (a screen less one post, so the post at the edge
    /// stays in sight), and the cursor moves with it, keeping its place on the screen, as
    /// newsboat's does; at either end of the list, it goes to the first or the last post.
    private mutating func page(by direction: Int, list: ReaderList) -> [ReaderEffect] {
        let items = list.items
        guard !items.isEmpty else { return [] }
        let scroll = list.scroll
        let from = scroll.predictedLanding
        // In a list grouped by day, the line of the heading pinned at the top is not the list's.
        let covered = list.pinnedHeadingHeight
        let step = max(1, scroll.viewportHeight - Double(PostListScreen.rowHeight) - covered)
        let target = min(max(0, from + Double(direction) * step), scroll.maxOffset)
        let current = list.row(of: selectedID) ?? list.topRow
        var next: Int
        if target == from {
            next = direction > 0 ? items.count - 1 : 0
            next = list.post(atOrAfter: next, step: direction > 0 ? -1 : 1) ?? next
        } else {
            // The post at the cursor's place on the screen after the move, else the nearest one
            // wholly on it, below the pinned heading.
            let place = list.geometry.offset(ofRow: current) - from
            var row = list.geometry.row(atOffset: target + max(covered, place)) ?? (direction > 0 ? items.count - 1 : 0)
            if list.geometry.offset(ofRow: row) < target + covered { row += 1 }
            while row > 0, list.geometry.offset(ofRow: row + 1) > target + scroll.viewportHeight + 0.5 { row -= 1 }
            next = min(max(0, row), items.count - 1)
            if items[next].isHeading {
                // The post above a day's heading is on the new screen unless under the pinned
                // heading; else the one below it.
                let above = list.post(atOrAfter: next - 1, step: -1)
                next = above.flatMap { list.geometry.offset(ofRow: $0) >= target + covered ? $0 : nil }
                    ?? list.post(atOrAfter: next, step: 1) ?? next
            }
        }
        selectedID = items[next].id
        lastMove = nil
        guard target != from else {
            return [reveal(row: next, from: from, list: list).map { .moveList(.scroll(to: $0, animated: true)) } ?? .draw]
        }
        return [.moveList(.scroll(to: target, animated: true))]
    }

    /// `g` and `G`: the list goes to its top or its bottom, and the cursor to the first or the
    /// last post.
    private mutating func jump(toEnd: Bool, list: ReaderList) -> [ReaderEffect] {
        guard !list.items.isEmpty else { return [] }
        selectedID = list.post(atOrAfter: toEnd ? list.items.count - 1 : 0, step: toEnd ? -1 : 1).map { list.items[$0].id }
        lastMove = nil
        return [.moveList(.scroll(to: toEnd ? .greatestFiniteMagnitude : 0, animated: true))]
    }

    /// The post a key acts on: the one under the cursor while it is on screen, else the first
    /// post fully on screen (a fling moves the list, not the cursor).
    func targetID(list: ReaderList) -> EntryRow.ID? {
        guard !list.items.isEmpty else { return nil }
        let height = list.scroll.viewportHeight
        let covered = list.coveredTop
        if let selectedID, list.frame.rows.contains(where: { $0.item.id == selectedID && !$0.isLeaving && $0.top + $0.height > covered
                                                             && $0.top < height }) {
            return selectedID
        }
        return list.items[list.topRow].id
    }

    // MARK: Posts

    /// Opens the post a key acts on, and marks it read.
    private mutating func openTarget(list: ReaderList) -> [ReaderEffect] {
        guard let id = targetID(list: list) else { return [] }
        selectedID = id
        opening = id
        return [.loadArticle(id)] + write(.setRead(true, [id]))
    }

    enum Flag {
        case read, starred
    }

    /// A post's flag as the person last set it: written but not yet in a snapshot, else as
    /// the newest snapshot has it.
    func flag(_ flag: Flag, of id: EntryRow.ID) -> Bool? {
        switch flag {
        case .read: pending[id]?.read ?? rowsByID[id]?.isRead
        case .starred: pending[id]?.starred ?? rowsByID[id]?.isStarred
        }
    }

    /// Flips a flag of the post under the cursor.
    private mutating func toggle(_ flag: Flag, list: ReaderList) -> [ReaderEffect] {
        guard let id = targetID(list: list), let current = self.flag(flag, of: id) else { return [] }
        selectedID = id
        return toggle(flag, id: id, current: current)
    }

    /// Flips a flag of the open article's post.
    private mutating func toggle(_ flag: Flag, of entry: StoredEntry) -> [ReaderEffect] {
        let current = self.flag(flag, of: entry.id) ?? (flag == .read ? entry.isRead : entry.isStarred)
        return toggle(flag, id: entry.id, current: current)
    }

    /// A post marked unread by hand is never marked read again by scrolling past it.
    private mutating func toggle(_ flag: Flag, id: EntryRow.ID, current: Bool) -> [ReaderEffect] {
        switch flag {
        case .read:
            if current { keptUnread.insert(id) } else { keptUnread.remove(id) }
            return write(.setRead(!current, [id]))
        case .starred:
            return write(.setStarred(!current, [id]))
        }
    }

    /// Marks every post the list shows read.
    private mutating func markAllRead(list: ReaderList) -> [ReaderEffect] {
        let ids = list.items.compactMap(\.post?.id).filter { flag(.read, of: $0) == false }
        guard !ids.isEmpty else { return [] }
        message = "marked \(ids.count) post\(ids.count == 1 ? "" : "s") read"
        return write(.setRead(true, ids)) + [.draw]
    }

    /// Asks for `write`, remembering the flags it sets until a snapshot shows them.
    private mutating func write(_ write: StoreWrite) -> [ReaderEffect] {
        for id in write.ids {
            var flags = pending[id] ?? PendingFlags()
            switch write {
            case .setRead(let value, _): flags.read = value
            case .setStarred(let value, _): flags.starred = value
            }
            flags.writes += 1
            pending[id] = flags
        }
        return [.write(write)]
    }

    /// Forgets the flags of finished writes that the newest snapshot shows. One it does not
    /// show yet is kept: the snapshot may have been read before the write. Called when a
    /// snapshot arrives and when a write finishes, as either may come first.
    private mutating func settlePending() {
        guard !pending.isEmpty else { return }
        pending = pending.filter { id, flags in
            guard flags.writes <= 0, let row = rowsByID[id] else { return flags.writes > 0 }
            return (flags.read.map { $0 != row.isRead } ?? false) || (flags.starred.map { $0 != row.isStarred } ?? false)
        }
    }

    // MARK: The list's query

    /// Whether the list shows its posts under the days' headings: when the settings (or the
    /// key) ask for it, unless the list is a search ranked by relevance, whose order has no days.
    var groupsByDay: Bool {
        options.groupsByDay && (filter.order == .date || (filter.search.isEmpty && filter.queryFeed == nil))
    }

    /// The calendar whose days group the list: the options', else the user's.
    private var calendar: Calendar { options.calendar ?? .current }

    /// A wake-up at the next midnight of the newest snapshot's day, when the list is grouped:
    /// its days are titled again then. At most one is pending.
    private mutating func wakeAtMidnight() -> [ReaderEffect] {
        // Before the first snapshot there is no wall-clock time to count from.
        guard groupsByDay, shownGeneration > 0 else { return [] }
        let today = calendar.startOfDay(for: snapshotRows.date)
        guard let midnight = calendar.date(byAdding: .day, value: 1, to: today), newDayMidnight != midnight else { return [] }
        newDayNumber += 1
        newDayMidnight = midnight
        let seconds = max(1, midnight.timeIntervalSince(snapshotRows.date))
        return [.wake(.newDay(newDayNumber), after: .milliseconds(Int64((seconds * 1000).rounded(.up))))]
    }

    /// The newest snapshot's wall-clock time, moved on as the frame clock has since it came.
    private mutating func moveSnapshotClock(to now: Duration) {
        let elapsed = (now - snapshotRows.at).components
        snapshotRows.date.addTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        snapshotRows.at = now
    }

    /// The newest snapshot's posts as the list shows them: grouped by day, or not.
    /// - Complexity: O(n).
    private var listRows: [PostListRow] {
        groupsByDay ? PostListRow.grouped(snapshotRows.posts, byDayIn: calendar, now: snapshotRows.date)
            : PostListRow.ungrouped(snapshotRows.posts)
    }

    /// Shows the list with `change` applied to its filter, following the store anew; the
    /// caller draws.
    private mutating func setFilter(_ change: (inout ListFilter) -> Void) -> [ReaderEffect] {
        var next = filter
        change(&next)
        guard next != filter else { return [] }
        filter = next
        let search = next.parsedSearch
        searchHighlight = search.map(SearchHighlight.init).flatMap { $0.isEmpty ? nil : $0 }
        searchProblem = search?.problems.first
        return follow()
    }

    /// Follows the rows of the list's query: a new query starts a new generation, so that a
    /// snapshot of the old one still on its way is dropped.
    private mutating func follow() -> [ReaderEffect] {
        generation += 1
        return [.follow(filter, generation: generation)]
    }

    // MARK: Feeds

    private mutating func showFeeds() -> [ReaderEffect] {
        var feeds = FeedListScreen(selected: filter.feed?.id)
        feeds.colors = options.colors
        screen = .feeds(feeds)
        return [.followFeeds(true), .draw]
    }

    private mutating func hideFeeds() -> [ReaderEffect] {
        screen = .list
        return [.followFeeds(false), .draw]
    }

    // MARK: Refreshing

    /// Refreshes `feed`, or every feed, unless a refresh is under way.
    private mutating func refresh(_ feed: StoredFeed?) -> [ReaderEffect] {
        guard refreshing == nil else { return say(options.syncs ? "already syncing" : "already refreshing") }
        message = nil
        guard !options.syncs else {
            // The server fetches every feed: a refresh of one is a sync of all.
            refreshing = Refreshing(isSync: true)
            return [.sync, .draw]
        }
        refreshing = Refreshing()
        return [.refresh(feed), .draw]
    }

    private mutating func finishSync(_ outcome: SyncRuntime.Outcome) {
        refreshing = nil
        refreshesFinished += 1
        if let failure = outcome.failure {
            // What was done stays; the queue of changes waits for the next sync.
            message = "sync failed: \(failure) · your changes wait for the next sync"
        } else {
            message = "synced: \(outcome.summary)"
        }
        if let notice {
            message! += " · " + notice
            self.notice = nil
        }
    }

    private mutating func noteRefresh(_ progress: FeedRefreshProgress) {
        guard var state = refreshing else { return }
        switch progress {
        case .started: state.total = max(state.total, state.done + 1)
        case .batchStored(_, let counts): state.new += counts.new
        case .finished: state.done += 1
        case .failed:
            state.done += 1
            state.failed += 1
        case .planned(let feeds): state.total = feeds
        }
        refreshing = state
    }

    private mutating func finishRefresh(_ outcomes: [FeedRefreshOutcome]) {
        refreshing = nil
        refreshesFinished += 1
        let failures = outcomes.compactMap { outcome -> String? in
            if case .failed(let why) = outcome.status { "\(outcome.feed.displayTitle): \(why)" } else { nil }
        }
        let new = outcomes.reduce(0) { total, outcome in
            if case .refreshed(let new, _, _, _) = outcome.status { total + new } else { total }
        }
        var text = "refreshed \(outcomes.count) feed\(outcomes.count == 1 ? "" : "s"): \(new) new"
        if let first = failures.first {
            text += failures.count == 1 ? " · failed: \(first)" : " · \(failures.count) failed (f lists them)"
        }
        if let notice {
            text += " · " + notice
            self.notice = nil
        }
        message = text
    }

    // MARK: Marking read while scrolling

    /// With the option on, a post counts as read once it has been fully on screen for the set
    /// time while the list moved slower than a screen a second (slow enough to read), never
    /// merely because a fling swept over it. Called on every frame; when the list rests, a
    /// wake-up is asked for when the next post comes due.
    private mutating func markReadOnScroll(list: ReaderList, now: Duration) -> [ReaderEffect] {
        guard let delay = options.markReadAfter, case .list = screen else { return [] }
        let speed = abs(list.scroll.velocity(at: now))
        let height = list.scroll.viewportHeight
        guard speed < height else {
            // Too fast to read: every clock starts again.
            visibleSince.removeAll()
            return []
        }
        let top = list.scroll.offset
        var fully: Set<EntryRow.ID> = []
        let covered = list.coveredTop
        for row in list.frame.rows where !row.isLeaving && row.opacity >= 1 && !row.item.isHeading {
            if row.top >= covered, row.top + row.height <= height + 0.5, row.top + top >= 0 { fully.insert(row.item.id) }
        }
        visibleSince = visibleSince.filter { fully.contains($0.key) }
        var due: [EntryRow.ID] = []
        var next: Duration?
        for id in fully where !keptUnread.contains(id) && flag(.read, of: id) == false {
            let since = visibleSince[id] ?? now
            visibleSince[id] = since
            if now - since >= delay {
                due.append(id)
            } else {
                next = min(next ?? .seconds(1_000_000), since + delay - now)
            }
        }
        var effects: [ReaderEffect] = []
        if !due.isEmpty {
            for id in due { visibleSince[id] = nil }
            effects += write(.setRead(true, due.sorted()))
        }
        // Not a frame: a frame here would start a second chain of frames beside the list's.
        if let next { effects += wake(.markReadCheck, after: next) }
        return effects
    }
}

extension StoredFeed {
    /// The feed's title, else its address.
    var displayTitle: String {
        title.flatMap { $0.isEmpty ? nil : $0 } ?? url.absoluteString
    }
}
