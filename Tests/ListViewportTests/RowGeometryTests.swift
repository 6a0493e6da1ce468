import ListViewport
import SeededRandom
import Testing

/// The Fenwick-backed layout against a plain array of heights, on random edits.
@Suite struct RowGeometryTests {
    /// The obvious implementation, for comparison.
    struct Reference {
        var heights: [Double]
        func offset(_ row: Int) -> Double { heights.prefix(row).reduce(0, +) }
        func row(at offset: Double) -> Int? {
            guard !heights.isEmpty else { return nil }
            var top = 0.0
            for (row, height) in heights.enumerated() {
                if offset < top + height { return row }
                top += height
            }
            return heights.count - 1
        }
    }

    @Test func matchesANaiveLayoutUnderRandomEdits() {
        let seed = randomizedTestSeed()
        print("RowGeometry: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for trial in 0..<60 {
            var heights = (0..<Int.random(in: 0...60, using: &random)).map { _ in Double(Int.random(in: 1...6, using: &random)) }
            var geometry = RowGeometry(heights: heights)
            for step in 0..<30 {
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !heights.isEmpty:
                    let row = Int.random(in: 0..<heights.count, using: &random)
                    let height = Double(Int.random(in: 1...8, using: &random))
                    let delta = geometry.setHeight(height, ofRow: row)
                    #expect(delta == height - heights[row])
                    heights[row] = height
                case 1:
                    let new = (0..<Int.random(in: 1...4, using: &random)).map { _ in Double(Int.random(in: 1...5, using: &random)) }
                    let row = Int.random(in: 0...heights.count, using: &random)
                    geometry.insertRows(new, at: row)
                    heights.insert(contentsOf: new, at: row)
                case 2 where !heights.isEmpty:
                    let start = Int.random(in: 0..<heights.count, using: &random)
                    let end = min(heights.count, start + Int.random(in: 1...3, using: &random))
                    geometry.removeRows(start..<end)
                    heights.removeSubrange(start..<end)
                default: break
                }
                let reference = Reference(heights: heights)
                let context = "seed \(seed), trial \(trial), step \(step)"
                #expect(geometry.count == heights.count, "\(context)")
                #expect(geometry.totalHeight == reference.offset(heights.count), "\(context)")
                for row in heights.indices {
                    #expect(geometry.offset(ofRow: row) == reference.offset(row), "\(context), row \(row)")
                }
                for offset in stride(from: -2.0, through: reference.offset(heights.count) + 2, by: 0.5) {
                    #expect(geometry.row(atOffset: offset) == reference.row(at: offset), "\(context), offset \(offset)")
                }
            }
        }
    }

    @Test func findsTheRowsOfAViewport() {
        let geometry = RowGeometry(heights: [3, 3, 3, 3, 3])
        #expect(geometry.rows(inOffset: 0, length: 6) == 0..<2)
        #expect(geometry.rows(inOffset: 1, length: 6) == 0..<3)
        #expect(geometry.rows(inOffset: 3, length: 3) == 1..<2)
        #expect(geometry.rows(inOffset: 14, length: 10) == 4..<5)
        #expect(RowGeometry().rows(inOffset: 0, length: 10) == 0..<0)
    }

    @Test func aHundredThousandRowsAreLaidOutAndFound() {
        var geometry = RowGeometry(heights: Array(repeating: 4, count: 100_000))
        #expect(geometry.totalHeight == 400_000)
        #expect(geometry.row(atOffset: 123_457) == 30_864)
        geometry.setHeight(10, ofRow: 5)
        #expect(geometry.offset(ofRow: 99_999) == 399_996 + 6)
    }
}
