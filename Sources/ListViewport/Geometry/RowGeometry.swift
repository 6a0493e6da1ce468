/// The vertical layout of a list's rows: each row's height and offset, with the lookups a
/// scrolling list makes every frame in O(log n).
///
/// Heights are in abstract units (terminal rows, points). A row's height may be an estimate
/// until it is measured; ``setHeight(_:ofRow:)`` corrects it and reports by how much the rows
/// below moved, so the viewport can keep what is on screen in place.
///
/// Backed by a Fenwick tree of heights: prefix sums, point updates and "which row is at this
/// offset" in O(log n). Inserting or removing rows rebuilds the tree in O(n), which a list
/// does at most once per frame for a chunk of a few rows.
public struct RowGeometry: Sendable, Equatable {
    private var heights: [Double]
    /// `tree[i]` holds the sum of heights in `(i - lowbit(i), i]`, 1-based.
    private var tree: [Double]

    /// A layout of `heights`, one per row.
    /// - Precondition: no height is negative.
    /// - Complexity: O(n).
    public init(heights: [Double] = []) {
        precondition(heights.allSatisfy { $0 >= 0 }, "RowGeometry: heights are not negative")
        self.heights = heights
        tree = Self.build(heights)
    }

    /// The number of rows.
    public var count: Int { heights.count }

    /// The sum of all heights: how tall the content is.
    /// - Complexity: O(log n).
    public var totalHeight: Double { prefixSum(count) }

    /// The height of row `row`.
    public func height(ofRow row: Int) -> Double { heights[row] }

    /// The offset of the top of row `row` from the top of the content; `count` gives the
    /// total height.
    /// - Complexity: O(log n).
    public func offset(ofRow row: Int) -> Double {
        precondition(row >= 0 && row <= count, "RowGeometry: row \(row) out of 0...\(count)")
        return prefixSum(row)
    }

    /// The row that covers `offset`: the last row whose top is at or above it. Offsets above
    /// the content give row 0; offsets at or below its end give the last row; `nil` when there
    /// are no rows. Rows of height zero are never returned for an offset inside a taller row.
    /// - Complexity: O(log n).
    public func row(atOffset offset: Double) -> Int? {
        guard count > 0 else { return nil }
        if offset <= 0 { return firstRow(tallerThanZeroFrom: 0) }
        // Binary descent: the largest prefix whose sum is <= offset.
        var position = 0
        var remaining = offset
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= count && tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return firstRow(tallerThanZeroFrom: min(position, count - 1))
    }

    /// The rows any part of which lies within `offset..<offset + length`.
    /// - Complexity: O(log n).
    public func rows(inOffset offset: Double, length: Double) -> Range<Int> {
        guard count > 0, length > 0, let first = row(atOffset: offset) else { return 0..<0 }
        let end = offset + length
        guard var last = row(atOffset: end) else { return 0..<0 }
        if last > first, self.offset(ofRow: last) >= end { last -= 1 }
        return first..<(last + 1)
    }

    /// Sets the height of row `row` and returns the change, which moves every row below it.
    /// - Complexity: O(log n).
    @discardableResult
    public mutating func setHeight(_ height: Double, ofRow row: Int) -> Double {
        precondition(height >= 0, "RowGeometry: heights are not negative")
        let delta = height - heights[row]
        guard delta != 0 else { return 0 }
        heights[row] = height
        var index = row + 1
        while index <= count {
            tree[index] += delta
            index += index & -index
        }
        return delta
    }

    /// Inserts rows of `heights` at `row`.
    /// - Complexity: O(n).
    public mutating func insertRows(_ heights: [Double], at row: Int) {
        precondition(heights.allSatisfy { $0 >= 0 }, "RowGeometry: heights are not negative")
        self.heights.insert(contentsOf: heights, at: row)
        tree = Self.build(self.heights)
    }

    /// Removes the rows in `rows`.
    /// - Complexity: O(n).
    public mutating func removeRows(_ rows: Range<Int>) {
        heights.removeSubrange(rows)
        tree = Self.build(heights)
    }

    private func prefixSum(_ rows: Int) -> Double {
        var sum = 0.0
        var index = rows
        while index > 0 {
            sum += tree[index]
            index -= index & -index
        }
        return sum
    }

    /// `row`, or the next row that has a height when `row` has none, staying in range.
    private func firstRow(tallerThanZeroFrom row: Int) -> Int {
        var row = row
        while row < count - 1 && heights[row] == 0 { row += 1 }
        return row
    }

    private static func build(_ heights: [Double]) -> [Double] {
        var tree = [0.0] + heights
        for index in 1..<max(1, tree.count) {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
        return tree
    }
}
