/// The layout of a list in sections, each with an optional header row above its items: one
/// ``RowGeometry`` of all rows, headers included, and the conversions between a row and its
/// place in a section, so that ranges, scrolling and anchoring work on rows as they do
/// without sections.
///
/// Positions convert in O(log s) for s sections; heights are set through ``rows`` in O(log n).
public struct SectionedGeometry: Sendable, Equatable {
    /// What a row is.
    public enum Place: Sendable, Equatable {
        /// The header of a section.
        case header(section: Int)
        /// An item of a section.
        case item(section: Int, item: Int)
    }

    /// The heights of every row, headers included, in order.
    public var rows: RowGeometry
    /// The row of each section's first row (its header if it has one); one more entry, the
    /// row count, closes the last section.
    private var starts: [Int]
    private var headed: [Bool]

    /// A layout of `sections`: each with its header's height, or nil for none, and its items'.
    /// - Complexity: O(n).
    public init(sections: [(header: Double?, items: [Double])]) {
        var heights: [Double] = []
        var starts: [Int] = []
        var headed: [Bool] = []
        for section in sections {
            starts.append(heights.count)
            headed.append(section.header != nil)
            if let header = section.header { heights.append(header) }
            heights += section.items
        }
        starts.append(heights.count)
        rows = RowGeometry(heights: heights)
        self.starts = starts
        self.headed = headed
    }

    /// The number of sections.
    public var sectionCount: Int { headed.count }

    /// The number of items in `section`.
    public func itemCount(inSection section: Int) -> Int {
        starts[section + 1] - starts[section] - (headed[section] ? 1 : 0)
    }

    /// The row of `section`'s header, or nil when it has none.
    public func headerRow(of section: Int) -> Int? {
        headed[section] ? starts[section] : nil
    }

    /// The row of item `item` of `section`.
    /// - Precondition: the section has that item.
    public func row(ofItem item: Int, inSection section: Int) -> Int {
        precondition(item >= 0 && item < itemCount(inSection: section), "SectionedGeometry: no item \(item) in section \(section)")
        return starts[section] + (headed[section] ? 1 : 0) + item
    }

    /// What row `row` is.
    /// - Complexity: O(log s).
    public func place(ofRow row: Int) -> Place {
        precondition(row >= 0 && row < rows.count, "SectionedGeometry: row \(row) out of 0..<\(rows.count)")
        // The last section that starts at or before the row; empty sections share starts.
        var low = 0
        var high = sectionCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= row { low = middle } else { high = middle - 1 }
        }
        if headed[low] && row == starts[low] { return .header(section: low) }
        return .item(section: low, item: row - starts[low] - (headed[low] ? 1 : 0))
    }

    /// The header to pin at the top of a viewport scrolled to `offset` (the header of the
    /// section of the first visible row), and its top from the viewport's top: 0, or less
    /// while the next section's header pushes it out.
    /// - Complexity: O(log n + log s).
    public func pinnedHeader(atOffset offset: Double) -> (section: Int, top: Double)? {
        guard let first = rows.row(atOffset: offset) else { return nil }
        let section: Int
        switch place(ofRow: first) {
        case .header(let header): section = header
        case .item(let itemSection, _): section = itemSection
        }
        guard let header = headerRow(of: section) else { return nil }
        var top = 0.0
        if section + 1 < sectionCount, let next = headerRow(of: section + 1) {
            // The next header's top, on screen, pushes this one up once they meet.
            top = min(0, rows.offset(ofRow: next) - offset - rows.height(ofRow: header))
        }
        return (section, top)
    }
}
