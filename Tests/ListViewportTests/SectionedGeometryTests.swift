import ListViewport
import SeededRandom
import Testing

@Suite struct SectionedGeometryTests {
    @Test func placesAndRowsAgreeWithANaiveLayout() {
        let seed = randomizedTestSeed()
        print("SectionedGeometry: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let sections: [(header: Double?, items: [Double])] = (0..<Int.random(in: 1...40, using: &random)).map { _ in
            (Bool.random(using: &random) ? Double(Int.random(in: 1...3, using: &random)) : nil,
             (0..<Int.random(in: 0...12, using: &random)).map { _ in Double(Int.random(in: 1...5, using: &random)) })
        }
        let geometry = SectionedGeometry(sections: sections)
        // The naive layout: every row's place and top, one after another.
        var places: [SectionedGeometry.Place] = []
        var tops: [Double] = []
        var top = 0.0
        for (index, section) in sections.enumerated() {
            if let header = section.header {
                places.append(.header(section: index))
                tops.append(top)
                top += header
            }
            for (item, height) in section.items.enumerated() {
                places.append(.item(section: index, item: item))
                tops.append(top)
                top += height
            }
        }
        #expect(geometry.rows.count == places.count, "seed \(seed)")
        #expect(geometry.rows.totalHeight == top, "seed \(seed)")
        for row in places.indices {
            #expect(geometry.place(ofRow: row) == places[row], "seed \(seed), row \(row)")
            #expect(geometry.rows.offset(ofRow: row) == tops[row], "seed \(seed), row \(row)")
            switch places[row] {
            case .header(let section): #expect(geometry.headerRow(of: section) == row)
            case .item(let section, let item): #expect(geometry.row(ofItem: item, inSection: section) == row)
            }
        }
        for (index, section) in sections.enumerated() {
            #expect(geometry.itemCount(inSection: index) == section.items.count)
            #expect((geometry.headerRow(of: index) != nil) == (section.header != nil))
        }
    }

    @Test func theNextHeaderPushesThePinnedOneUp() {
        // Two sections: a header of 2 and four items of 5 each, twice.
        let geometry = SectionedGeometry(sections: [(2, [5, 5, 5, 5]), (2, [5, 5, 5, 5])])
        #expect(geometry.pinnedHeader(atOffset: 0)! == (0, 0))
        #expect(geometry.pinnedHeader(atOffset: 10)! == (0, 0))
        // The second header starts at 22: at offset 21 it is 1 below the top, under the first.
        #expect(geometry.pinnedHeader(atOffset: 21)! == (0, -1))
        #expect(geometry.pinnedHeader(atOffset: 22)! == (1, 0))
        #expect(SectionedGeometry(sections: [(nil, [5, 5])]).pinnedHeader(atOffset: 3) == nil)
    }
}
