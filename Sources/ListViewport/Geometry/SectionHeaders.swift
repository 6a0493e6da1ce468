/// Where a list's section headers are, among its rows, and which one is pinned at the top.
///
/// A sectioned list is laid out as one list of rows, each section's header a row above its
/// items (as UIKit's plain tables draw them), so ranges, loading, scrolling, anchoring and
/// the diff's animations treat headers as the rows they are. What sections add is the pinned
/// header: the header of the section at the top of the viewport stays there while its rows
/// scroll under it, and the next section's header pushes it up and out as it arrives.
public struct SectionHeaders: Sendable, Equatable {
    /// The rows that are headers, ascending.
    public private(set) var rows: [Int]

    /// Headers at `rows`.
    /// - Precondition: `rows` ascend.
    public init(rows: [Int] = []) {
        precondition(zip(rows, rows.dropFirst()).allSatisfy { $0 < $1 }, "SectionHeaders: rows must ascend")
        self.rows = rows
    }

    /// The header rows of `items`, those `isHeader` says are headers.
    /// - Complexity: O(n).
    public init<Items: Collection>(of items: Items, isHeader: (Items.Element) -> Bool) {
        rows = items.enumerated().compactMap { isHeader($0.element) ? $0.offset : nil }
    }

    /// The header of the section at `row`: the last header at or above it; `nil` when no
    /// header is (the rows before the first section's header belong to none).
    /// - Complexity: O(log h) for h headers.
    public func header(ofRow row: Int) -> Int? {
        let index = firstHeader(after: row)
        return index == 0 ? nil : rows[index - 1]
    }

    /// The header to pin at the top of a viewport scrolled to `offset` over `geometry`, and
    /// its top from the viewport's top: 0 (its own place when the list is pulled down past
    /// its start), or less while the next header pushes it up: the pinned header's bottom
    /// never passes its section's end, the next header's top or the list's end. `nil` when
    /// the first visible row belongs to no section's header, or the header has left the
    /// screen.
    /// - Complexity: O(log n + log h).
    public func pinned(in geometry: RowGeometry, atOffset offset: Double) -> (row: Int, top: Double)? {
        guard let first = geometry.row(atOffset: max(0, offset)), let header = header(ofRow: first) else { return nil }
        // At the top, or at its own place when the list is pulled down past its start; never
        // below its section's end (the next header's top, or the list's end).
        let next = firstHeader(after: header)
        let sectionEnd = next < rows.count ? geometry.offset(ofRow: rows[next]) : geometry.totalHeight
        let height = geometry.height(ofRow: header)
        let top = min(max(0, geometry.offset(ofRow: header) - offset), sectionEnd - offset - height)
        // Past the list's end (an unclamped shift) the last header may have left the screen.
        return top > -height ? (header, top) : nil
    }

    /// The index in ``rows`` of the first header below `row`, or `rows.count`.
    /// - Complexity: O(log h).
    private func firstHeader(after row: Int) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] > row { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

