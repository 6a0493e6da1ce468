import ContentLoading
import Feeds
import Foundation
import ListDiff
import ListViewport
import TerminalUI
import ThumbnailLoading

/// The terminal feed reader's runtime: it keeps a ``ReaderState``, feeds it every event, and
/// performs the effects it returns with the handles it holds (the terminal, the store, the
/// refresher, the viewport, the thumbnails, the frame clock).
///
/// The loop sleeps when nothing moves: it wakes for a key, a new snapshot of the store, or
/// the next frame while the list scrolls or animates (at most one per frame of its
/// ``FrameScheduling``). Parsing, storing and diffing never run on it: the store's change
/// stream delivers snapshots, the viewport diffs them off the main actor and applies one chunk
/// per frame. Store writes run off it too, one after another in the order they were asked for.
///
/// Everything arrives as a ``ReaderEvent`` through ``send(_:)``; ``run(handle:)`` feeds it from
/// the terminal, the store and the loader, and tests call it directly with a
/// ``ScriptedTerminal`` and ``ManualFrames``.
@MainActor
package final class Reader: ListViewportHost {
    package typealias Item = EntryRow
    package typealias Event = ReaderEvent
    package typealias Options = ReaderOptions

    /// What the reader shows and remembers.
    package private(set) var state: ReaderState
    let terminal: any ReaderTerminal
    let store: FeedStore
    let refresher: FeedRefresher
    /// The account's server, when there is one: a refresh is then a sync with it.
    let accountSync: AccountSync?
    let frames: any FrameScheduling
    package let thumbnails: ThumbnailShelf
    /// Opens links (`o`).
    var browser = BrowserLauncher()
    /// Called once the reader comes to rest: a fifth of a second after the last event it took
    /// (a frame's end, a key, a snapshot) when no frame is asked for, and not again until
    /// another comes. The app returns the allocator's freed memory to the system there, off the
    /// frames' path.
    package var atRest: (@MainActor () -> Void)?
    /// Counts the events taken, so that a rest scheduled before one is dropped.
    private var restGeneration = 0
    package private(set) var viewport: ListViewport<EntryRow>!
    let events: AsyncStream<Event>
    package let sink: AsyncStream<Event>.Continuation
    /// The wall clock that relative dates count from.
    private let date: @Sendable () -> Date

    private var renderer: FrameRenderer
    private var buffer: CellBuffer
    /// The last frame the viewport rendered, drawn again when only the status changes.
    package private(set) var lastFrame = ListViewport<EntryRow>.Frame(rows: [], offset: 0, contentHeight: 0)
    /// The posts' cells as last drawn, reused while they are unchanged.
    private let strips = PostListScreen.StripCache()
    private var frameRequested = false
    /// Whether the next frame must draw: pictures arrived, or the status line or the feed list
    /// changed.
    private var needsRedraw = false
    /// The task following the store's rows for the list's query.
    private var watcher: Task<Void, Never>?
    /// Rows read before the reader started (see ``showFirst(_:of:)``), for its first frame.
    private var firstRows: (rows: [EntryRow], query: EntryQuery)?
    /// The task following the feeds' counts while the feed list is open.
    private var feedWatcher: Task<Void, Never>?
    /// The refresh under way, cancelled and awaited when the reader quits, so that the fetcher
    /// is closed only after it.
    private var refreshTask: Task<Void, Never>?
    /// Store writes, performed in order by ``writer``.
    private let writes: AsyncStream<StoreWrite>.Continuation
    private let writer: Task<Void, Never>
    /// The terminal's input while ``run(handle:)`` reads it.
    private var input: (any InputReading)?
    /// The pictures drawn over the cells, when the terminal draws pixels.
    private var placer: PicturePlacer?
    /// Whether the terminal's pictures must be deleted and sent again: the screen was given
    /// back or repainted.
    private var picturesLost = false
    /// The terminal's answers to the capability query so far, gathered until the last device
    /// attributes awaited arrive; nil when no question is open.
    private var capabilityAnswers: CapabilityAnswers?
    /// The cell size in pixels the kernel last said, to follow a font change: the terminal's
    /// own answer wins until the kernel's changes.
    private var kernelCellPixels: CellPixelSize?
    /// Whether the first refresh waits for the first rows, as ``run(handle:)`` starts.
    private var refreshWaits = false
    /// When tmux's own answers ended, through tmux; the outer terminal's may follow.
    private var tmuxAnswered: Duration?
    /// What the answers make of the pictures, and what to say of it.
    private var resolvePictures: ((TerminalCapabilities) -> (mode: PictureMode, notice: String?))?

    /// Where a picture drawn over the cells is: a post's thumbnail, or an article's picture.
    enum PictureSpot: Hashable {
        case row(EntryRow.ID)
        /// The article's figure at this index (a picture may stand twice in one article).
        case figure(Int)
    }

    /// What draws the pictures over the cells, whichever way the terminal speaks; none where
    /// pictures are cells (half blocks, sextants) or off.
    private typealias PicturePlacer = any PicturePlacing<PictureSpot, ThumbnailRequest>

    package init(terminal: any ReaderTerminal, store: FeedStore, refresher: FeedRefresher, accountSync: AccountSync? = nil, title: String,
         frames: any FrameScheduling, thumbnails: ThumbnailShelf = ThumbnailShelf(), options: Options = Options(),
         notice: String? = nil, date: @escaping @Sendable () -> Date = Date.init) {
        self.terminal = terminal
        self.store = store
        self.refresher = refresher
        self.accountSync = accountSync
        var options = options
        options.syncs = accountSync != nil
        self.frames = frames
        self.thumbnails = thumbnails
        self.date = date
        let size = terminal.size
        let layout = ScreenLayout(columns: size.columns, rows: size.rows)
        state = ReaderState(title: title, options: options, layout: layout)
        state.notice = notice
        buffer = CellBuffer(columns: layout.columns, rows: layout.rows)
        // Sixel pixels are not cells: a scrolled region would move them where no cell says.
        renderer = FrameRenderer(options: .init(colorMode: options.colorMode, scrollsRegions: options.pictures.scrollsRegions))
        (events, sink) = AsyncStream<Event>.makeStream()
        let (writeStream, writes) = AsyncStream<StoreWrite>.makeStream()
        self.writes = writes
        writer = Task.detached { [store, sink] in
            for await write in writeStream {
                do {
                    switch write {
                    case .setRead(let value, let ids): try await store.setRead(value, entries: ids)
                    case .setStarred(let value, let ids): try await store.setStarred(value, entries: ids)
                    }
                    sink.yield(.written(write, failure: nil))
                } catch {
                    sink.yield(.written(write, failure: "\(error)"))
                }
            }
        }
        placer = Self.placer(for: options.pictures, compressed: options.compressesPictures)
        kernelCellPixels = terminal.cellPixelSize
        // The shelf loads pictures at the size the options draw them.
        thumbnails.setCellPixels(options.pictures.cellPixels, glyphs: options.pictures.glyphs, displayed: [])
        viewport = ListViewport(host: self)
        viewport.setViewportHeight(Double(max(1, layout.body.height)))
    }

    var now: Duration { frames.now }

    /// Runs until the person quits: follows the store, reads the terminal, refreshes once and
    /// then on the settings' interval. Every event is passed to `handle`, which must hand it to
    /// ``send(_:)``; `scrollwork bench ui` times it there.
    package func run(handle: @MainActor (Reader, Event) -> Void = { $0.send($1) }) async {
        let sink = self.sink
        start()
        input = terminal.startReading { sink.yield(.input($0)) }
        let arrivals = thumbnails.loader.deliveriesPending
        let deliveries = Task {
            for await _ in arrivals { sink.yield(.thumbnailsArrived) }
        }
        // The first screen comes from the rows already stored: the refresh, whose progress
        // would take the first frame, starts once they are in (or after a quarter second of a
        // store that has none to give).
        refreshWaits = true
        frames.schedule(after: .milliseconds(250)) { [weak self] in self?.startRefreshingOnce() }
        for await event in events {
            handle(self, event)
            if !state.running { break }
        }
        // Quit before the first screen: no refresh starts now.
        refreshWaits = false
        stop()
        deliveries.cancel()
        input?.stop()
        input = nil
        refreshTask?.cancel()
        await refreshTask?.value
        // Every write asked for is in the store before the reader returns.
        await writer.value
        await thumbnails.shutdown()
    }

    /// The query the post list starts with, for reading its rows before the reader is made
    /// (see ``showFirst(_:of:)``).
    package nonisolated static var firstQuery: EntryQuery { ReaderState.ListFilter().query(now: Date(timeIntervalSince1970: 0)) }

    /// Gives the reader the rows `query` returned before it started (read as the store opened,
    /// see `FeedStore.firstLook(_:)`), so that its first frame shows them instead of waiting
    /// for the store's first snapshot, which follows them as a change like any other. Rows of
    /// another query than the one the list starts with are ignored. Call before
    /// ``run(handle:)``.
    package func showFirst(_ rows: [EntryRow], of query: EntryQuery) {
        firstRows = (rows, query)
    }

    /// Starts following the store and draws the first frame; ``run(handle:)`` calls it, a test
    /// that drives the reader by hand calls it instead.
    func start() {
        perform(state.start())
        // The state follows its first query now, in its first generation.
        if let (rows, query) = firstRows, query == state.filter.query(now: date()) {
            send(Self.snapshot(rows, generation: state.generation))
        }
        firstRows = nil
        viewport.tick(at: now)
    }

    /// Stops following the store and taking writes; for tests that drive the reader by hand.
    func stop() {
        watcher?.cancel()
        feedWatcher?.cancel()
        writes.finish()
        // The terminal frees the pictures it holds for us.
        if let bytes = placer?.deleteAll(), !bytes.isEmpty { terminal.write(bytes) }
    }

    /// Asks the terminal what it draws, without waiting: its answers come in with the input,
    /// and once its device attributes (asked last) arrive, `resolve` turns them into the
    /// pictures to draw, which replace the ones the reader started with. A terminal that never
    /// answers keeps them. Call before ``run(handle:)``.
    ///
    /// When `throughTmux`, the terminal outside tmux is asked too, through tmux's passthrough:
    /// tmux's own answers decide first, and the outer terminal's, which come only when tmux's
    /// `allow-passthrough` is on, decide again.
    /// Inside tmux (`insideTmux`) without asking through it, tmux's own answers decide.
    package func askCapabilities(throughTmux: Bool = false, insideTmux: Bool = false,
                                 resolve: @escaping (TerminalCapabilities) -> (mode: PictureMode, notice: String?)) {
        resolvePictures = resolve
        capabilityAnswers = CapabilityAnswers(throughTmux: throughTmux)
        tmuxAnswered = nil
        terminal.write(TerminalCapabilities.query(throughTmux: throughTmux, insideTmux: insideTmux))
    }

    /// How many device attributes are still to come in answer to the capability query, which
    /// must not reach the shell after the reader: 0 when no question is open. The outer
    /// terminal's, through tmux, are counted for a second after tmux's own: they come within a
    /// round trip or never.
    package var awaitedAnswers: Int {
        guard let capabilityAnswers else { return 0 }
        guard let tmuxAnswered else { return capabilityAnswers.awaited }
        return now - tmuxAnswered < .seconds(1) ? capabilityAnswers.awaited : 0
    }

    /// Takes `input` if it answers the capability query; the last answer decides the pictures.
    private func answers(_ input: InputEvent) -> Bool {
        guard var answers = capabilityAnswers, let ended = answers.take(input) else { return false }
        capabilityAnswers = answers.awaited > 0 ? answers : nil
        guard ended else { return true }
        // tmux's own answers came first; the terminal outside may answer next.
        if answers.awaited > 0 { tmuxAnswered = now }
        var capabilities = answers.capabilities(cells: terminal.size)
        if capabilities.cellPixelSize == nil { capabilities.cellPixelSize = terminal.cellPixelSize }
        if let (mode, notice) = resolvePictures?(capabilities) { send(.pictures(mode, notice: notice)) }
        return true
    }

    /// Starts refreshing, unless it has started.
    private func startRefreshingOnce() {
        guard refreshWaits, state.running else { return }
        refreshWaits = false
        perform(state.startRefreshing())
        if state.running { requestFrameIfNeeded() }
    }

    /// Takes one event, then asks for a frame if something moves or arrived.
    package func send(_ event: Event) {
        // A store with nothing to show has no first screen to wait for.
        defer { if case .rows(let rows, _, _, _) = event, rows.isEmpty { startRefreshingOnce() } }
        if case .input(let input) = event, answers(input) { return }
        // Back in front in tmux: images sent while the pane was hidden never passed through
        // (tmux passes only from visible panes), so every picture is sent again. tmux reports
        // the focus with `focus-events on`.
        if case .input(.focusGained) = event, case .kitty(_, .placeholders(throughTmux: true)) = state.options.pictures, placer != nil {
            picturesLost = true
            needsRedraw = true
        }
        // A new font size comes as a resize: where the kernel's cell size changed, pictures
        // drawn in pixels switch to it first, so the resize draws them once, at their new size.
        if case .input(.resize) = event, let cell = terminal.cellPixelSize, cell != kernelCellPixels {
            kernelCellPixels = cell
            if state.options.pictures.cellPixels != nil, state.options.pictures.cellPixels != cell {
                perform(state.update(.pictures(state.options.pictures.with(cellPixels: cell), notice: nil), list: list, now: now))
            }
        }
        perform(state.update(event, list: list, now: now))
        if state.running { requestFrameIfNeeded() }
        restGeneration += 1
        if !frameRequested { scheduleRest() }
    }

    /// The list as it looks now, for the state.
    private var list: ReaderList {
        ReaderList(items: viewport.items, geometry: viewport.geometry, scroll: viewport.scroll, frame: lastFrame)
    }

    // MARK: Effects

    private func perform(_ effects: [ReaderEffect]) {
        var drawNow = false
        for effect in effects {
            switch effect {
            case .draw:
                drawNow = true
            case .drawNextFrame:
                needsRedraw = true
            case .repaint:
                invalidateScreen()
                drawNow = true
            case .quit:
                break
            case .suspend:
                terminal.suspend()
            case .resize(let layout):
                buffer = CellBuffer(columns: layout.columns, rows: layout.rows)
                invalidateScreen()
                viewport.setViewportHeight(Double(max(1, layout.body.height)))
            case .moveList(let motion):
                switch motion {
                case let .scroll(offset, animated): viewport.scroll(to: offset, animated: animated, at: now)
                case .glide(landingAt: let offset): viewport.fling(landingAt: offset, at: now)
                case .fling(velocity: let velocity): viewport.fling(velocity: velocity, at: now)
                }
            case let .submit(rows, animated):
                viewport.submit(rows, animated: animated)
            case let .follow(filter, generation):
                follow(filter.query(now: date()), generation: generation)
            case .followFeeds(let on):
                followFeeds(on)
            case .saveQueryFeed(let feed):
                guard let file = state.options.settingsFile else { break }
                // A settings file is at most a megabyte, and a saved search a key press: its
                // write is made here, once, rather than raced by a task of its own.
                do throws(SettingsError) {
                    try ReaderSettings.saving(feed, in: file)
                    send(.queryFeedSaved(feed, failure: nil))
                } catch {
                    send(.queryFeedSaved(feed, failure: error.description.split(separator: "\n").first.map(String.init) ?? "\(error)"))
                }
            case .loadArticle(let id):
                let (store, sink) = (self.store, self.sink)
                Task.detached {
                    guard let entry = try? await store.entry(id: id) else { return }
                    sink.yield(.articleLoaded(entry, ArticleScreen.document(of: entry)))
                }
            case .findLink(let id):
                let (store, sink) = (self.store, self.sink)
                Task.detached {
                    let entry = try? await store.entry(id: id)
                    sink.yield(.linkFound(entry?.entry.link))
                }
            case .openLink(let link):
                openInBrowser(link)
            case .write(let write):
                writes.yield(write)
            case .refresh(let feed):
                refresh(feed)
            case .sync:
                sync()
            case let .wake(timer, delay):
                frames.schedule(after: delay) { [weak self] in self?.send(.timer(timer)) }
            case .showFigures(let figures):
                thumbnails.showFigures(figures)
            case .drawPictures(let mode):
                drawPictures(mode)
            }
        }
        if drawNow { draw() }
    }

    /// Follows the rows of `query`: every committed change that alters them arrives as a
    /// snapshot, diffed and animated by the viewport.
    private func follow(_ query: EntryQuery, generation: Int) {
        watcher?.cancel()
        let sink = self.sink
        let observation = store.observeRows(query)
        watcher = Task.detached {
            do {
                for try await rows in observation {
                    sink.yield(Self.snapshot(rows, generation: generation))
                }
            } catch {
                sink.yield(.message("the database failed: \(error)"))
            }
        }
    }

    /// The event of a snapshot of the list's rows: the rows, by identifier, and how many are
    /// unread.
    private nonisolated static func snapshot(_ rows: [EntryRow], generation: Int) -> Event {
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let unread = rows.reduce(0) { $0 + ($1.isRead ? 0 : 1) }
        return .rows(rows, byID, unread: unread, generation: generation)
    }

    /// Follows the feeds' counts while the feed list is open.
    private func followFeeds(_ on: Bool) {
        feedWatcher?.cancel()
        feedWatcher = nil
        guard on else { return }
        let sink = self.sink
        let now = date()
        let observation = store.observeFeedSummaries(searches: state.options.queryFeeds.map { SearchQuery(parsing: $0.query, now: now) })
        feedWatcher = Task.detached {
            do {
                for try await overview in observation { sink.yield(.feeds(overview)) }
            } catch {
                sink.yield(.message("the database failed: \(error)"))
            }
        }
    }

    /// Refreshes `feed`, or every feed, in the background; progress reaches the status line as
    /// each feed starts, stores a batch and finishes, and the list follows the store.
    private func refresh(_ feed: StoredFeed?) {
        let (refresher, sink) = (self.refresher, self.sink)
        inBackground {
            let progress: FeedRefresher.ProgressHandler = { sink.yield(.refreshProgress($0)) }
            if let feed {
                let outcome = await refresher.refresh(feed, progress: progress)
                sink.yield(.refreshFinished([outcome]))
            } else {
                do {
                    sink.yield(.refreshFinished(try await refresher.refreshAll(progress: progress)))
                } catch {
                    sink.yield(.refreshFinished([]))
                    sink.yield(.message("cannot refresh: \(error)"))
                }
            }
        }
    }

    /// Syncs with the account's server in the background; its steps reach the status line, and
    /// the list follows the store as the sync writes to it.
    private func sync() {
        guard let accountSync else { return }
        let sink = self.sink
        inBackground {
            let outcome = await accountSync.sync { sink.yield(.syncProgress($0)) }
            sink.yield(.syncFinished(outcome))
        }
    }

    /// Runs a refresh or a sync, the one under way at a time, cancelled when the reader stops.
    private func inBackground(_ work: @escaping @Sendable () async -> Void) {
        refreshTask = Task.detached { await work() }
    }

    /// Opens `link` with the browser, the terminal given back while it runs. A browser in the
    /// terminal needs its input: the reader stops reading it first, and starts again after.
    private func openInBrowser(_ link: URL) {
        var outcome: Result<Void, BrowserLauncher.Failure> = .success(())
        input?.stop()
        terminal.whileReleased {
            outcome = browser.open(link)
        }
        if input != nil {
            let sink = self.sink
            input = terminal.startReading { sink.yield(.input($0)) }
        }
        invalidateScreen()
        switch outcome {
        case .success: send(.message("opened " + link.absoluteString))
        case .failure(let failure): send(.message(failure.description))
        }
    }

    // MARK: Frames

    /// How long after its last event the reader is at rest (see ``atRest``).
    static let restDelay = Duration.milliseconds(200)

    /// Calls ``atRest`` after ``restDelay`` unless an event comes before.
    private func scheduleRest() {
        guard atRest != nil, state.running else { return }
        let generation = restGeneration
        frames.schedule(after: Self.restDelay) { [weak self] in
            guard let self, generation == restGeneration, !frameRequested, state.running else { return }
            atRest?()
        }
    }

    private func requestFrameIfNeeded() {
        guard viewport.needsTick || needsRedraw, !frameRequested else { return }
        frameRequested = true
        frames.requestFrame { [weak self] in self?.frame() }
    }

    /// A frame: pictures that arrived are delivered, the list moves a step (and draws), or the
    /// screen is drawn again if something else changed.
    private func frame() {
        frameRequested = false
        guard state.running else { return }
        let arrived = thumbnails.deliver()
        let redraw = needsRedraw || arrived > 0
        needsRedraw = false
        if viewport.needsTick {
            viewport.tick(at: now)
        } else if redraw {
            draw()
        }
        // The first screen of posts is out: the refresh may start.
        if refreshWaits && !viewport.items.isEmpty { startRefreshingOnce() }
        send(.frameTick)
    }

    /// Draws the screen as the state has it: the open article, the feed list, or the post list
    /// (with the help over it).
    private func draw() {
        guard state.running else { return }
        let layout = state.layout
        switch state.screen {
        case .article(let article, let scroll):
            article.draw(scroll: scroll, status: state.articleHint, pictures: { [thumbnails] in thumbnails.figure($0) },
                         accent: state.options.colors.accent, in: layout, into: &buffer)
        case .feeds(var feeds):
            feeds.now = date()
            feeds.draw(status: state.statusText(hint: state.feedsHint, figures: figures), in: layout, into: &buffer)
        case .list, .help, .search:
            let count = viewport.items.count
            var screen = PostListScreen(title: state.heading(count: count), status: state.statusText(hint: state.listHint, figures: figures),
                                        now: date())
            screen.selectedID = state.selectedID
            if case .help = state.screen { screen.showsHelp = true }
            screen.strips = strips
            screen.colors = state.options.colors
            screen.keys = state.options.keys
            screen.showsPictures = state.options.showsPictures
            screen.highlight = state.searchHighlight
            if count == 0 { screen.emptyText = state.emptyText }
            screen.draw(lastFrame, pictures: { [thumbnails] in thumbnails.picture(for: $0) }, in: layout, into: &buffer)
        }
        var bytes: [UInt8]
        if var placer {
            // A repaint cleared the screen, pixels too: every picture is drawn again.
            bytes = picturesLost ? placer.invalidate() : []
            let pictures = placer.frame(overlaidPictures(in: layout), into: &buffer)
            renderer.forget(pictures.stale.map { ($0.row, $0.columns) })
            bytes += pictures.before + renderer.render(buffer) + pictures.after
            self.placer = placer
        } else {
            bytes = renderer.render(buffer)
        }
        picturesLost = false
        terminal.write(bytes)
    }

    /// Draws pictures as `mode` says from now on: the terminal frees what it holds of the old
    /// way, and the pictures on display load again at the size the new one needs.
    private func drawPictures(_ mode: PictureMode) {
        if let bytes = placer?.deleteAll(), !bytes.isEmpty { terminal.write(bytes) }
        placer = Self.placer(for: mode, compressed: state.options.compressesPictures)
        renderer.options.scrollsRegions = mode.scrollsRegions
        let display = viewport.ranges.display.clamped(to: viewport.items.indices)
        thumbnails.setCellPixels(mode.cellPixels, glyphs: mode.glyphs, displayed: Array(viewport.items[display]))
    }

    /// What draws pictures over the cells in `mode`, if anything does.
    private static func placer(for mode: PictureMode, compressed: Bool) -> PicturePlacer? {
        switch mode {
        case let .kitty(cellPixels, .direct): KittyPlacements(cellSize: cellPixels, compresses: compressed)
        case let .kitty(_, .placeholders(throughTmux)): KittyPlaceholders(throughTmux: throughTmux, compresses: compressed)
        case let .sixel(cellPixels): InlinePlacements(cellSize: cellPixels)
        case let .iterm(cellPixels): InlinePlacements(cellSize: cellPixels, encoding: .iterm)
        case .none, .blocks, .sextants: nil
        }
    }

    /// The screen must be drawn again whole: the renderer forgets what it holds, and the
    /// pictures are sent again.
    private func invalidateScreen() {
        renderer.invalidate()
        picturesLost = placer != nil
    }

    /// The pictures drawn over the cells on the screen in front: the list's thumbnails, or the
    /// open article's pictures; none under the help or the feed list, which they would cover.
    private func overlaidPictures(in layout: ScreenLayout) -> [OverlaidPicture<PictureSpot, ThumbnailRequest>] {
        let body = layout.body.top..<(layout.body.top + layout.body.height)
        switch state.screen {
        case .article(let article, let scroll):
            return article.figures.enumerated().compactMap { index, figure in
                thumbnails.figureOverlay(figure.url).map { overlay in
                    .init(spot: .figure(index), image: overlay.request, pixels: overlay.pixels, row: body.lowerBound + figure.line - scroll,
                          column: ArticleScreen.figureColumn, columns: figure.columns, rows: figure.rows, clip: body)
                }
            }
        case .list, .search:
            let box = PostListScreen.thumbnail
            return lastFrame.rows.compactMap { row in
                thumbnails.overlay(for: row.item.id).map { overlay in
                    .init(spot: .row(row.item.id), image: overlay.request, pixels: overlay.pixels,
                          row: body.lowerBound + Int(row.top.rounded()), column: PostListScreen.thumbnailColumn,
                          columns: box.columns, rows: box.rows, clip: body)
                }
            }
        case .help, .feeds:
            return []
        }
    }

    /// The pictures' loading, for the status line. It changes only when pictures arrive, and
    /// a frame that delivers them draws.
    private var figures: String {
        state.options.showsPictures ? thumbnails.figures.description : ""
    }

    // MARK: ListViewportHost

    package func estimatedHeight(of item: EntryRow) -> Double { Double(PostListScreen.rowHeight) }
    package func didApply(_ update: UpdateCoalescer<SoleSection, EntryRow>.Update) {}
    package func willDisplay(_ item: EntryRow, at row: Int) {
        guard state.options.showsPictures else { return }
        thumbnails.display(item)
    }

    package func didEndDisplaying(_ id: EntryRow.ID) {
        thumbnails.endDisplay(id)
    }

    package func render(_ frame: ListViewport<EntryRow>.Frame) {
        if state.options.showsPictures { thumbnails.load(viewport.ranges, items: viewport.items) }
        lastFrame = frame
        draw()
    }
}
