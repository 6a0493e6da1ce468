import Feeds
import Foundation
import ListViewport
import TerminalUI

/// Draws the post list: for each row the viewport places, an unread mark, the thumbnail box,
/// the title, the feed and how long ago, and the start of the post; a header line above and a
/// status line below. A pure function of what it is given, so it is tested through the
/// in-memory terminal and rendered at any size.
struct PostListScreen {
    /// Terminal rows per post: four lines (title, byline, two of excerpt) and a gap.
    static let rowHeight = 5
    /// Terminal rows per day's heading, when the list is grouped by day: one line.
    static let headingHeight = 1

    /// The terminal rows of `body` that the posts' pictures may cover: all of them, but for
    /// the line of the day's heading pinned at the top, which pictures drawn over the cells
    /// (kitty's, sixel, iTerm2's) would hide otherwise.
    static func pictureRows(in body: Range<Int>, of frame: ListViewport<PostListRow>.Frame) -> Range<Int> {
        min(body.upperBound, body.lowerBound + Int(frame.coveredTop.rounded()))..<body.upperBound
    }

    /// The rows `row` takes on screen.
    static func height(of row: PostListRow) -> Int {
        row.isHeading ? headingHeight : rowHeight
    }
    /// The thumbnail box, in cells: 12 columns of 4 rows hold 12 × 8 half-block pixels, a
    /// 3:2 picture on cells twice as tall as wide.
    static let thumbnail = (columns: 12, rows: 4)
    /// The column of a post's thumbnail box, after its unread mark.
    static let thumbnailColumn = 2

    /// What the header says.
    var title: String
    /// What the status line says.
    var status: String
    /// The time relative dates count from.
    var now: Date
    /// The post under the cursor, drawn highlighted.
    var selectedID: EntryRow.ID?
    /// Whether the key help is drawn over the list.
    var showsHelp = false
    /// What an empty list says, in its middle; `nil` draws nothing.
    var emptyText: String?
    /// Posts drawn in earlier frames, reused while nothing they show has changed.
    var strips: StripCache?
    /// The colours from the settings.
    var colors = ReaderColors.defaults
    /// The keys the help box lists.
    var keys = KeyBindings.defaults
    /// Whether posts have a thumbnail box (`image_mode = "none"` leaves it out).
    var showsPictures = true
    /// The words of the list's search, marked in titles and excerpts; `nil` without a search.
    var highlight: SearchHighlight?

    /// Each post's cells as last drawn, with everything they depend on: during a fling the same
    /// posts are drawn every frame at new places, and laying out their text and pictures again
    /// would be most of the frame.
    final class StripCache {
        struct Key: Equatable {
            var post: EntryRow
            var selected: Bool
            var fading: Bool
            var width: Int
            var colors: ReaderColors
            var showsPictures: Bool
            var byline: String
            var picture: PictureState
            var highlight: SearchHighlight?
        }

        private var strips: [EntryRow.ID: (key: Key, strip: CellBuffer)] = [:]

        func strip(for key: Key, draw: () -> CellBuffer) -> CellBuffer {
            if let cached = strips[key.post.id], cached.key == key { return cached.strip }
            let strip = draw()
            strips[key.post.id] = (key, strip)
            return strip
        }

        /// Forgets posts not drawn in the last frame, so the cache holds about a screenful.
        func keep(only ids: Set<EntryRow.ID>) {
            if strips.count > 2 * max(ids.count, 8) { strips = strips.filter { ids.contains($0.key) } }
        }
    }

    /// The keys, as the help box lists them: the settings' bindings, then the mouse and the
    /// keys no setting changes.
    static func help(keys: KeyBindings) -> [(String, String)] {
        let pairs: [(ReaderAction, ReaderAction?, String)] = [
            (.down, .up, "move the cursor"), (.pageDown, .pageUp, "page down / up"), (.top, .bottom, "top / bottom"),
            (.open, nil, "open the post"), (.openLink, nil, "open its link in the browser"),
            (.refresh, .refreshAll, "refresh this feed / all"), (.feeds, nil, "feeds, with unread counts"),
            (.search, .saveSearch, "search as you type / save as a feed"), (.searchOrder, nil, "a search by relevance or date"),
            (.groupByDay, nil, "group by day, or not"), (.star, nil, "star or unstar"), (.toggleRead, nil, "mark read or unread"),
            (.markAllRead, nil, "mark all read"), (.unreadOnly, nil, "unread only / all"), (.back, .quit, "back, or quit / quit"),
            (.help, nil, "this help (any key closes it)"),
        ]
        let shown = pairs.map { first, second, what in
            (second.map { keys.label(for: first) + " / " + keys.label(for: $0) } ?? keys.label(for: first), what)
        }
        return shown + [("click, wheel", "open; scroll with momentum"), ("ctrl-z", "suspend")]
    }

    /// Draws the screen into `buffer` as `layout` places it: the header in the title bar, the
    /// list in the body (the viewport's height), the status line.
    func draw(_ frame: ListViewport<PostListRow>.Frame, pictures: (EntryRow) -> PictureState, in layout: ScreenLayout,
              into buffer: inout CellBuffer) {
        let width = buffer.columns
        let listTop = layout.body.top
        let listHeight = layout.body.height
        buffer.fill(row: 0, column: 0, width: width, height: buffer.rows, with: .blank)
        buffer.drawTitleBar(title, accent: colors.accent, in: layout)

        strips?.keep(only: Set(frame.rows.map(\.item.id)))
        let clip = listTop..<(listTop + listHeight)
        for row in frame.rows {
            let top = listTop + Int(row.top.rounded())
            let fading = row.opacity < 0.5 || row.isLeaving
            switch row.item {
            case .post(let post): draw(post, at: top, fading: fading, pictures: pictures, into: &buffer, clip: clip)
            case .day(let heading): draw(heading, at: top, fading: fading, into: &buffer, clip: clip)
            }
        }
        // The top day's heading, pinned over the posts scrolling under it.
        if let pinned = frame.pinnedHeader, case .day(let heading) = pinned.item {
            draw(heading, at: listTop + Int(pinned.top.rounded()), fading: false, into: &buffer, clip: clip)
        }

        if frame.rows.isEmpty, let emptyText {
            let line = TextLayout.truncated(emptyText, toWidth: max(1, width - 4))
            buffer.write(line, row: listTop + listHeight / 2, column: max(2, (width - DisplayWidth.of(line)) / 2),
                         style: CellStyle(foreground: .indexed(245)))
        }
        buffer.drawStatusLine(status, in: layout)
        if showsHelp { drawHelp(in: layout.body, into: &buffer) }
    }

    /// The help box, centred over the list.
    private func drawHelp(in body: ScreenLayout.Band, into buffer: inout CellBuffer) {
        let boxWidth = min(buffer.columns - 2, 62)
        let help = Self.help(keys: keys)
        let boxHeight = max(0, min(body.height, help.count + 4))
        let top = max(body.top, body.top + (body.height - boxHeight) / 2)
        let left = max(1, (buffer.columns - boxWidth) / 2)
        let style = CellStyle(foreground: .ansi(15), background: .indexed(238))
        buffer.fill(row: top, column: left, width: boxWidth, height: boxHeight, with: Cell(" ", style: style))
        buffer.write(" Keys", row: top, column: left, style: CellStyle(foreground: .ansi(15), background: .indexed(238), attributes: .bold))
        for (index, (keys, action)) in help.prefix(max(0, boxHeight - 3)).enumerated() {
            let row = top + 2 + index
            buffer.write(" " + keys, row: row, column: left, style: CellStyle(foreground: .indexed(117), background: .indexed(238)), limit: left + 24)
            buffer.write(action, row: row, column: left + 25, style: style, limit: left + boxWidth)
        }
    }

    /// A day's heading: its title in bold, and a rule in the dim colour to the right edge. It
    /// fills its line, so the posts scrolling under a pinned heading never show through.
    private func draw(_ heading: DayHeading, at top: Int, fading: Bool, into buffer: inout CellBuffer, clip: Range<Int>) {
        guard clip.contains(top) else { return }
        let width = buffer.columns
        let dim: CellAttributes = fading ? .dim : []
        buffer.fill(row: top, column: 0, width: width, height: 1, with: .blank)
        let title = TextLayout.truncated(heading.title, toWidth: max(1, width - 4))
        buffer.write(title, row: top, column: 2, style: CellStyle(attributes: CellAttributes.bold.union(dim)))
        let ruleStart = 2 + DisplayWidth.of(title) + 1
        if ruleStart < width - 1 {
            buffer.write(String(repeating: "─", count: width - 1 - ruleStart), row: top, column: ruleStart,
                         style: CellStyle(foreground: colors.dim, attributes: dim))
        }
    }

    private func draw(_ post: EntryRow, at top: Int, fading: Bool, pictures: (EntryRow) -> PictureState,
                      into buffer: inout CellBuffer, clip: Range<Int>) {
        let width = buffer.columns
        let byline = (post.isStarred ? "★ " : "") + "\(post.feedTitle) · \(Self.relative(post.date, now: now, isDated: post.isDated))"
        let key = StripCache.Key(post: post, selected: post.id == selectedID, fading: fading, width: width, colors: colors, showsPictures: showsPictures, byline: byline,
                                 picture: pictures(post), highlight: highlight)
        let strip = strips?.strip(for: key) { Self.strip(key) } ?? Self.strip(key)
        // Copy the rows inside the list, so a post half scrolled out never draws over the header
        // or the status line.
        for line in 0..<Self.rowHeight where clip.contains(top + line) {
            buffer.copyRow(line, of: strip, to: top + line)
        }
    }

    /// A post's cells: its unread mark, thumbnail, title, byline and two lines of excerpt.
    private static func strip(_ key: StripCache.Key) -> CellBuffer {
        let post = key.post
        let width = key.width
        let textColumn = key.showsPictures ? 2 + Self.thumbnail.columns + 2 : 2
        let textWidth = max(0, width - textColumn - 1)
        let dim: CellAttributes = key.fading ? .dim : []
        var strip = CellBuffer(columns: width, rows: Self.rowHeight)
        let background: TerminalColor = key.selected ? key.colors.selectionBackground : .default
        if key.selected {
            strip.fill(row: 0, column: 0, width: width, height: Self.rowHeight - 1, with: Cell(" ", style: CellStyle(background: background)))
        }
        if !post.isRead {
            strip.write("●", row: 0, column: 0, style: CellStyle(foreground: key.colors.unread, background: background, attributes: dim))
        }
        if key.showsPictures {
            strip.draw(key.picture, row: 0, column: Self.thumbnailColumn, columns: Self.thumbnail.columns, rows: Self.thumbnail.rows)
        }
        let titleAttributes = (post.isRead ? CellAttributes() : CellAttributes.bold).union(dim)
        let title = TextLayout.truncated(post.title.isEmpty ? "(untitled)" : post.title, toWidth: textWidth)
        strip.write(title, row: 0, column: textColumn, style: CellStyle(background: background, attributes: titleAttributes))
        mark(key.highlight?.ranges(in: title, field: .title), of: title, row: 0, column: textColumn, attributes: titleAttributes, in: &strip)
        strip.write(TextLayout.truncated(key.byline, toWidth: textWidth), row: 1, column: textColumn,
                    style: CellStyle(foreground: .indexed(109), background: background, attributes: dim))
        let excerpt = TextLayout.wrapped(post.excerpt, toWidth: max(1, textWidth))
        for (line, text) in excerpt.prefix(2).enumerated() {
            let shown = line == 1 && excerpt.count > 2 ? TextLayout.truncated(text + " …", toWidth: textWidth) : text
            strip.write(shown, row: 2 + line, column: textColumn, style: CellStyle(foreground: key.colors.dim, background: background, attributes: dim))
            mark(key.highlight?.ranges(in: shown), of: shown, row: 2 + line, column: textColumn, attributes: dim, in: &strip)
        }
        return strip
    }

    /// The style of a search's matches: dark on yellow, as pagers and browsers mark them,
    /// made by reversing yellow on dark, so that a terminal without colour (`NO_COLOR`) shows
    /// them in reverse video.
    static let matchStyle = CellStyle(foreground: .ansi(3), background: .ansi(0), attributes: .reverse)

    /// Draws `ranges` of `text`, written at `row` and `column`, in ``matchStyle``.
    private static func mark(_ ranges: [Range<String.Index>]?, of text: String, row: Int, column: Int, attributes: CellAttributes,
                             in strip: inout CellBuffer) {
        for range in ranges ?? [] {
            var style = matchStyle
            style.attributes.formUnion(attributes)
            strip.write(String(text[range]), row: row, column: column + DisplayWidth.of(String(text[..<range.lowerBound])), style: style)
        }
    }

    /// "just now", "5m", "3h", "2d", then the date.
    static func relative(_ date: Date, now: Date, isDated: Bool) -> String {
        let seconds = now.timeIntervalSince(date)
        let text: String
        switch seconds {
        case ..<60: text = "just now"
        case ..<3_600: text = "\(Int(seconds / 60))m"
        case ..<86_400: text = "\(Int(seconds / 3_600))h"
        case ..<(86_400 * 30): text = "\(Int(seconds / 86_400))d"
        default: text = String(FeedDate.rfc3339(date).prefix(10))
        }
        return isDated ? text : "seen " + text
    }
}
