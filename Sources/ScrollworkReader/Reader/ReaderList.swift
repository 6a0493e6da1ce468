import Feeds
import FeedSync
import Foundation
import ListViewport
import TerminalUI

/// What the list looks like now, read by ``ReaderState/update(_:list:now:)``: the viewport's
/// items, layout and motion, and the last frame drawn. Values all: a test makes one without a
/// viewport.
struct ReaderList {
    var items: [EntryRow]
    var geometry: RowGeometry
    var scroll: ScrollModel
    var frame: ListViewport<EntryRow>.Frame

    /// The first post fully on screen.
    var topRow: Int {
        let offset = scroll.offset
        let row = geometry.row(atOffset: offset) ?? 0
        return geometry.offset(ofRow: row) < offset ? min(row + 1, max(0, items.count - 1)) : row
    }

    /// The row of the post `id`, if the list holds it.
    /// - Complexity: O(n).
    func row(of id: EntryRow.ID?) -> Int? {
        id.flatMap { id in items.firstIndex { $0.id == id } }
    }
}
