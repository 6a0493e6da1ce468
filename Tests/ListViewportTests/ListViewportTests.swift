import ListDiff
import ListViewport
import ScrollworkTestSupport
import SeededRandom
import Testing

/// A host that records what the viewport tells it and checks, at every frame, that each drawn
/// row's view (and the pinned section header's) is bound to the item it shows.
@MainActor
final class RecordingHost: ListViewportHost {
    typealias Item = Post
    var bound: Set<Int> = []
    var frames: [ListViewport<Post>.Frame] = []
    var updates = 0
    var problems: [String] = []
    var rowHeight = 2.0
    /// Which posts are section headers (none unless a test says), and their height.
    var isHeader: (Post) -> Bool = { _ in false }
    var headerHeight = 1.0

    func estimatedHeight(of item: Post) -> Double { isHeader(item) ? headerHeight : rowHeight }
    func isSectionHeader(_ item: Post) -> Bool { isHeader(item) }
    func didApply(_ update: UpdateCoalescer<SoleSection, Post>.Update) { updates += 1 }
    func willDisplay(_ item: Post, at row: Int) {
        if !bound.insert(item.id).inserted { problems.append("\(item.id) displayed twice") }
    }
    func didEndDisplaying(_ id: Int) {
        if bound.remove(id) == nil { problems.append("\(id) ended without being displayed") }
    }
    func render(_ frame: ListViewport<Post>.Frame) {
        frames.append(frame)
        for row in frame.rows + [frame.pinnedHeader].compactMap({ $0 }) where !row.isLeaving && !bound.contains(row.item.id) {
            problems.append("row \(row.item.id) drawn without being bound")
        }
    }
}

@MainActor
@Suite(.timeLimit(.minutes(1 * HangGuard.scale))) struct ListViewportTests {
    private func posts(_ ids: Range<Int>) -> [Post] { ids.map { Post(id: $0, title: "Post \($0)") } }

    private func viewport(_ host: any ListViewportHost<Post>, items: [Post]) async -> ListViewport<Post> {
        let viewport = ListViewport<Post>(host: host)
        viewport.setViewportHeight(40)
        viewport.submit(items)
        await viewport.settled()
        viewport.tick(at: .zero)
        return viewport
    }

    /// Ticks at 60 Hz until nothing is left to do, letting diffs finish; returns the time.
    @discardableResult
    private func run(_ viewport: ListViewport<Post>, from start: Duration, limit: Int = 2_000) async -> Duration {
        var time = start
        var ticks = 0
        while viewport.needsTick && ticks < limit {
            await viewport.settled()
            time += .microseconds(16_667)
            viewport.tick(at: time)
            ticks += 1
        }
        return time
    }

    private func screenTop(of id: Int, in frame: ListViewport<Post>.Frame?) -> Double? {
        frame?.rows.first { $0.item.id == id && !$0.isLeaving }?.top
    }

    @Test func rowsArrivingAboveKeepTheReadersPlace() async {
        let host = RecordingHost()
        let viewport = await viewport(host, items: posts(0..<200))
        viewport.scroll(to: 100, animated: false, at: .zero)
        viewport.tick(at: .milliseconds(16))
        let anchor = 50  // row 50 is at the top: offset 100 / height 2
        #expect(screenTop(of: anchor, in: host.frames.last) == 0)
        viewport.submit(posts(1000..<1050) + posts(0..<200))
        var time = Duration.milliseconds(16)
        var ticks = 0
        while viewport.needsTick && ticks < 500 {
            ticks += 1
            await viewport.settled()
            time += .microseconds(16_667)
            viewport.tick(at: time)
            #expect(screenTop(of: anchor, in: host.frames.last) == 0, "the first visible row never moves")
        }
        #expect(viewport.items.count == 250)
        #expect(viewport.scroll.offset == 200)
        #expect(host.updates == 1 + 5, "the first fill, then fifty rows ten per tick")
        #expect(host.problems.isEmpty, "\(host.problems)")
    }

    @Test func measuringRowsAboveTheScreenDoesNotMoveWhatIsOnIt() async {
        let host = RecordingHost()
        let viewport = await viewport(host, items: posts(0..<200))
        viewport.scroll(to: 100, animated: false, at: .zero)
        viewport.tick(at: .milliseconds(16))
        let before = host.frames.last!.rows.map { ($0.item.id, $0.top) }
        #expect(before.first?.0 == 50 && before.first?.1 == 0)
        // Rows above the first visible one turn out taller and shorter than estimated.
        viewport.setMeasuredHeight(7, of: 10)
        viewport.setMeasuredHeight(0.5, of: 49)
        viewport.tick(at: .milliseconds(33))
        let after = host.frames.last!.rows.map { ($0.item.id, $0.top) }
        #expect(after.map(\.0) == before.map(\.0) && after.map(\.1) == before.map(\.1), "the screen is unchanged")
        #expect(viewport.scroll.offset == 100 + 5 - 1.5)
        // A row on screen measured taller pushes down only the rows below it.
        viewport.setMeasuredHeight(4, of: 52)
        viewport.tick(at: .milliseconds(50))
        #expect(screenTop(of: 50, in: host.frames.last) == 0)
        #expect(screenTop(of: 53, in: host.frames.last) == 8)
        #expect(host.problems.isEmpty, "\(host.problems)")
    }

    @Test func atTheTopNewRowsPushTheOldOnesDown() async {
        let host = RecordingHost()
        let viewport = await viewport(host, items: posts(0..<100))
        viewport.submit(posts(1000..<1003) + posts(0..<100))
        await run(viewport, from: .zero)
        #expect(viewport.scroll.offset == 0)
        #expect(host.frames.last?.rows.first?.item.id == 1000)
        #expect(screenTop(of: 0, in: host.frames.last) == 6)
    }

    @Test func aFlingKeepsItsMomentumWhenRowsArriveAbove() async {
        let host = RecordingHost()
        let viewport = await viewport(host, items: posts(0..<2_000))
        viewport.scroll(to: 1_000, animated: false, at: .zero)
        viewport.fling(velocity: 2_000, at: .zero)
        viewport.tick(at: .milliseconds(16))
        let landing = viewport.scroll.predictedLanding
        viewport.submit(posts(5000..<5010) + posts(0..<2_000))
        await viewport.settled()
        viewport.tick(at: .milliseconds(33))
        #expect(viewport.scroll.phase == .decelerating, "the glide goes on")
        #expect(viewport.scroll.predictedLanding == landing + 20, "and lands on the same rows")
    }

    @Test func theIdleListNeedsNoTicks() async {
        let host = RecordingHost()
        let viewport = await viewport(host, items: posts(0..<100))
        await run(viewport, from: .zero)
        #expect(!viewport.needsTick)
        let frames = host.frames.count
        viewport.drag(by: 10)
        #expect(viewport.needsTick)
        await run(viewport, from: .seconds(1))
        #expect(host.frames.count == frames + 1)
        #expect(!viewport.needsTick)
    }

    @Test func randomScrollsAndUpdatesNeverDrawAnUnboundRow() async {
        guard let (host, viewport, current, seed) = await fuzz(steps: 400, host: { _ in RecordingHost() }, problems: \.problems)
        else { return }
        #expect(viewport.items == current, "seed \(seed)")
        #expect(host.problems.isEmpty, "seed \(seed): \(host.problems)")
        let displayed = Set(viewport.ranges.display.map { viewport.items[$0].id })
        #expect(host.bound == displayed, "seed \(seed): bound views are exactly the display range")
    }

    @Test func reusedViewsNeverShowTheirPreviousItemsContent() async {
        guard let (host, _, _, seed) = await fuzz(steps: 600, host: ReusingHost.init(seed:), problems: \.problems) else { return }
        #expect(host.problems.isEmpty, "seed \(seed): \(host.problems)")
        #expect(host.delivered > 0 && host.dropped > 0, "seed \(seed): loads both arrived in time and too late")
        #expect(host.pool.made < 150, "seed \(seed): views are reused (\(host.pool.made) made)")
    }

    /// Random scrolls and updates of a list of 300 rows, with a printed seed that also makes
    /// the host, ticked until nothing is left to do; nil once the host has a problem (recorded
    /// as an issue).
    private func fuzz<Host: ListViewportHost<Post>>(steps: Int, host makeHost: (UInt64) -> Host,
                                                     problems: (Host) -> [String]) async -> (Host, ListViewport<Post>, [Post], UInt64)? {
        let seed = randomizedTestSeed()
        print("ListViewport fuzz: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let host = makeHost(seed)
        var current = posts(0..<300)
        let viewport = await viewport(host, items: current)
        var time = Duration.zero
        var nextID = 10_000
        for step in 0..<steps {
            randomStep(viewport, items: &current, nextID: &nextID, random: &random, at: time)
            if Bool.random(using: &random) { await viewport.settled() }
            time += .microseconds(16_667)
            viewport.tick(at: time)
            if !problems(host).isEmpty {
                Issue.record("seed \(seed), step \(step): \(problems(host))")
                return nil
            }
        }
        await run(viewport, from: time)
        return (host, viewport, current, seed)
    }

    /// One random step of a fuzz: a fling, a drag, rows inserted, deleted or edited, or nothing.
    private func randomStep(_ viewport: ListViewport<Post>, items current: inout [Post], nextID: inout Int,
                            random: inout SeededGenerator, at time: Duration) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            viewport.fling(velocity: Double.random(in: -6_000...6_000, using: &random), at: time)
        case 1:
            viewport.drag(by: Double.random(in: -30...30, using: &random))
        case 2:
            let count = Int.random(in: 1...30, using: &random)
            current.insert(contentsOf: (0..<count).map { Post(id: nextID + $0, title: "n") },
                           at: Int.random(in: 0...current.count, using: &random))
            nextID += count
            viewport.submit(current)
        case 3 where current.count > 20:
            let start = Int.random(in: 0..<current.count - 10, using: &random)
            current.removeSubrange(start..<start + Int.random(in: 1...10, using: &random))
            viewport.submit(current)
        case 4 where !current.isEmpty:
            current[Int.random(in: 0..<current.count, using: &random)].title += "!"
            viewport.submit(current)
        default:
            break
        }
    }
}
