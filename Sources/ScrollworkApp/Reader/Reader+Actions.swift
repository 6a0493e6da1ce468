import Feeds
import Foundation
import TerminalUI

/// What keys do to posts and feeds: open, star, mark, refresh, open the link, and marking read
/// while scrolling. Store writes run off the main actor; the change stream brings the rows back
/// changed.
extension Reader {
    /// Opens the post under the cursor (the first on screen when there is none), and marks it
    /// read.
    func openSelected() {
        guard let id = targetID() else { return }
        selectedID = id
        let store = self.store
        let sink = self.sink
        Task.detached {
            guard let entry = try? await store.entry(id: id) else { return }
            sink.yield(.articleLoaded(entry, ArticleScreen.document(of: entry)))
            try? await store.setRead(true, entries: [id])
        }
    }

    /// Opens the link of the post under the cursor in the browser.
    func openLinkOfSelected() {
        guard let id = targetID() else { return }
        let store = self.store
        let sink = self.sink
        Task.detached {
            let entry = try? await store.entry(id: id)
            sink.yield(.openLink(entry?.entry.link))
        }
    }

    /// The post a key acts on: the one under the cursor while it is on screen, else the first
    /// post fully on screen (paging and flings move the list, not the cursor).
    func targetID() -> EntryRow.ID? {
        let items = viewport.items
        guard !items.isEmpty else { return nil }
        if let selectedID, lastFrame.rows.contains(where: { $0.item.id == selectedID && !$0.isLeaving && $0.top + $0.height > 0
                                                             && $0.top < viewport.scroll.viewportHeight }) {
            return selectedID
        }
        return items[visibleTopRow()].id
    }

    /// Opens `link` with the browser, the terminal given back while it runs.
    func openInBrowser(_ link: URL?) {
        guard let link else {
            message = "this post has no link"
            return draw()
        }
        if let refusal = BrowserLauncher.refusal(link) {
            message = refusal.description
            return draw()
        }
        var outcome: Result<Void, BrowserLauncher.Failure> = .success(())
        terminal.whileReleased {
            outcome = browser.open(link)
        }
        renderer.invalidate()
        switch outcome {
        case .success: message = "opened " + link.absoluteString
        case .failure(let failure): message = failure.description
        }
        draw()
    }

    /// Flips a flag of the post acted on (the open article's, else the one under the cursor) in
    /// the store. A post marked unread by hand is never marked read again by scrolling past it.
    func toggle(_ flag: KeyPath<EntryRow, Bool>,
                _ write: @escaping @Sendable (FeedStore, [EntryRow.ID], Bool) async throws -> Void) {
        let id: EntryRow.ID
        let current: Bool
        if let open = article?.screen.entry {
            id = open.id
            current = rowsByID[id]?[keyPath: flag] ?? (flag == \EntryRow.isRead ? open.isRead : open.isStarred)
        } else {
            guard let target = targetID(), let row = rowsByID[target] else { return }
            selectedID = target
            (id, current) = (target, row[keyPath: flag])
        }
        if flag == \EntryRow.isRead { if current { keptUnread.insert(id) } else { keptUnread.remove(id) } }
        let store = self.store
        Task.detached { try? await write(store, [id], !current) }
    }

    /// Marks every post the list shows read.
    func markAllRead() {
        let ids = viewport.items.filter { !$0.isRead }.map(\.id)
        guard !ids.isEmpty else { return }
        let store = self.store
        Task.detached { try? await store.setRead(true, entries: ids) }
        message = "marked \(ids.count) post\(ids.count == 1 ? "" : "s") read"
        draw()
    }

    // MARK: Refreshing

    /// Refreshes `feed`, or every feed, in the background; progress reaches the status line as
    /// each feed starts, stores a batch and finishes, and the list follows the store.
    func refresh(feed: StoredFeed?) {
        guard refreshing == nil else {
            message = "already refreshing"
            return draw()
        }
        refreshing = (0, 0, 0, 0)
        message = nil
        draw()
        let refresher = self.refresher
        let sink = self.sink
        refreshTask = Task.detached {
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

    func noteRefresh(_ progress: FeedRefreshProgress) {
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

    func finishRefresh(_ outcomes: [FeedRefreshOutcome]) {
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

    // MARK: Feeds

    func showFeeds() {
        feedList = FeedListScreen(selected: filter.feed?.id)
        feedList?.colors = options.colors
        watchFeeds(true)
        draw()
    }

    func hideFeeds() {
        feedList = nil
        watchFeeds(false)
        draw()
    }

    // MARK: Marking read while scrolling

    /// With the option on, a post counts as read once it has been fully on screen for the set
    /// time while the list moved slower than a screen a second (slow enough to read), never
    /// merely because a fling swept over it. Called on every frame; when the list rests, a wake-up
    /// is asked for when the next post comes due.
    func markReadOnScroll() {
        guard let delay = options.markReadAfter, article == nil, feedList == nil else { return }
        let time = now
        let speed = abs(viewport.scroll.velocity(at: time))
        let height = viewport.scroll.viewportHeight
        guard speed < height else {
            // Too fast to read: every clock starts again.
            visibleSince.removeAll()
            return
        }
        let top = viewport.scroll.offset
        var fully: Set<EntryRow.ID> = []
        for row in lastFrame.rows where !row.isLeaving && row.opacity >= 1 {
            let rowTop = row.top + top
            if row.top >= 0, row.top + row.height <= height + 0.5, rowTop >= 0 { fully.insert(row.item.id) }
        }
        visibleSince = visibleSince.filter { fully.contains($0.key) }
        var due: [EntryRow.ID] = []
        var next: Duration?
        for id in fully where !keptUnread.contains(id) {
            guard let row = rowsByID[id], !row.isRead else { continue }
            let since = visibleSince[id] ?? time
            visibleSince[id] = since
            if time - since >= delay {
                due.append(id)
            } else {
                next = min(next ?? .seconds(1_000_000), since + delay - time)
            }
        }
        if !due.isEmpty {
            for id in due { visibleSince[id] = nil }
            let store = self.store
            Task.detached { try? await store.setRead(true, entries: due) }
        }
        if let next, !readTimerPending {
            readTimerPending = true
            // Not a frame: a frame tick here would start a second chain of frames beside the one
            // the list may be running.
            frames.schedule(after: next) { [weak self] in self?.send(.markReadCheck) }
        }
    }
}
