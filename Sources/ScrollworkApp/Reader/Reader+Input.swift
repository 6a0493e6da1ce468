import Feeds
import Foundation
import TerminalUI

/// Keys and the mouse: each screen (the search field, the help, the article, the feed list,
/// the post list) answers its own keys; Ctrl-C, Ctrl-Z and Ctrl-L work everywhere.
extension Reader {
    func handle(_ input: InputEvent) {
        switch input {
        case .key(let press):
            handle(press)
        case .mouse(let mouse):
            handle(mouse)
        case .resize(var columns, var rows):
            // A terminal can report no size at all while it is being resized.
            (columns, rows) = (max(1, columns), max(1, rows))
            buffer = CellBuffer(columns: columns, rows: rows)
            renderer.invalidate()
            if let open = article {
                let screen = ArticleScreen(entry: open.screen.entry, document: open.screen.document, feedTitle: open.screen.feedTitle,
                                           width: columns, showsPictures: options.showsPictures)
                article = (screen, min(open.scroll, screen.maxScroll(height: rows - 2)))
                thumbnails.showFigures(screen.figures)
            }
            viewport.setViewportHeight(Double(max(1, rows - 2)))
            draw()
        case .repaint:
            renderer.invalidate()
            draw()
        default:
            break
        }
    }

    /// Ctrl-C and Ctrl-Z are fixed; every other key goes through the settings' bindings, except
    /// while a search is typed.
    private func handle(_ press: KeyPress) {
        if press.modifiers.contains(.control) {
            switch press.key {
            case .character("z"): return terminal.suspend()
            case .character("c"): return quit()
            default: break
            }
        }
        if searchField != nil { return editSearch(press) }
        let action = options.keys.action(for: press)
        switch action {
        case .redraw:
            renderer.invalidate()
            return draw()
        case .quit:
            return quit()
        default:
            break
        }
        if showsHelp {
            showsHelp = false
            return draw()
        }
        if article != nil { return handleArticle(action) }
        if feedList != nil { return handleFeedList(action, tab: press.key == .tab) }
        if press.key == .tab { return showFeeds() }
        guard let action else { return }
        handleList(action)
    }

    private func handleList(_ action: ReaderAction) {
        let page = Double(max(1, buffer.rows - 2 - PostListScreen.rowHeight))
        switch action {
        case .back:
            if !filter.search.isEmpty {
                setFilter { $0.search = "" }
            } else if filter.feed != nil {
                setFilter { $0.feed = nil }
            } else {
                quit()
            }
        case .down: moveSelection(by: 1)
        case .up: moveSelection(by: -1)
        case .open: openSelected()
        case .pageDown: viewport.scroll(to: viewport.scroll.offset + page, animated: true, at: now)
        case .pageUp: viewport.scroll(to: viewport.scroll.offset - page, animated: true, at: now)
        case .top: viewport.scroll(to: 0, animated: true, at: now)
        case .bottom: viewport.scroll(to: .greatestFiniteMagnitude, animated: true, at: now)
        case .refresh: refresh(feed: filter.feed?.feed)
        case .refreshAll: refresh(feed: nil)
        case .star: toggle(\.isStarred) { store, ids, value in try await store.setStarred(value, entries: ids) }
        case .toggleRead: toggle(\.isRead) { store, ids, value in try await store.setRead(value, entries: ids) }
        case .markAllRead: markAllRead()
        case .unreadOnly:
            setFilter { $0.unreadOnly.toggle() }
            message = filter.unreadOnly ? "unread posts only · \(options.keys.label(for: .unreadOnly)) shows all"
                : "all posts · \(options.keys.label(for: .unreadOnly)) shows unread only"
            draw()
        case .search:
            searchField = filter.search
            searchBefore = filter.search
            draw()
        case .feeds: showFeeds()
        case .openLink: openLinkOfSelected()
        case .help:
            showsHelp = true
            draw()
        case .quit, .redraw: break
        }
    }

    /// Typing after `/`: the list follows the search as it is typed (the store searches titles
    /// and excerpts off the main actor), Enter keeps it, Escape puts back the one before.
    private func editSearch(_ press: KeyPress) {
        guard var text = searchField else { return }
        switch press.key {
        case .enter:
            searchField = nil
            draw()
            return
        case .escape:
            searchField = nil
            let before = searchBefore
            setFilter { $0.search = before }
            draw()
            return
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .character(let character) where !press.modifiers.contains(.alt):
            guard text.count < 200 else { return }
            text.append(character)
        default: return
        }
        searchField = text
        setFilter { $0.search = text }
        draw()
    }

    private func handleArticle(_ action: ReaderAction?) {
        guard var open = article, let action else { return }
        let height = buffer.rows - 2
        switch action {
        case .back:
            article = nil
            thumbnails.hideFigures()
            draw()
            return
        case .down: open.scroll += 1
        case .up: open.scroll -= 1
        case .pageDown: open.scroll += height - 1
        case .pageUp: open.scroll -= height - 1
        case .top: open.scroll = 0
        case .bottom: open.scroll = open.screen.maxScroll(height: height)
        case .star:
            toggle(\.isStarred) { store, ids, value in try await store.setStarred(value, entries: ids) }
            return
        case .toggleRead:
            toggle(\.isRead) { store, ids, value in try await store.setRead(value, entries: ids) }
            return
        case .openLink:
            sink.yield(.openLink(open.screen.entry.entry.link))
            return
        case .refresh, .refreshAll:
            refresh(feed: nil)
            return
        default: return
        }
        open.scroll = min(max(0, open.scroll), open.screen.maxScroll(height: height))
        article = open
        draw()
    }

    private func handleFeedList(_ action: ReaderAction?, tab: Bool) {
        guard var list = feedList else { return }
        if tab { return hideFeeds() }
        guard let action else { return }
        switch action {
        case .back, .feeds:
            hideFeeds()
            return
        case .down: list.move(by: 1)
        case .up: list.move(by: -1)
        case .top: list.move(by: -list.entries.count)
        case .bottom: list.move(by: list.entries.count)
        case .refresh: refresh(feed: list.selectedFeed?.feed)
        case .refreshAll: refresh(feed: nil)
        case .open:
            let chosen = list.selectedFeed
            hideFeeds()
            setFilter { $0.feed = chosen }
            viewport.scroll(to: 0, animated: false, at: now)
            return
        default: return
        }
        feedList = list
        draw()
    }

    private func handle(_ mouse: MouseEvent) {
        if article != nil {
            if case .scroll(let direction) = mouse.action, direction == .up || direction == .down {
                for _ in 0..<3 { handleArticle(direction == .up ? .up : .down) }
            }
            return
        }
        guard feedList == nil, searchField == nil, !showsHelp else { return }
        if case .scroll(let direction) = mouse.action, direction == .up || direction == .down {
            viewport.fling(velocity: direction == .up ? -1_200 : 1_200, at: now)
        } else if case .press(.left) = mouse.action,
                  let row = lastFrame.rows.first(where: { !$0.isLeaving && Int($0.top.rounded()) + 1 <= mouse.row
                      && mouse.row < Int($0.top.rounded()) + 1 + PostListScreen.rowHeight }) {
            selectedID = row.item.id
            openSelected()
        }
    }

    /// Moves the cursor `delta` posts and scrolls, gliding, just enough to show it. A key held
    /// down (its presses repeating faster than every 150 ms) glides with a fling's momentum,
    /// each press aiming the fling further, so the list slows down as a fling does when the key
    /// is let go; a single press eases the list into place.
    func moveSelection(by delta: Int) {
        let items = viewport.items
        guard !items.isEmpty else { return }
        let current = selectedID.flatMap { id in items.firstIndex { $0.id == id } } ?? visibleTopRow()
        let next = min(max(0, current + (selectedID == nil ? 0 : delta)), items.count - 1)
        selectedID = items[next].id
        let held = lastMove.map { $0.delta == delta && now - $0.time < .milliseconds(150) } ?? false
        lastMove = (delta, now)
        let top = viewport.geometry.offset(ofRow: next)
        let bottom = viewport.geometry.offset(ofRow: next + 1)
        let height = viewport.scroll.viewportHeight
        let target = viewport.scroll.predictedLanding
        let destination: Double? = top < target ? top : bottom > target + height ? bottom - height : nil
        if let destination {
            if held {
                viewport.fling(landingAt: destination, at: now)
            } else {
                viewport.scroll(to: destination, animated: true, at: now)
            }
        } else {
            draw()
        }
    }

    /// The first post fully on screen.
    func visibleTopRow() -> Int {
        let offset = viewport.scroll.offset
        let row = viewport.geometry.row(atOffset: offset) ?? 0
        return viewport.geometry.offset(ofRow: row) < offset ? min(row + 1, max(0, viewport.items.count - 1)) : row
    }
}
