import Feeds
import FeedSync
import Foundation
import ListViewport
import TerminalUI

/// What the list looks like now, read by ``ReaderState/update(_:list:now:)``: the viewport's
/// items, layout and motion, and the last frame drawn. Values all: a test makes one without a
/// viewport.
struct ReaderList {
    /// The posts, with the days' headings when the list is grouped by day.
    var items: [PostListRow]
    var geometry: RowGeometry
    var scroll: ScrollModel
    var frame: ListViewport<PostListRow>.Frame

    /// How far down the list's top the pinned day heading covers it now: 0 when none is pinned.
    var coveredTop: Double { frame.coveredTop }

    /// The height of the day's heading that is pinned over the list's top wherever it
    /// scrolls, when the list is grouped by day (a grouped list starts with a heading); 0 when
    /// it is not. What a move plans for, where ``coveredTop`` says what is covered now.
    var pinnedHeadingHeight: Double {
        items.first?.isHeading == true ? Double(PostListScreen.headingHeight) : 0
    }

    /// The first post fully on screen, below the pinned heading; the last post when none is.
    /// The first row when the list has no post.
    var topRow: Int {
        guard !items.isEmpty else { return 0 }
        let offset = scroll.offset + coveredTop
        var row = geometry.row(atOffset: offset) ?? 0
        if geometry.offset(ofRow: row) < offset { row += 1 }
        return post(atOrAfter: min(row, items.count - 1), step: 1) ?? post(atOrAfter: items.count - 1, step: -1) ?? 0
    }

    /// The row of the post `id`, if the list holds it.
    /// - Complexity: O(n).
    func row(of id: EntryRow.ID?) -> Int? {
        id.flatMap { id in items.firstIndex { $0.id == id } }
    }

    /// The first row from `row` on, going by `step` (1 or -1), that is a post, not a day's
    /// heading; `nil` past either end.
    /// - Complexity: O(1) in a grouped list (a heading is followed by a post), O(k) in k rows passed.
    func post(atOrAfter row: Int, step: Int) -> Int? {
        var row = row
        while items.indices.contains(row) {
            if !items[row].isHeading { return row }
            row += step
        }
        return nil
    }
}
