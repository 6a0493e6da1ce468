import ListDiff
import ListViewport
import ScrollworkTestSupport
import SeededRandom
import Testing

/// Section headers: which one is pinned at the top, where, and how the viewport draws it.
@Suite struct SectionHeaderTests {
    /// Three sections, each a header of height 1 and three rows of height 2: headers at rows
    /// 0, 4 and 8, at offsets 0, 7 and 14.
    private let geometry = RowGeometry(heights: Array(repeating: [1.0, 2, 2, 2], count: 3).flatMap { $0 })
    private let headers = SectionHeaders(rows: [0, 4, 8])

    @Test func theHeaderOfTheTopRowsSectionIsPinnedAndTheNextOnePushesItUp() {
        #expect(headers.pinned(in: geometry, atOffset: 0)! == (0, 0))
        #expect(headers.pinned(in: geometry, atOffset: 4)! == (0, 0))
        // Row 3 at the top, the next header half a row below the pinned one's bottom edge.
        #expect(headers.pinned(in: geometry, atOffset: 6.5)! == (0, -0.5))
        #expect(headers.pinned(in: geometry, atOffset: 7)! == (4, 0))
        #expect(headers.pinned(in: geometry, atOffset: 14)! == (8, 0))
        // Past the list's end (an unclamped shift), the last header leaves with its rows.
        #expect(headers.pinned(in: geometry, atOffset: 20.5)! == (8, -0.5))
        #expect(headers.pinned(in: geometry, atOffset: 22) == nil)
        // Pulled down past the start, the first header stays at its own place.
        #expect(headers.pinned(in: geometry, atOffset: -3)! == (0, 3))
        // Rows before the first header belong to no section.
        #expect(SectionHeaders(rows: [4, 8]).pinned(in: geometry, atOffset: 2) == nil)
        #expect(SectionHeaders().pinned(in: geometry, atOffset: 2) == nil)
        #expect(headers.header(ofRow: 7) == 4)
        #expect(SectionHeaders(of: [5, -1, 3, -2]) { $0 < 0 }.rows == [1, 3])
    }

    /// Random sections and offsets against the definition: the header of the first visible
    /// row's section, never below the top (but at its own place), never over the next header.
    @Test func thePinnedHeaderIsTheLastHeaderAboveTheTopAndNeverCoversTheNext() {
        let seed = randomizedTestSeed()
        print("SectionHeaderTests seed \(seed) (SCROLLWORK_SEED replays it)")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<500 {
            var heights: [Double] = []
            var headerRows: [Int] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                if Bool.random(using: &random) || !headerRows.isEmpty {
                    headerRows.append(heights.count)
                    heights.append(Double(Int.random(in: 1...3, using: &random)))
                }
                for _ in 0..<Int.random(in: 0...5, using: &random) { heights.append(Double(Int.random(in: 1...4, using: &random))) }
            }
            let geometry = RowGeometry(heights: heights)
            let headers = SectionHeaders(rows: headerRows)
            for _ in 0..<20 {
                // Offsets within the content (and pulled down before it): its first visible row
                // is the one at the offset.
                let offset = Double.random(in: -5...max(-5, geometry.totalHeight - 0.5), using: &random).rounded(.down)
                let pinned = headers.pinned(in: geometry, atOffset: offset)
                guard let first = geometry.row(atOffset: max(0, offset)) else {
                    #expect(pinned == nil, "seed \(seed)")
                    continue
                }
                let expected = headerRows.last { $0 <= first }
                #expect(pinned?.row == expected, "seed \(seed): \(heights) \(headerRows) at \(offset)")
                guard let pinned else { continue }
                let height = geometry.height(ofRow: pinned.row)
                #expect(pinned.top <= max(0, geometry.offset(ofRow: pinned.row) - offset), "seed \(seed)")
                #expect(pinned.top > -height, "seed \(seed): a pinned header is at least partly on screen")
                let sectionEnd = headerRows.first(where: { $0 > pinned.row }).map(geometry.offset(ofRow:)) ?? geometry.totalHeight
                #expect(pinned.top + height <= sectionEnd - offset, "seed \(seed): past its section's end")
            }
        }
    }
}

@MainActor
@Suite(.timeLimit(.minutes(1 * HangGuard.scale))) struct SectionedViewportTests {
    /// `count` sections of `rows` posts each: header `-(section + 1)`, posts `section * 100 + row`.
    private func sections(_ sections: some Sequence<Int>, rows: Int = 10) -> [Post] {
        sections.flatMap { section in
            [Post(id: -(section + 1), title: "Day \(section)")] + (0..<rows).map { Post(id: section * 100 + $0, title: "Post") }
        }
    }

    /// A viewport 10 high over `sections`, its posts with negative ids headers 1 high, rows 2,
    /// settled; and the time it settled at.
    private func sectioned(_ sections: [Post]) async -> (RecordingHost, ListViewport<Post>, Duration) {
        let host = RecordingHost()
        host.isHeader = { $0.id < 0 }
        let viewport = ListViewport<Post>(host: host)
        viewport.setViewportHeight(10)
        viewport.submit(sections)
        return (host, viewport, await settle(viewport, from: .zero))
    }

    @Test func theFramePinsTheTopSectionsHeaderOverItsRows() async {
        var (host, viewport, time) = await sectioned(sections(0..<5))
        #expect(viewport.sectionHeaders.rows == [0, 11, 22, 33, 44])

        // Each section is 21 high: at 5, section 0's rows scroll under its header.
        viewport.scroll(to: 5, animated: false, at: time)
        time += .milliseconds(16)
        viewport.tick(at: time)
        var frame = host.frames.last
        #expect(frame?.pinnedHeader?.item.id == -1)
        #expect(frame?.pinnedHeader?.top == 0)
        #expect(frame?.rows.contains { $0.item.id == -1 } == false, "the pinned header is drawn once")
        #expect(frame?.rows.first?.item.id == 2, "row 2 of section 0, partly under the header")

        // At 20.5 the next header's top is half a row from the top: it pushes the first out.
        viewport.scroll(to: 20.5, animated: false, at: time)
        time += .milliseconds(16)
        viewport.tick(at: time)
        frame = host.frames.last
        #expect(frame?.pinnedHeader?.item.id == -1)
        #expect(frame?.pinnedHeader?.top == -0.5)
        #expect(frame?.rows.first { $0.item.id == -2 }?.top == 0.5, "the next header at its own place")

        viewport.scroll(to: 21, animated: false, at: time)
        time += .milliseconds(16)
        viewport.tick(at: time)
        #expect(host.frames.last?.pinnedHeader?.item.id == -2)
        #expect(host.frames.last?.pinnedHeader?.top == 0)
        #expect(host.problems.isEmpty, "\(host.problems)")
    }

    /// A jump deep into a long section pins a header whose row was never near the screen: it
    /// is displayed (bound) as long as it is drawn, and let go once it is not.
    @Test func aPinnedHeaderIsBoundWhileItIsDrawn() async {
        var (host, viewport, time) = await sectioned(sections(0..<2, rows: 100))
        for offset in [150.0, 190, 201, 260, 5] {
            viewport.scroll(to: offset, animated: false, at: time)
            time += .milliseconds(16)
            viewport.tick(at: time)
        }
        #expect(host.frames.contains { $0.pinnedHeader?.item.id == -1 && $0.offset == 150 })
        #expect(host.frames.contains { $0.pinnedHeader?.item.id == -2 && $0.offset == 260 })
        #expect(host.problems.isEmpty, "\(host.problems)")
        #expect(!host.bound.contains(-2), "the second header let go once the list is back at the top")
    }

    @Test func aNewSectionAtTheTopAnimatesInAndIsPinned() async {
        var (host, viewport, time) = await sectioned(sections(1..<4))
        #expect(host.frames.last?.pinnedHeader?.item.id == -2)

        // A refresh on a new day: section 0 arrives above, at the top of the list.
        viewport.submit(sections(0..<4))
        time = await settle(viewport, from: time)
        #expect(viewport.sectionHeaders.rows == [0, 11, 22, 33])
        #expect(host.frames.contains { $0.rows.contains { (0..<10).contains($0.item.id) && $0.opacity < 1 } }, "the new section's rows fade in")
        #expect(host.frames.contains { $0.pinnedHeader?.item.id == -1 && $0.pinnedHeader!.opacity < 1 }, "and its header with them")
        #expect(host.frames.last?.pinnedHeader?.item.id == -1)
        #expect(host.frames.last?.pinnedHeader?.top == 0)
        #expect(host.problems.isEmpty, "\(host.problems)")
    }
}

/// Ticks `viewport` a frame at a time from `start` until it has nothing left to do (at most
/// 2,000 frames); returns the time of the last frame.
@MainActor
func settle(_ viewport: ListViewport<Post>, from start: Duration) async -> Duration {
    var time = start
    var ticks = 0
    while viewport.needsTick && ticks < 2_000 {
        await viewport.settled()
        time += .microseconds(16_667)
        viewport.tick(at: time)
        ticks += 1
    }
    return time
}

/// A host whose view counts sections, as UIKit's does: it keeps the viewport's rows as
/// sections (``SectionedRows``) and checks every staged update the viewport's chunks map to
/// the way UIKit would, applying each to the sections it shows.
@MainActor
final class SectionedHost: ListViewportHost {
    typealias Item = Post
    weak var viewport: ListViewport<Post>?
    var shown = SectionedRows<Post>(isHeader: { $0.id < 0 })
    var problems: [String] = []
    var stages = 0
    var sectionChanges = 0

    func estimatedHeight(of item: Post) -> Double { item.id < 0 ? 1 : 2 }
    func isSectionHeader(_ item: Post) -> Bool { item.id < 0 }
    func willDisplay(_ item: Post, at row: Int) {}
    func didEndDisplaying(_ id: Int) {}
    func render(_ frame: ListViewport<Post>.Frame) {}

    func didApply(_ update: UpdateCoalescer<SoleSection, Post>.Update) {
        guard let rows = viewport?.items else { return }
        guard case .animated = update else {
            shown.replace(with: rows)
            return
        }
        var data = shown.sections
        for stage in shown.update(to: rows) {
            do {
                try stage.update.validate(oldCounts: data.map(\.items.count), newCounts: stage.data.map(\.items.count))
                data = try stage.apply(to: data)
            } catch {
                problems.append("\(error)")
            }
            stages += 1
            let update = stage.update
            sectionChanges += update.sectionInserts.count + update.sectionDeletes.count + update.sectionMoves.count
        }
        if data != shown.sections { problems.append("the stages do not reach the rows' sections") }
    }
}

@MainActor
@Suite(.timeLimit(.minutes(1 * HangGuard.scale))) struct SectionedRowsTests {
    @Test func rowsAboveTheFirstHeaderAreALeadingSectionAndEachHeaderStartsOne() {
        let rows = [Post(id: 1, title: ""), Post(id: -1, title: "A"), Post(id: 2, title: ""), Post(id: 3, title: ""), Post(id: -2, title: "B")]
        let sections = SectionedRows<Post>.sections(of: rows) { $0.id < 0 }
        #expect(sections.map(\.id) == [.leading, .header(-1), .header(-2)])
        #expect(sections.map { $0.items.map(\.id) } == [[1], [2, 3], []])
        #expect(sections[1].model.header?.title == "A" && sections[0].model.header == nil)
        #expect(SectionedRows<Post>.sections(of: []) { $0.id < 0 }.isEmpty)
    }

    /// Random changes of sectioned lists (sections inserted, deleted, moved and retitled,
    /// items moved across them, inserted, deleted and edited), submitted to a viewport as rows
    /// with headers among them: every chunk it applies maps to staged section and item
    /// updates that UIKit's rules accept and that reach the rows' sections.
    @Test func randomSectionChangesMapToUpdatesUIKitAccepts() async {
        let seed = randomizedTestSeed()
        print("SectionedRowsTests seed \(seed) (SCROLLWORK_SEED replays it)")
        var random = SeededGenerator(seed: seed)
        let host = SectionedHost()
        let viewport = ListViewport<Post>(host: host)
        host.viewport = viewport
        viewport.setViewportHeight(20)
        var sections: [(id: Int, title: String, items: [Int])] = (1...4).map { section in
            (section, "Day \(section)", (0..<5).map { section * 1_000 + $0 })
        }
        var nextID = 100_000
        var time = Duration.zero
        for round in 0..<60 {
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                switch Int.random(in: 0..<8, using: &random) {
                case 0:
                    nextID += 1
                    sections.insert((nextID, "Day \(nextID)", (0..<Int.random(in: 0...4, using: &random)).map { nextID * 10 + $0 }),
                                    at: Int.random(in: 0...sections.count, using: &random))
                case 1 where !sections.isEmpty:
                    sections.remove(at: Int.random(in: sections.indices, using: &random))
                case 2 where sections.count > 1:
                    let moved = sections.remove(at: Int.random(in: sections.indices, using: &random))
                    sections.insert(moved, at: Int.random(in: 0...sections.count, using: &random))
                case 3 where !sections.isEmpty:
                    sections[Int.random(in: sections.indices, using: &random)].title += "!"
                case 4 where sections.count > 1:
                    // An item moves to another section.
                    let from = Int.random(in: sections.indices, using: &random)
                    guard !sections[from].items.isEmpty else { break }
                    let item = sections[from].items.remove(at: Int.random(in: sections[from].items.indices, using: &random))
                    let to = Int.random(in: sections.indices, using: &random)
                    sections[to].items.insert(item, at: Int.random(in: 0...sections[to].items.count, using: &random))
                case 5 where !sections.isEmpty:
                    nextID += 1
                    let to = Int.random(in: sections.indices, using: &random)
                    sections[to].items.insert(nextID * 10, at: Int.random(in: 0...sections[to].items.count, using: &random))
                case 6 where !sections.isEmpty:
                    let from = Int.random(in: sections.indices, using: &random)
                    if !sections[from].items.isEmpty { sections[from].items.remove(at: Int.random(in: sections[from].items.indices, using: &random)) }
                default:
                    break
                }
            }
            // Item ids are positive and headers negative; an edit is a title the items carry.
            let edited = Int.random(in: 0..<3, using: &random)
            let rows = sections.flatMap { section in
                [Post(id: -section.id, title: section.title)] + section.items.map { Post(id: $0, title: "Post \($0) v\(edited)") }
            }
            viewport.submit(rows)
            time = await settle(viewport, from: time)
            #expect(viewport.items == rows, "seed \(seed), round \(round)")
            #expect(host.shown.sections == SectionedRows<Post>.sections(of: rows) { $0.id < 0 }, "seed \(seed), round \(round)")
            if !host.problems.isEmpty {
                Issue.record("seed \(seed), round \(round): \(host.problems)")
                return
            }
        }
        #expect(host.sectionChanges > 0, "seed \(seed): sections were inserted, deleted or moved")
    }
}
