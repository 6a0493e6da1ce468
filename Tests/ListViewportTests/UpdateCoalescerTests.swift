import ListDiff
import ListViewport
import SeededRandom
import Testing

struct Post: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
}

typealias Feed = [ListSection<SoleSection, Post>]

func feed(_ posts: [Post]) -> Feed {
    [ListSection(model: SoleSection(), items: posts)]
}

@MainActor
@Suite struct UpdateCoalescerTests {
    /// Ticks until nothing is left, checking every chunk as a list view would; returns the
    /// number of updates applied.
    @discardableResult
    private func drain(_ coalescer: UpdateCoalescer<SoleSection, Post>, maxChanges: Int) async -> Int {
        var updates = 0
        while coalescer.hasPendingWork {
            await coalescer.settled()
            let before = coalescer.shown
            guard let update = coalescer.tick() else { continue }
            updates += 1
            if case .animated(let chunk) = update {
                #expect(chunk.update.moves.count > 0 || chunk.changeCount <= maxChanges)
                #expect((try? chunk.update.apply(to: before, target: coalescer.shown)) == coalescer.shown)
            }
        }
        return updates
    }

    @Test func fiveHundredNewPostsArriveTenPerTick() async {
        let old = (0..<100).map { Post(id: $0, title: "Old \($0)") }
        let coalescer = UpdateCoalescer(initial: feed(old))
        let new = (1000..<1500).map { Post(id: $0, title: "New \($0)") } + old
        coalescer.submit(feed(new))
        await coalescer.settled()
        guard case .animated(let first) = coalescer.tick() else {
            Issue.record("expected an animated chunk")
            return
        }
        #expect(first.update.inserts == (0..<10).map { ListIndexPath(item: $0, section: 0) })
        #expect(coalescer.shown[0].items.prefix(11).map(\.id) == Array(1000..<1010) + [0], "old posts pushed down, no gap")
        #expect(coalescer.tick() != nil, "one chunk per tick")
        let rest = await drain(coalescer, maxChanges: 10)
        #expect(rest == 48)
        #expect(coalescer.shown == feed(new))
        #expect(!coalescer.hasPendingWork)
        #expect(coalescer.tick() == nil)
    }

    @Test func snapshotsThatArriveTogetherCoalesceIntoOneDiff() async {
        let coalescer = UpdateCoalescer<SoleSection, Post>(initial: feed([Post(id: -1, title: "")]))
        for count in 1...50 {
            coalescer.submit(feed([Post(id: -1, title: "")] + (0..<count).map { Post(id: $0, title: "\($0)") }))
        }
        let updates = await drain(coalescer, maxChanges: 10)
        // The first snapshot may be diffed on its own before the rest arrive; the other 49
        // are one change: at most 1 + 5 chunks, not 50.
        #expect(updates <= 6)
        #expect(coalescer.shown[0].items.count == 51)
    }

    @Test func anEmptyListFillsAtOnce() async {
        let coalescer = UpdateCoalescer<SoleSection, Post>(initial: feed([]))
        coalescer.submit(feed((0..<200).map { Post(id: $0, title: "") }))
        await coalescer.settled()
        guard case .replaced = coalescer.tick() else {
            Issue.record("expected the first items at once")
            return
        }
        #expect(coalescer.shown[0].items.count == 200)
    }

    @Test func aHugeChangeIsReplacedWithoutAnimation() async {
        let coalescer = UpdateCoalescer(initial: feed([]), animationLimit: 100)
        coalescer.submit(feed((0..<5_000).map { Post(id: $0, title: "") }))
        await coalescer.settled()
        guard case .replaced = coalescer.tick() else {
            Issue.record("expected a replacement")
            return
        }
        #expect(coalescer.shown[0].items.count == 5_000)
        #expect(!coalescer.hasPendingWork)
    }

    @Test func anUnanimatedSnapshotDropsPendingChunksAndReplacesOnTheNextTick() async {
        let coalescer = UpdateCoalescer(initial: feed((0..<10).map { Post(id: $0, title: "") }), maxChangesPerTick: 10)
        coalescer.submit(feed((0..<100).map { Post(id: $0, title: "") }))
        await coalescer.settled()
        guard case .animated = coalescer.tick() else {
            Issue.record("expected the first chunk of ninety insertions")
            return
        }
        // Another query's list: no more chunks of the old change, the new list at once.
        let other = (500..<503).map { Post(id: $0, title: "other") }
        coalescer.submit(feed(other), animated: false)
        guard case .replaced = coalescer.tick() else {
            Issue.record("expected a replacement on the next tick")
            return
        }
        #expect(coalescer.shown[0].items == other)
        #expect(!coalescer.hasPendingWork)

        // A diff still running when an unanimated snapshot arrives is dropped; a change after
        // the replacement animates from it.
        coalescer.submit(feed([]))
        coalescer.submit(feed((0..<4).map { Post(id: $0, title: "") }), animated: false)
        coalescer.submit(feed((0..<5).map { Post(id: $0, title: "") }))
        await coalescer.settled()
        guard case .replaced = coalescer.tick() else {
            Issue.record("expected the replacement first")
            return
        }
        #expect(coalescer.shown[0].items.map(\.id) == Array(0..<4))
        #expect(await drain(coalescer, maxChanges: 10) == 1, "one inserted post, animated")
        #expect(coalescer.shown[0].items.map(\.id) == Array(0..<5))
    }

    @Test func randomSnapshotsInterleavedWithTicksEndAtTheNewest() async {
        let seed = randomizedTestSeed()
        print("UpdateCoalescer: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for trial in 0..<30 {
            let coalescer = UpdateCoalescer<SoleSection, Post>(initial: feed([Post(id: -1, title: "")]), maxChangesPerTick: Int.random(in: 1...12, using: &random))
            var current: [Post] = [Post(id: -1, title: "")]
            for _ in 0..<20 {
                for _ in 0..<Int.random(in: 0...6, using: &random) {
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: current.insert(Post(id: Int.random(in: 0..<80, using: &random), title: "n"), at: Int.random(in: 0...current.count, using: &random))
                    case 1 where !current.isEmpty: current.remove(at: Int.random(in: 0..<current.count, using: &random))
                    case 2 where !current.isEmpty: current[Int.random(in: 0..<current.count, using: &random)].title += "'"
                    case 3 where current.count > 1: current.swapAt(Int.random(in: 0..<current.count, using: &random), Int.random(in: 0..<current.count, using: &random))
                    default: break
                    }
                }
                coalescer.submit(feed(current))
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    if Bool.random(using: &random) { await coalescer.settled() }
                    let before = coalescer.shown
                    if case .animated(let chunk) = coalescer.tick() {
                        #expect((try? chunk.update.apply(to: before, target: coalescer.shown)) == coalescer.shown, "seed \(seed), trial \(trial)")
                    }
                }
            }
            await drain(coalescer, maxChanges: coalescer.maxChangesPerTick)
            #expect(coalescer.shown == feed(current), "seed \(seed), trial \(trial)")
        }
    }
}
