import Feeds
import Foundation
import ListDiff
import ListViewport
import TerminalUI

/// The terminal feed reader: a frame loop on the main actor that draws the post list of the
/// store, follows it as refreshes change it, and answers keys.
///
/// The loop sleeps when nothing moves: it wakes for a key, a new snapshot of the store, or
/// the next frame while the list scrolls or animates (at most 60 a second). Parsing, storing
/// and diffing never run on it: the store's change stream delivers snapshots, the viewport
/// diffs them off the main actor and applies one chunk per frame.
@MainActor
final class Reader: ListViewportHost {
    typealias Item = EntryRow

    enum Event: Sendable {
        case input(InputEvent)
        /// A snapshot of the list, with its rows by identity (made off the main actor).
        case rows([EntryRow], [EntryRow.ID: EntryRow])
        case refreshProgress(String)
        case tick
        case thumbnailsArrived
        case articleLoaded(StoredEntry)
    }

    private let session: TerminalIO
    private let store: FeedStore
    private let refresher: FeedRefresher
    private let title: String
    private var viewport: ListViewport<EntryRow>!
    private var renderer: FrameRenderer
    private var buffer: CellBuffer
    private var status = "j/k move · enter open · space page · g/G top/bottom · r refresh · q quit"
    private var running = true
    private var tickScheduled = false
    private let events: AsyncStream<Event>
    private let sink: AsyncStream<Event>.Continuation
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    /// The last frame the viewport rendered, drawn again when only the status changes.
    private var lastFrame = ListViewport<EntryRow>.Frame(rows: [], offset: 0, contentHeight: 0)
    private let thumbnails = ThumbnailShelf()
    private var rowsByID: [EntryRow.ID: EntryRow] = [:]
    /// The post the list's cursor is on, kept by identity as posts arrive above it.
    private var selectedID: EntryRow.ID?
    /// The open article and how far it is scrolled, over the list.
    private var article: (screen: ArticleScreen, scroll: Int)?
    /// Whether the list shows only unread posts (`u`).
    private var unreadOnly = false
    /// Whether the key help is shown over the list (`?`).
    private var showsHelp = false
    /// The task following the store's rows for the list's query.
    private var watcher: Task<Void, Never>?

    /// Follows the rows of the list's query: every committed change that alters them arrives
    /// as a snapshot, diffed and animated by the viewport.
    private func watch() {
        watcher?.cancel()
        let sink = self.sink
        let observation = store.observeRows(EntryQuery(unreadOnly: unreadOnly, limit: 10_000))
        watcher = Task.detached {
            do {
                for try await rows in observation {
                    sink.yield(.rows(rows, Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })))
                }
            } catch {
                sink.yield(.refreshProgress("the database failed: \(error)"))
            }
        }
    }

    init(session: TerminalIO, store: FeedStore, refresher: FeedRefresher, title: String, colorMode: ColorMode) {
        self.session = session
        self.store = store
        self.refresher = refresher
        self.title = title
        let size = session.size
        buffer = CellBuffer(columns: size.columns, rows: size.rows)
        renderer = FrameRenderer(options: .init(colorMode: colorMode))
        (events, sink) = AsyncStream<Event>.makeStream()
        origin = clock.now
        viewport = ListViewport(host: self)
        viewport.setViewportHeight(Double(max(1, size.rows - 2)))
    }

    private var now: Duration { clock.now - origin }

    /// Runs until the person quits.
    func run() async {
        let sink = self.sink
        watch()
        let input = session.startReading { sink.yield(.input($0)) }
        let arrivals = thumbnails.loader.deliveriesPending
        let deliveries = Task {
            for await _ in arrivals { sink.yield(.thumbnailsArrived) }
        }
        refresh()
        render()
        for await event in events {
            handle(event)
            if !running { break }
            scheduleTickIfNeeded()
        }
        watcher?.cancel()
        deliveries.cancel()
        input.stop()
        await thumbnails.shutdown()
    }

    private func handle(_ event: Event) {
        switch event {
        case .input(let input):
            handle(input)
        case .rows(let rows, let byID):
            rowsByID = byID
            viewport.submit(rows)
        case .thumbnailsArrived:
            // Delivered with the next frame, at most once a frame.
            if !tickScheduled { needsRedraw = true }
        case .articleLoaded(let entry):
            let feedTitle = rowsByID[entry.id]?.feedTitle ?? ""
            article = (ArticleScreen(entry: entry, feedTitle: feedTitle, width: buffer.columns), 0)
            draw(lastFrame)
        case .refreshProgress(let text):
            status = text
            draw(lastFrame)
        case .tick:
            tickScheduled = false
            let arrived = thumbnails.deliver()
            needsRedraw = false
            if viewport.needsTick {
                viewport.tick(at: now)
            } else if arrived > 0 {
                draw(lastFrame)
            }
        }
    }

    private func handle(_ input: InputEvent) {
        if case .key(let press) = input, press.modifiers.contains(.control) {
            switch press.key {
            case .character("z"): session.suspend()
            case .character("c"): running = false
            case .character("l"):
                renderer.invalidate()
                draw(lastFrame)
            default: break
            }
            return
        }
        if article != nil, case .key(let press) = input {
            handleArticle(press)
            return
        }
        if showsHelp, case .key = input {
            showsHelp = false
            draw(lastFrame)
            return
        }
        let page = Double(max(1, buffer.rows - 2 - PostListScreen.rowHeight))
        switch input {
        case .key(let press):
            switch press.key {
            case .character("q"), .escape: running = false
            case .character("j"), .down: moveSelection(by: 1)
            case .character("k"), .up: moveSelection(by: -1)
            case .enter: openSelected()
            case .character(" "), .pageDown: viewport.scroll(to: viewport.scroll.offset + page, animated: true, at: now)
            case .character("b"), .pageUp: viewport.scroll(to: viewport.scroll.offset - page, animated: true, at: now)
            case .character("g"), .home: viewport.scroll(to: 0, animated: true, at: now)
            case .character("G"), .end: viewport.scroll(to: .greatestFiniteMagnitude, animated: true, at: now)
            case .character("r"), .character("R"): refresh()
            case .character("s"): toggle(\.isStarred) { store, ids, value in try await store.setStarred(value, entries: ids) }
            case .character("m"): toggle(\.isRead) { store, ids, value in try await store.setRead(value, entries: ids) }
            case .character("A"):
                let ids = viewport.items.filter { !$0.isRead }.map(\.id)
                let store = self.store
                Task.detached { try? await store.setRead(true, entries: ids) }
            case .character("u"):
                unreadOnly.toggle()
                status = unreadOnly ? "unread posts only · u shows all" : "all posts · u shows unread only"
                watch()
            case .character("?"):
                showsHelp = true
                draw(lastFrame)
            default: break
            }
        case .mouse(let mouse):
            if case .scroll(let direction) = mouse.action, direction == .up || direction == .down {
                viewport.fling(velocity: direction == .up ? -1_200 : 1_200, at: now)
            } else if case .press(.left) = mouse.action,
                      let row = lastFrame.rows.first(where: { !$0.isLeaving && Int($0.top.rounded()) + 1 <= mouse.row
                          && mouse.row < Int($0.top.rounded()) + 1 + PostListScreen.rowHeight }) {
                selectedID = row.item.id
                openSelected()
            }
        case .resize(let columns, let rows):
            buffer = CellBuffer(columns: columns, rows: rows)
            renderer.invalidate()
            viewport.setViewportHeight(Double(max(1, rows - 2)))
        case .repaint:
            renderer.invalidate()
            draw(lastFrame)
        default:
            break
        }
    }

    /// Moves the cursor `delta` posts and scrolls, gliding, just enough to show it.
    private func moveSelection(by delta: Int) {
        let items = viewport.items
        guard !items.isEmpty else { return }
        let current = selectedID.flatMap { id in items.firstIndex { $0.id == id } } ?? visibleTopRow()
        let next = min(max(0, current + (selectedID == nil ? 0 : delta)), items.count - 1)
        selectedID = items[next].id
        let top = viewport.geometry.offset(ofRow: next)
        let bottom = viewport.geometry.offset(ofRow: next + 1)
        let height = viewport.scroll.viewportHeight
        let target = viewport.scroll.predictedLanding
        if top < target {
            viewport.scroll(to: top, animated: true, at: now)
        } else if bottom > target + height {
            viewport.scroll(to: bottom - height, animated: true, at: now)
        } else {
            draw(lastFrame)
        }
    }

    /// The first post fully on screen.
    private func visibleTopRow() -> Int {
        let offset = viewport.scroll.offset
        let row = viewport.geometry.row(atOffset: offset) ?? 0
        return viewport.geometry.offset(ofRow: row) < offset ? min(row + 1, max(0, viewport.items.count - 1)) : row
    }

    /// Opens the post under the cursor (the first on screen when there is none), and marks it
    /// read.
    private func openSelected() {
        let items = viewport.items
        guard !items.isEmpty else { return }
        let id = selectedID ?? items[visibleTopRow()].id
        selectedID = id
        let store = self.store
        let sink = self.sink
        Task.detached {
            guard let entry = try? await store.entry(id: id) else { return }
            sink.yield(.articleLoaded(entry))
            try? await store.setRead(true, entries: [id])
        }
    }

    /// Flips a flag of the post under the cursor in the store; the change stream brings the
    /// row back changed.
    private func toggle(_ flag: KeyPath<EntryRow, Bool>,
                        _ write: @escaping @Sendable (FeedStore, [EntryRow.ID], Bool) async throws -> Void) {
        guard let id = selectedID ?? viewport.items.first?.id, let row = rowsByID[id] else { return }
        selectedID = id
        let value = !row[keyPath: flag]
        let store = self.store
        Task.detached { try? await write(store, [id], value) }
    }

    private func handleArticle(_ press: KeyPress) {
        guard var open = article else { return }
        let height = buffer.rows - 2
        switch press.key {
        case .character("q"), .escape, .left, .backspace:
            article = nil
            draw(lastFrame)
            return
        case .character("j"), .down: open.scroll += 1
        case .character("k"), .up: open.scroll -= 1
        case .character(" "), .pageDown: open.scroll += height - 1
        case .character("b"), .pageUp: open.scroll -= height - 1
        case .character("g"), .home: open.scroll = 0
        case .character("G"), .end: open.scroll = open.screen.maxScroll(height: height)
        default: return
        }
        open.scroll = min(max(0, open.scroll), open.screen.maxScroll(height: height))
        article = open
        draw(lastFrame)
    }

    private func refresh() {
        status = "refreshing…"
        draw(lastFrame)
        let refresher = self.refresher
        let sink = self.sink
        Task.detached {
            let outcomes = (try? await refresher.refreshAll()) ?? []
            let failed = outcomes.filter { if case .failed = $0.status { true } else { false } }.count
            let new = outcomes.reduce(0) { total, outcome in
                if case .refreshed(let new, _, _, _) = outcome.status { total + new } else { total }
            }
            sink.yield(.refreshProgress("refreshed \(outcomes.count) feed\(outcomes.count == 1 ? "" : "s"): \(new) new"
                + (failed > 0 ? ", \(failed) failed" : "") + " · j/k move · enter open · r refresh · q quit"))
        }
    }

    /// Whether thumbnails arrived that the next frame must show.
    private var needsRedraw = false

    private func scheduleTickIfNeeded() {
        guard viewport.needsTick || needsRedraw, !tickScheduled else { return }
        tickScheduled = true
        let sink = self.sink
        Task {
            try? await Task.sleep(for: .microseconds(16_667))
            sink.yield(.tick)
        }
    }

    private func render() {
        viewport.tick(at: now)
    }

    private func draw(_ frame: ListViewport<EntryRow>.Frame) {
        if let article {
            article.screen.draw(scroll: article.scroll, status: "j/k scroll · space page · q back", into: &buffer)
            session.write(renderer.render(buffer))
            return
        }
        let count = viewport.items.count
        let filter = unreadOnly ? " unread" : ""
        var screen = PostListScreen(title: "\(title) — \(count)\(filter) post\(count == 1 ? "" : "s")", status: status, now: Date())
        screen.selectedID = selectedID
        screen.showsHelp = showsHelp
        screen.draw(frame, pictures: { [thumbnails] in thumbnails.picture(for: $0) }, into: &buffer)
        session.write(renderer.render(buffer))
    }

    // MARK: ListViewportHost

    func estimatedHeight(of item: EntryRow) -> Double { Double(PostListScreen.rowHeight) }
    func didApply(_ update: UpdateCoalescer<SoleSection, EntryRow>.Update) {}
    func willDisplay(_ item: EntryRow, at row: Int) {
        thumbnails.display(item)
    }

    func didEndDisplaying(_ id: EntryRow.ID) {
        thumbnails.endDisplay(id)
    }

    /// Loading follows the ranges every frame, in ``render(_:)``.
    func rangesDidChange(_ changes: RangeTracker<EntryRow.ID>.Changes) {}

    func render(_ frame: ListViewport<EntryRow>.Frame) {
        thumbnails.load(viewport.ranges, items: viewport.items)
        lastFrame = frame
        draw(frame)
    }
}
