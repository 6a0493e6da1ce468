import Feeds
import Foundation
import TerminalUI

/// The feed list (`f`): "All feeds" and then each subscription with its unread count, its
/// entry count, when it was last refreshed, and the last refresh's error in red. Enter shows
/// the chosen feed's posts. A value the reader keeps while the list is open; its counts follow
/// the store.
struct FeedListScreen {
    /// One line of the list: all feeds (`feed == nil`) or one feed.
    struct Entry: Equatable {
        var feed: FeedSummary?
        var unread: Int
        var total: Int
        /// The saved search this line shows, when it is one (then ``feed`` is `nil`).
        var queryFeed: QueryFeed? = nil
    }

    private(set) var entries: [Entry] = [Entry(feed: nil, unread: 0, total: 0)]
    /// The line under the cursor.
    private(set) var selection = 0
    /// Whether the store has answered yet.
    private(set) var isLoaded = false
    /// The time "refreshed 5m ago" counts from.
    var now = Date()
    /// The colours from the settings.
    var colors = ReaderColors.defaults

    /// Terminal rows per feed: its title line and a line for its address or error.
    static let rowHeight = 2

    /// A list whose cursor starts on feed `selected` (all feeds when `nil`) once it arrives.
    init(selected: StoredFeed.ID?) {
        pendingSelection = selected
    }

    private var pendingSelection: StoredFeed.ID?

    /// The feed under the cursor; `nil` for all feeds or a saved search.
    var selectedFeed: FeedSummary? { entries[selection].feed }
    /// The saved search under the cursor, if it is one.
    var selectedQueryFeed: QueryFeed? { entries[selection].queryFeed }

    /// Takes new counts from the store, keeping the cursor on the same line: all feeds, then
    /// the saved searches, then the feeds.
    mutating func update(_ summaries: [FeedSummary], queryFeeds: [(QueryFeed, SearchCount)] = []) {
        let keepFeed = isLoaded ? selectedFeed?.id : pendingSelection
        let keepQuery = isLoaded ? selectedQueryFeed : nil
        entries = [Entry(feed: nil, unread: summaries.reduce(0) { $0 + $1.unread }, total: summaries.reduce(0) { $0 + $1.total })]
            + queryFeeds.map { Entry(feed: nil, unread: $1.unread, total: $1.total, queryFeed: $0) }
            + summaries.map { Entry(feed: $0, unread: $0.unread, total: $0.total) }
        selection = keepQuery.flatMap { query in entries.firstIndex { $0.queryFeed == query } }
            ?? keepFeed.flatMap { id in entries.firstIndex { $0.feed?.id == id } } ?? 0
        isLoaded = true
    }

    /// Moves the cursor, staying in the list.
    mutating func move(by delta: Int) {
        selection = min(max(0, selection + delta), entries.count - 1)
    }

    private var count: CellStyle { CellStyle(foreground: colors.unread, attributes: .bold) }
    private var muted: CellStyle { CellStyle(foreground: colors.dim) }
    private static let error = CellStyle(foreground: .indexed(203))

    /// Draws the list into `buffer` as `layout` places it, scrolled to keep the cursor on screen.
    func draw(status: String, in layout: ScreenLayout, into buffer: inout CellBuffer) {
        let width = buffer.columns
        buffer.fill(row: 0, column: 0, width: width, height: buffer.rows, with: .blank)
        let feeds = entries.filter { $0.feed != nil }.count
        let searches = entries.filter { $0.queryFeed != nil }.count
        buffer.drawTitleBar("Feeds — \(feeds) subscription\(feeds == 1 ? "" : "s")"
            + (searches > 0 ? ", \(searches) saved search\(searches == 1 ? "" : "es")" : ""), accent: colors.accent, in: layout)
        let fit = max(1, layout.body.height / Self.rowHeight)
        let first = min(max(0, selection - fit / 2), max(0, entries.count - fit))
        if !isLoaded {
            buffer.write("Loading…", row: layout.body.top + 1, column: 2, style: muted)
        }
        for (index, entry) in entries.enumerated().dropFirst(first).prefix(fit) {
            let top = layout.body.top + (index - first) * Self.rowHeight
            let selected = index == selection
            let background: TerminalColor = selected ? colors.selectionBackground : .default
            if selected {
                buffer.fill(row: top, column: 0, width: width, height: Self.rowHeight, with: Cell(" ", style: CellStyle(background: background)))
            }
            var countStyle = entry.unread > 0 ? count : muted
            countStyle.background = background
            let unread = entry.unread > 0 ? String(entry.unread) : "·"
            buffer.write(String(repeating: " ", count: max(0, 6 - unread.count)) + unread, row: top, column: 0, style: countStyle)
            let title = entry.feed?.feed.displayTitle ?? entry.queryFeed.map { "⌕ " + $0.name } ?? "All feeds"
            var titleStyle = CellStyle(background: background, attributes: entry.unread > 0 ? .bold : [])
            if entry.feed == nil { titleStyle.attributes.insert(.italic) }
            let refreshed = (entry.feed?.feed.lastRefresh).map { " · " + PostListScreen.relative($0, now: now, isDated: true) }
            let right = "\(entry.total) post\(entry.total == 1 ? "" : "s")" + (refreshed ?? "")
            let titleWidth = max(1, width - 8 - DisplayWidth.of(right) - 3)
            buffer.write(TextLayout.truncated(title, toWidth: titleWidth), row: top, column: 8, style: titleStyle)
            var rightStyle = muted
            rightStyle.background = background
            buffer.write(right, row: top, column: max(8, width - 1 - DisplayWidth.of(right)), style: rightStyle)
            if let queryFeed = entry.queryFeed {
                var queryStyle = muted
                queryStyle.background = background
                buffer.write(TextLayout.truncated(queryFeed.query, toWidth: max(1, width - 9)), row: top + 1, column: 8, style: queryStyle)
            }
            guard let feed = entry.feed?.feed else { continue }
            var detailStyle = feed.lastError == nil ? muted : Self.error
            detailStyle.background = background
            let detail = feed.lastError.map { "failed: " + $0 } ?? feed.url.absoluteString
            buffer.write(TextLayout.truncated(detail, toWidth: max(1, width - 9)), row: top + 1, column: 8, style: detailStyle)
        }
        buffer.drawStatusLine(status, in: layout)
    }
}
