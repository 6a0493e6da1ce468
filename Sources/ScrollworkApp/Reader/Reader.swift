import ContentLoading
import Feeds
import Foundation
import ListDiff
import ListViewport
import TerminalUI

/// The terminal feed reader: a frame loop on the main actor that draws the post list of the
/// store, follows it as refreshes change it, and answers keys.
///
/// The loop sleeps when nothing moves: it wakes for a key, a new snapshot of the store, or
/// the next frame while the list scrolls or animates (at most one per frame of its
/// ``FrameScheduling``). Parsing, storing and diffing never run on it: the store's change
/// stream delivers snapshots, the viewport diffs them off the main actor and applies one chunk
/// per frame.
///
/// Everything arrives as an ``Event`` through ``send(_:)``; ``run()`` feeds it from the
/// terminal, the store and the loader, and tests and `scrollwork bench ui` call it directly
/// with a ``ScriptedTerminal`` and ``ManualFrames``.
@MainActor
final class Reader: ListViewportHost {
    typealias Item = EntryRow

    enum Event: Sendable {
        case input(InputEvent)
        /// A snapshot of the list of query `generation`, with its rows by identity (made off
        /// the main actor). Snapshots of an earlier query are dropped.
        case rows([EntryRow], [EntryRow.ID: EntryRow], unread: Int, generation: Int)
        /// The feeds with their counts, for the feed list.
        case feeds([FeedSummary])
        case refreshProgress(FeedRefreshProgress)
        case refreshFinished([FeedRefreshOutcome])
        /// A message for the status line.
        case message(String)
        case tick
        case thumbnailsArrived
        /// A post to show, with its text parsed off the main actor.
        case articleLoaded(StoredEntry, ArticleDocument)
        /// Time to refresh on the settings' interval.
        case autoRefresh
        /// Open this link in the browser (`o`); `nil` when the post has none.
        case openLink(URL?)
        /// Time to look again at which posts have been on screen long enough to count as read.
        case markReadCheck
        /// Time to show the loader's figures again while images load.
        case loaderFigures
    }

    /// What the list shows: all posts, or one feed's, maybe only unread ones, maybe only those
    /// matching a search.
    struct ListFilter: Equatable {
        var feed: FeedSummary?
        var unreadOnly = false
        var search = ""

        var query: EntryQuery {
            EntryQuery(feed: feed?.id, unreadOnly: unreadOnly, textContains: search.isEmpty ? nil : search, limit: 10_000)
        }
    }

    /// The reader's options, from the settings file.
    struct Options {
        /// Refresh every feed this often; `nil` never.
        var refreshInterval: Duration? = .seconds(30 * 60)
        /// Mark a post read once it has been fully visible this long while the list moved slowly
        /// enough to read it; `nil` to mark posts read only by opening them.
        var markReadAfter: Duration?
        var colorMode: ColorMode = .palette256
        /// What each key does.
        var keys = KeyBindings.defaults
        var colors = ReaderColors.defaults
        /// Whether thumbnails and article pictures are drawn (`image_mode = "none"` turns them off).
        var showsPictures = true

        init() {}

        /// The options the settings file asks for, in a terminal of `colorMode`.
        init(settings: ReaderSettings, colorMode: ColorMode) {
            refreshInterval = settings.refreshInterval
            markReadAfter = settings.markReadOnScroll ? settings.markReadAfter : nil
            self.colorMode = colorMode
            keys = settings.keys
            colors = settings.colors
            showsPictures = settings.imageMode != .none
        }
    }

    let terminal: any ReaderTerminal
    let store: FeedStore
    let refresher: FeedRefresher
    let frames: any FrameScheduling
    /// Opens links (`o`).
    var browser = BrowserLauncher()
    let title: String
    let options: Options
    private(set) var viewport: ListViewport<EntryRow>!
    var renderer: FrameRenderer
    var buffer: CellBuffer
    /// The status line's message, shown until the next one.
    var message: String?
    private(set) var running = true
    private var frameRequested = false
    let events: AsyncStream<Event>
    let sink: AsyncStream<Event>.Continuation
    /// The last frame the viewport rendered, drawn again when only the status changes.
    var lastFrame = ListViewport<EntryRow>.Frame(rows: [], offset: 0, contentHeight: 0)
    let thumbnails: ThumbnailShelf
    var rowsByID: [EntryRow.ID: EntryRow] = [:]
    /// Unread posts in the newest snapshot of the list.
    private var unreadCount = 0
    /// The post the list's cursor is on, kept by identity as posts arrive above it.
    var selectedID: EntryRow.ID?
    /// The open article and how far it is scrolled, over the list.
    var article: (screen: ArticleScreen, scroll: Int)?
    /// The feed list, when it is shown over the post list.
    var feedList: FeedListScreen?
    /// What the list shows.
    private(set) var filter = ListFilter()
    /// The search being typed after `/`, shown in the status line; `nil` when not typing.
    var searchField: String?
    /// Whether the key help is shown over the list (`?`).
    var showsHelp = false
    /// The refresh under way: feeds done of all, and new posts so far.
    var refreshing: (done: Int, total: Int, new: Int, failed: Int)?
    /// The posts' cells as last drawn, reused while they are unchanged.
    private let strips = PostListScreen.StripCache()
    /// Frames the reader has drawn, for tests and the UI benchmark.
    private(set) var framesDrawn = 0
    /// Since when each post has been fully visible while the list moved slowly enough to read.
    var visibleSince: [EntryRow.ID: Duration] = [:]
    /// The last cursor move by key and when: presses repeating fast are a held key.
    var lastMove: (delta: Int, time: Duration)?
    /// Refreshes finished since the reader started.
    var refreshesFinished = 0
    /// Said once in the status line after the first refresh: a setting that cannot be honoured.
    var notice: String?
    /// The refresh under way, cancelled and awaited when the reader quits, so that the fetcher
    /// is closed only after it.
    var refreshTask: Task<Void, Never>?
    /// Posts marked unread by hand this session: scrolling never marks them read.
    var keptUnread: Set<EntryRow.ID> = []
    /// The search in force when `/` was pressed, put back by Escape.
    var searchBefore = ""
    /// A wake-up asked for to mark posts read on time.
    var readTimerPending = false
    /// A wake-up asked for to redraw the loader's figures.
    private var statusTimerPending = false

    /// The task following the store's rows for the list's query, and its generation.
    private var watcher: Task<Void, Never>?
    private var generation = 0
    /// The generation of the snapshots submitted to the viewport.
    private var shownGeneration = 1
    /// The task following the feeds' counts while the feed list is open.
    private var feedWatcher: Task<Void, Never>?

    init(terminal: any ReaderTerminal, store: FeedStore, refresher: FeedRefresher, title: String,
         frames: any FrameScheduling, thumbnails: ThumbnailShelf = ThumbnailShelf(), options: Options = Options()) {
        self.terminal = terminal
        self.store = store
        self.refresher = refresher
        self.title = title
        self.frames = frames
        self.thumbnails = thumbnails
        self.options = options
        let size = terminal.size
        buffer = CellBuffer(columns: max(1, size.columns), rows: max(1, size.rows))
        renderer = FrameRenderer(options: .init(colorMode: options.colorMode))
        (events, sink) = AsyncStream<Event>.makeStream()
        viewport = ListViewport(host: self)
        viewport.setViewportHeight(Double(max(1, size.rows - 2)))
    }

    var now: Duration { frames.now }

    /// Runs until the person quits: follows the store, reads the terminal, refreshes once and
    /// then on the settings' interval.
    func run() async {
        let sink = self.sink
        start()
        var input = terminal.startReading { sink.yield(.input($0)) }
        let arrivals = thumbnails.loader.deliveriesPending
        let deliveries = Task {
            for await _ in arrivals { sink.yield(.thumbnailsArrived) }
        }
        let timer = options.refreshInterval.map { interval in
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    sink.yield(.autoRefresh)
                }
            }
        }
        refresh(feed: nil)
        for await event in events {
            if case .openLink(let link?) = event, BrowserLauncher.refusal(link) == nil {
                // A browser in the terminal needs its input: stop reading first, start again after.
                input.stop()
                openInBrowser(link)
                input = terminal.startReading { sink.yield(.input($0)) }
                continue
            }
            send(event)
            if !running { break }
        }
        watcher?.cancel()
        feedWatcher?.cancel()
        timer?.cancel()
        deliveries.cancel()
        input.stop()
        refreshTask?.cancel()
        await refreshTask?.value
        await thumbnails.shutdown()
    }

    /// Starts following the store and draws the first frame; ``run()`` calls it, a test that
    /// drives the reader by hand calls it instead.
    func start() {
        watch()
        viewport.tick(at: now)
    }

    /// Takes one event, then asks for a frame if something moves or arrived.
    func send(_ event: Event) {
        guard let frameLog else {
            handle(event)
            if running { requestFrameIfNeeded() }
            return
        }
        let started = ContinuousClock.now
        let drawn = framesDrawn
        handle(event)
        if running { requestFrameIfNeeded() }
        frameLog.record(ContinuousClock.now - started, drew: framesDrawn > drawn)
    }

    /// Where `scrollwork bench ui` keeps the time of every event the main actor handled.
    var frameLog: FrameLog?

    /// Stops following the store; for tests that drive the reader by hand.
    func stop() {
        watcher?.cancel()
        feedWatcher?.cancel()
    }

    private func handle(_ event: Event) {
        // After quitting, nothing is drawn: the terminal may be given back already.
        guard running else { return }
        switch event {
        case .input(let input):
            handle(input)
        case .rows(let rows, let byID, let unread, let generation):
            guard generation == self.generation else { return }
            rowsByID = byID
            unreadCount = unread
            // The first snapshot of a new query is another list, not a change to animate.
            viewport.submit(rows, animated: generation == shownGeneration)
            shownGeneration = generation
        case .feeds(let summaries):
            feedList?.update(summaries)
            if let feed = filter.feed, let current = summaries.first(where: { $0.id == feed.id }) {
                filter.feed = current
            }
            needsRedraw = true
        case .thumbnailsArrived:
            // Delivered with the next frame, at most once a frame.
            needsRedraw = true
        case .articleLoaded(let entry, let document):
            let feedTitle = rowsByID[entry.id]?.feedTitle ?? ""
            let screen = ArticleScreen(entry: entry, document: document, feedTitle: feedTitle, width: buffer.columns,
                                       showsPictures: options.showsPictures)
            article = (screen, 0)
            thumbnails.showFigures(screen.figures)
            draw()
        // What the status line says is drawn with the next frame: a refresh storing batch after
        // batch must not draw more than once a frame.
        case .refreshProgress(let progress):
            noteRefresh(progress)
            needsRedraw = true
        case .refreshFinished(let outcomes):
            finishRefresh(outcomes)
            needsRedraw = true
        case .message(let text):
            message = text
            needsRedraw = true
        case .autoRefresh:
            if refreshing == nil { refresh(feed: nil) }
        case .openLink(let link):
            openInBrowser(link)
        case .markReadCheck:
            readTimerPending = false
            markReadOnScroll()
        case .loaderFigures:
            statusTimerPending = false
            needsRedraw = true
        case .tick:
            frameRequested = false
            let arrived = thumbnails.deliver()
            let redraw = needsRedraw || arrived > 0
            needsRedraw = false
            if viewport.needsTick {
                viewport.tick(at: now)
            } else if redraw {
                draw()
            }
            markReadOnScroll()
        }
    }

    /// Follows the rows of the list's query: every committed change that alters them arrives
    /// as a snapshot, diffed and animated by the viewport. A new query starts a new generation,
    /// so a snapshot of the old one still on its way is dropped.
    func watch() {
        watcher?.cancel()
        generation += 1
        let generation = self.generation
        let sink = self.sink
        let observation = store.observeRows(filter.query)
        watcher = Task.detached {
            do {
                for try await rows in observation {
                    let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                    let unread = rows.reduce(0) { $0 + ($1.isRead ? 0 : 1) }
                    sink.yield(.rows(rows, byID, unread: unread, generation: generation))
                }
            } catch {
                sink.yield(.message("the database failed: \(error)"))
            }
        }
    }

    /// Shows the list with `change` applied to its filter, following the store anew.
    func setFilter(_ change: (inout ListFilter) -> Void) {
        var next = filter
        change(&next)
        guard next != filter else { return }
        filter = next
        watch()
        draw()
    }

    /// Follows the feeds' counts while the feed list is open.
    func watchFeeds(_ on: Bool) {
        feedWatcher?.cancel()
        feedWatcher = nil
        guard on else { return }
        let sink = self.sink
        let observation = store.observeFeedSummaries()
        feedWatcher = Task.detached {
            do {
                for try await summaries in observation { sink.yield(.feeds(summaries)) }
            } catch {
                sink.yield(.message("the database failed: \(error)"))
            }
        }
    }

    /// Quits the reader.
    func quit() {
        running = false
    }

    /// Whether the next frame must draw: thumbnails arrived, or the status line or the feed
    /// list changed.
    private var needsRedraw = false

    private func requestFrameIfNeeded() {
        guard viewport.needsTick || needsRedraw, !frameRequested else { return }
        frameRequested = true
        frames.requestFrame { [weak self] in self?.send(.tick) }
    }

    /// Draws the screen as it is now: the open article, or the list (with the feed list or the
    /// help over it).
    func draw() {
        guard running else { return }
        framesDrawn += 1
        if let article {
            article.screen.draw(scroll: article.scroll, status: "j/k scroll · space page · o open in browser · q back",
                                pictures: { [thumbnails] in thumbnails.figure($0) }, accent: options.colors.accent, into: &buffer)
        } else if let feedList {
            feedList.draw(status: statusText(hint: "enter show · q back"), into: &buffer)
        } else {
            let count = viewport.items.count
            var heading = title
            if let feed = filter.feed { heading += " › " + feed.feed.displayTitle }
            heading += " — \(count)\(filter.unreadOnly ? " unread" : "") post\(count == 1 ? "" : "s")"
            if !filter.search.isEmpty { heading += " matching “\(filter.search)”" }
            if !filter.unreadOnly && unreadCount > 0 { heading += ", \(unreadCount) unread" }
            var screen = PostListScreen(title: heading, status: statusText(hint: listHint), now: Date())
            screen.selectedID = selectedID
            screen.showsHelp = showsHelp
            screen.strips = strips
            screen.colors = options.colors
            screen.keys = options.keys
            screen.showsPictures = options.showsPictures
            if count == 0 { screen.emptyText = emptyText }
            screen.draw(lastFrame, pictures: { [thumbnails] in thumbnails.picture(for: $0) }, into: &buffer)
        }
        terminal.write(renderer.render(buffer))
        followLoaderFigures()
    }

    /// While images load, the status line's figures change without a frame to show them: ask
    /// for a redraw four times a second until the loader is idle.
    private func followLoaderFigures() {
        guard !statusTimerPending, article == nil else { return }
        let metrics = thumbnails.loader.metrics
        guard metrics.running + metrics.waiting > 0 else { return }
        statusTimerPending = true
        frames.schedule(after: .milliseconds(250)) { [weak self] in self?.send(.loaderFigures) }
    }

    /// The status line's hint on the post list, with the keys the settings bind.
    var listHint: String {
        let keys = options.keys
        return "\(keys.label(for: .help)) help · \(keys.label(for: .search)) search · \(keys.label(for: .feeds)) feeds · "
            + "\(keys.label(for: .refreshAll)) refresh · \(keys.label(for: .back)) quit"
    }

    /// What an empty list says.
    private var emptyText: String {
        if !filter.search.isEmpty { return "No post matches “\(filter.search)”. Esc clears the search." }
        if filter.unreadOnly { return "No unread posts. u shows all of them." }
        if refreshing != nil { return "Loading…" }
        return "No posts yet. r refreshes; scrollwork add URL subscribes to a feed."
    }

    /// The status line: the search being typed, a refresh under way, or the last message,
    /// then the loader's figures at the right.
    func statusText(hint: String) -> String {
        if let searchField { return "/" + searchField + "▏  enter search · esc cancel" }
        var left = message ?? hint
        if let refreshing {
            left = "refreshing \(refreshing.done)/\(refreshing.total) feed\(refreshing.total == 1 ? "" : "s")"
                + (refreshing.new > 0 ? " · \(refreshing.new) new" : "")
                + (refreshing.failed > 0 ? " · \(refreshing.failed) failed" : "")
        }
        let metrics = thumbnails.loader.metrics
        let figures = "images: \(metrics.running) loading · \(metrics.waiting) queued · \(metrics.memoryCacheHits + metrics.diskCacheHits) cached"
        let room = buffer.columns - 2 - DisplayWidth.of(left)
        let figuresWidth = DisplayWidth.of(figures)
        guard room > figuresWidth + 2 else { return left }
        return left + String(repeating: " ", count: room - figuresWidth) + figures
    }

    // MARK: ListViewportHost

    func estimatedHeight(of item: EntryRow) -> Double { Double(PostListScreen.rowHeight) }
    func didApply(_ update: UpdateCoalescer<SoleSection, EntryRow>.Update) {}
    func willDisplay(_ item: EntryRow, at row: Int) {
        guard options.showsPictures else { return }
        thumbnails.display(item)
    }

    func didEndDisplaying(_ id: EntryRow.ID) {
        thumbnails.endDisplay(id)
        visibleSince[id] = nil
    }

    /// Loading follows the ranges every frame, in ``render(_:)``.
    func rangesDidChange(_ changes: RangeTracker<EntryRow.ID>.Changes) {}

    func render(_ frame: ListViewport<EntryRow>.Frame) {
        if options.showsPictures { thumbnails.load(viewport.ranges, items: viewport.items) }
        lastFrame = frame
        draw()
    }
}

extension StoredFeed {
    /// The feed's title, else its address.
    var displayTitle: String {
        title.flatMap { $0.isEmpty ? nil : $0 } ?? url.absoluteString
    }
}
