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
    package typealias Item = PostListRow
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
    package private(set) var viewport: ListViewport<PostListRow>!
    let events: AsyncStream<Event>
    package let sink: AsyncStream<Event>.Continuation
    /// The wall clock that relative dates count from.
    private let date: @Sendable () -> Date

    private var renderer: FrameRenderer
    private var buffer: CellBuffer
    /// The last frame the viewport rendered, drawn again when only the status changes.
    package private(set) var lastFrame = ListViewport<PostListRow>.Frame(rows: [], offset: 0, contentHeight: 0)
    /// The posts' cells as last drawn, reused while they are unchanged.
    private let strips = PostListScreen.StripCache()
    private var frameRequested = false
    /// Whether the next frame must draw: pictures arrived, or the status line or the feed list
    /// changed.
    private var needsRedraw = false
    /// Rows read before the reader started (see ``showFirst(_:of:)``), for its first frame.
    private var firstRows: (rows: [EntryRow], query: EntryQuery)?
    /// The work under way off the main actor, by what it is (``inBackground(_:_:)``).
    private var background: [Work: Task<Void, Never>] = [:]
    /// Store writes, performed in order by the ``Work/writer``.
    private let writes: AsyncStream<StoreWrite>.Continuation

    /// What the reader does off the main actor, one task of each at a time.
    private enum Work: Hashable {
        /// Performs the store writes in order, until the reader stops taking them.
        case writer
        /// Says when pictures arrived.
        case deliveries
        /// Follows the store's rows for the list's query.
        case rows
        /// Follows the feeds' counts while the feed list is open.
        case feeds
        /// The refresh or sync under way, cancelled and awaited when the reader quits, so that
        /// the fetcher is closed only after it.
        case refresh
        /// Reads a post for the screen (its article, its link); nothing waits for it.
        case lookup
        /// Indexes the posts waiting for the search index, cancelled and awaited when the
        /// reader quits (a batch's transaction is whole or not at all).
        case index
    }
    /// The terminal's input while ``run(handle:)`` reads it.
    private var input: (any InputReading)?
    /// The pictures drawn over the cells, when the terminal draws pixels.
    private var placer: PicturePlacer?
    /// Whether the terminal's pictures must be deleted and sent again: the screen was given
    /// back or repainted.
    private var picturesLost = false

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
        placer = Self.placer(for: options.pictures, compressed: options.compressesPictures)
        state.kernelCellPixels = terminal.cellPixelSize
        // The shelf loads pictures at the size the options draw them.
        thumbnails.setCellPixels(options.pictures.cellPixels, glyphs: options.pictures.glyphs, displayed: [])
        viewport = ListViewport(host: self)
        viewport.setViewportHeight(Double(max(1, layout.body.height)))
        inBackground(.writer) { [store, sink] in
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
    }

    // A reader dropped without ``run(handle:)`` ending (a test that drives it by hand, a host
    // that lets it go) leaves no task behind: each would wait forever on a stream only the
    // reader ends, holding the store. The writer still performs the writes already asked for.
    isolated deinit {
        for (work, task) in background where work != .writer { task.cancel() }
        writes.finish()
    }

    /// Starts `work` off the main actor: the one place the reader starts a task. Work of a
    /// kind that keeps one task at a time cancels the one before.
    private func inBackground(_ work: Work, _ body: @escaping @Sendable () async -> Void) {
        if work != .lookup { background[work]?.cancel() }
        let task = Task.detached(operation: body)
        if work != .lookup { background[work] = task }
    }

    var now: Duration { frames.now }

    /// Runs until the person quits: follows the store, reads the terminal, refreshes once and
    /// then on the settings' interval. Every event is passed to `handle`, which must hand it to
    /// ``send(_:)``; `scrollwork bench ui` times it there.
    package func run(handle: @MainActor (Reader, Event) -> Void = { $0.send($1) }) async {
        let sink = self.sink
        // The first screen comes from the rows already stored: the refresh, whose progress
        // would take the first frame, waits for them (see ``ReaderState/start(holdingRefresh:)``).
        start(holdingRefresh: true)
        input = terminal.startReading { sink.yield(.input($0)) }
        let arrivals = thumbnails.loader.deliveriesPending
        inBackground(.deliveries) {
            for await _ in arrivals { sink.yield(.thumbnailsArrived) }
        }
        for await event in events {
            handle(self, event)
            if !state.running { break }
        }
        stop()
        background[.deliveries]?.cancel()
        input?.stop()
        input = nil
        background[.refresh]?.cancel()
        background[.index]?.cancel()
        await background[.refresh]?.value
        await background[.index]?.value
        // Every write asked for is in the store before the reader returns.
        await background[.writer]?.value
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
    /// that drives the reader by hand calls it instead. When `holdingRefresh`, the first refresh
    /// waits for the first screen.
    func start(holdingRefresh: Bool = false) {
        perform(state.start(holdingRefresh: holdingRefresh))
        // The state follows its first query now, in its first generation.
        if let (rows, query) = firstRows, query == state.filter.query(now: date()) {
            send(Self.snapshot(rows, generation: state.generation, date: date()))
        }
        firstRows = nil
        viewport.tick(at: now)
    }

    /// Stops following the store and taking writes; for tests that drive the reader by hand.
    func stop() {
        background[.rows]?.cancel()
        background[.feeds]?.cancel()
        writes.finish()
        // The terminal frees the pictures it holds for us.
        if let bytes = placer?.deleteAll(), !bytes.isEmpty { terminal.write(bytes) }
    }

    /// Asks the terminal what it draws, without waiting (see
    /// ``ReaderState/askCapabilities(throughTmux:insideTmux:resolve:)``). Call before
    /// ``run(handle:)``.
    package func askCapabilities(throughTmux: Bool = false, insideTmux: Bool = false,
                                 resolve: @escaping (TerminalCapabilities) -> (mode: PictureMode, notice: String?)) {
        perform(state.askCapabilities(throughTmux: throughTmux, insideTmux: insideTmux, resolve: resolve))
    }

    /// How many device attributes are still to come in answer to the capability query, which
    /// must not reach the shell after the reader: 0 when no question is open.
    package var awaitedAnswers: Int { state.awaitedAnswers(now: now) }

    /// Takes one event, then asks for a frame if something moves or arrived.
    package func send(_ event: Event) {
        // A resize may come with a new font size: the kernel's cell size goes first.
        if case .input(.resize) = event, let cell = terminal.cellPixelSize {
            perform(state.update(.kernelCellPixels(cell), list: list, now: now))
        }
        perform(state.update(event, list: list, now: now))
        if state.running { requestFrameIfNeeded() }
        if !frameRequested, atRest != nil { perform(state.idle()) }
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
                inBackground(.lookup) {
                    guard let entry = try? await store.entry(id: id) else { return }
                    sink.yield(.articleLoaded(entry, ArticleScreen.document(of: entry)))
                }
            case .findLink(let id):
                let (store, sink) = (self.store, self.sink)
                inBackground(.lookup) {
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
            case .indexWaitingPosts:
                indexWaitingPosts()
            case let .wake(timer, delay):
                frames.schedule(after: delay) { [weak self] in self?.send(.timer(timer)) }
            case .showFigures(let figures):
                thumbnails.showFigures(figures)
            case .drawPictures(let mode):
                drawPictures(mode)
            case .resendPictures:
                picturesLost = placer != nil
                needsRedraw = true
            case .writeTerminal(let bytes):
                terminal.write(bytes)
            case .atRest:
                atRest?()
            }
        }
        if drawNow { draw() }
    }

    /// Indexes the posts waiting for the search index, a transaction of a few hundred at a
    /// time (a write of the reader's waits for one at most), until none waits, saying how many
    /// still wait after each. A store this user may only read is left as it is; a failure is
    /// said in the status line and leaves the posts waiting for the next refresh.
    private func indexWaitingPosts() {
        guard !store.isReadOnly else { return }
        let (store, sink) = (self.store, self.sink)
        inBackground(.index) {
            while !Task.isCancelled {
                let waiting: Int
                do throws(FeedStoreError) {
                    waiting = try await store.indexWaitingPosts()
                } catch {
                    if !Task.isCancelled { sink.yield(.message("new posts are not indexed for search: \(error.description)")) }
                    return
                }
                sink.yield(.postsIndexed(waiting: waiting))
                if waiting == 0 { return }
            }
        }
    }

    /// Follows the rows of `query`: every committed change that alters them arrives as a
    /// snapshot, diffed and animated by the viewport.
    private func follow(_ query: EntryQuery, generation: Int) {
        let (sink, date) = (self.sink, self.date)
        let observation = store.observeRows(query)
        inBackground(.rows) {
            do {
                for try await rows in observation {
                    sink.yield(Self.snapshot(rows, generation: generation, date: date()))
                }
            } catch {
                sink.yield(.message("the database failed: \(error)"))
            }
        }
    }

    /// The event of a snapshot of the list's rows: the rows, by identifier, and how many are
    /// unread.
    private nonisolated static func snapshot(_ rows: [EntryRow], generation: Int, date: Date) -> Event {
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let unread = rows.reduce(0) { $0 + ($1.isRead ? 0 : 1) }
        return .rows(rows, byID, unread: unread, generation: generation, date: date)
    }

    /// Follows the feeds' counts while the feed list is open.
    private func followFeeds(_ on: Bool) {
        background[.feeds]?.cancel()
        background[.feeds] = nil
        guard on else { return }
        let sink = self.sink
        let now = date()
        let observation = store.observeFeedSummaries(searches: state.options.queryFeeds.map { SearchQuery(parsing: $0.query, now: now) })
        inBackground(.feeds) {
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
        inBackground(.refresh) {
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
        inBackground(.refresh) {
            let outcome = await accountSync.sync { sink.yield(.syncProgress($0)) }
            sink.yield(.syncFinished(outcome))
        }
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
        send(.frameTick)
    }

    /// Draws the screen as the state has it: the open article, the feed list, or the post list
    /// (with the help over it).
    private func draw() {
        guard state.running else { return }
        let layout = state.layout
        // The posts the list holds, its days' headings left out.
        let view = ReaderView(state: state, frame: lastFrame, count: viewport.items.count - viewport.sectionHeaders.rows.count,
                              thumbnail: { [thumbnails] in thumbnails.picture(for: $0) }, figure: { [thumbnails] in thumbnails.figure($0) },
                              figures: figures, now: date())
        view.draw(into: &buffer, strips: strips)
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
        thumbnails.setCellPixels(mode.cellPixels, glyphs: mode.glyphs, displayed: viewport.items[display].compactMap(\.post))
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
            let clip = PostListScreen.pictureRows(in: body, of: lastFrame)
            return lastFrame.rows.compactMap { row in
                thumbnails.overlay(for: row.item.id).map { overlay in
                    .init(spot: .row(row.item.id), image: overlay.request, pixels: overlay.pixels,
                          row: body.lowerBound + Int(row.top.rounded()), column: PostListScreen.thumbnailColumn,
                          columns: box.columns, rows: box.rows, clip: clip)
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

    package func estimatedHeight(of item: PostListRow) -> Double { Double(PostListScreen.height(of: item)) }
    package func didApply(_ update: UpdateCoalescer<SoleSection, PostListRow>.Update) {}
    package func willDisplay(_ item: PostListRow, at row: Int) {
        guard state.options.showsPictures, let post = item.post else { return }
        thumbnails.display(post)
    }

    /// A day's heading heads its day's posts, pinned at the top while they scroll.
    package func isSectionHeader(_ item: PostListRow) -> Bool { item.isHeading }

    package func didEndDisplaying(_ id: EntryRow.ID) {
        thumbnails.endDisplay(id)
    }

    package func render(_ frame: ListViewport<PostListRow>.Frame) {
        if state.options.showsPictures { thumbnails.load(viewport.ranges, items: viewport.items) }
        lastFrame = frame
        draw()
    }
}
