import ContentLoading
import SeededRandom
import Testing

/// The core's decisions, stepped in virtual time with no tasks.
@Suite struct LoadingCoreTests {
    private func model(loads: Int = 6, processing: Int = 2, order: QueueOrder = .lifo) -> CoreModel {
        CoreModel(configuration: .init(maxConcurrentLoads: loads, maxConcurrentProcessing: processing, order: order))
    }

    @Test func equalRequestsShareOneLoadAndOneJob() {
        var model = model()
        model.request(TestRequest(url: "u"))
        model.request(TestRequest(url: "u"), .prefetch)
        model.request(TestRequest(url: "u", size: 2))
        model.endLoad("u")
        #expect(Set(model.jobs.map(\.request)) == [TestRequest(url: "u"), TestRequest(url: "u", size: 2)])
        model.finishEverything()
        #expect(model.active.isEmpty)
        #expect(model.answered.count == 3)
        #expect(model.loadsStarted == ["u"])
        #expect(model.core.metrics.coalesced == 1)
        #expect(model.violations.isEmpty, "\(model.violations)")
    }

    @Test func aCancelledRunningLoadKeepsItsPlaceUntilItStops() {
        var model = model(loads: 1)
        let leaving = model.request(TestRequest(url: "a"))
        model.cancel(leaving)
        #expect(model.loads.map(\.cancelled) == [true])
        model.request(TestRequest(url: "b"))
        #expect(model.loads.map(\.key) == ["a"], "b waits until a has really stopped")
        model.endLoad("a", succeeding: false)
        #expect(model.loads.map(\.key) == ["b"])
        #expect(model.core.metrics.cancelledInFlight == 1)
        #expect(model.violations.isEmpty, "\(model.violations)")
    }

    @Test func aCancelledRunningJobKeepsItsPlaceUntilItStops() {
        var model = model(processing: 1)
        let leaving = model.request(TestRequest(url: "a"))
        model.endLoad("a")
        model.cancel(leaving)
        model.request(TestRequest(url: "b"))
        model.endLoad("b")
        #expect(model.jobs.map(\.request.url) == ["a"])
        model.endJob(at: 0)
        #expect(model.jobs.map(\.request.url) == ["b"])
        #expect(model.answered.isEmpty, "the cancelled job's value reaches nobody")
        #expect(model.violations.isEmpty, "\(model.violations)")
    }

    @Test func movingToTheFrontStartsWaitingWorkNextInItsTier() {
        for order in [QueueOrder.lifo, .fifo] {
            var model = model(loads: 1, order: order)
            model.request(TestRequest(url: "running"))
            let old = model.request(TestRequest(url: "old"))
            model.request(TestRequest(url: "middle"))
            let new = model.request(TestRequest(url: "new"))
            // The one that would otherwise start last in this order.
            model.moveToFront(order == .lifo ? old : new)
            model.endLoad("running")
            #expect(model.loadsStarted.last == (order == .lifo ? "old" : "new"), "\(order)")
            #expect(model.violations.isEmpty, "\(model.violations)")
        }
    }

    @Test func aLandingRequestStartsBetweenDisplayAndPrefetch() {
        var model = model(loads: 1)
        model.request(TestRequest(url: "running"))
        model.request(TestRequest(url: "prefetch"), .prefetch)
        model.request(TestRequest(url: "landing"), .landing)
        model.request(TestRequest(url: "display"), .display)
        model.request(TestRequest(url: "background"), .background)
        for key in ["running", "display", "landing", "prefetch"] { model.endLoad(key) }
        #expect(model.loadsStarted == ["running", "display", "landing", "prefetch", "background"])
    }

    @Test func aPrefetchRaisedAboveOtherWorkStartsFirst() {
        var model = model(loads: 1)
        model.request(TestRequest(url: "running"))
        let prefetch = model.request(TestRequest(url: "ahead"), .prefetch)
        model.request(TestRequest(url: "other"), .display)
        model.setPriority(.visible, of: prefetch)
        model.endLoad("running")
        #expect(model.loadsStarted.last == "ahead")
        model.setPriority(.background, of: prefetch)
        #expect(model.core.runningCounts.loads == 1, "lowering a running load's priority does not stop it")
    }

    @Test func theDiskIsReadFirstAndWrittenAfterALoad() {
        var model = CoreModel(configuration: .init(), disk: [:])
        model.request(TestRequest(url: "u"))
        #expect(model.loads.map(\.fromDisk) == [true])
        model.endLoad("u")
        #expect(model.loads.map(\.fromDisk) == [false], "a miss goes on to load")
        model.finishEverything()
        #expect(model.disk["u"] == Array("u".utf8))

        var next = CoreModel(configuration: .init(), disk: model.disk)
        next.request(TestRequest(url: "u", size: 2))
        next.endLoad("u")
        #expect(next.loads.isEmpty, "a hit needs no load")
        #expect(next.core.metrics.diskCacheHits == 1)
        next.finishEverything()
        #expect(next.answered.count == 1)
        #expect(next.violations.isEmpty, "\(next.violations)")
    }

    @Test func aMemoryHitIsDeliveredAtOnce() {
        let cache = MemoryCache<TestRequest, String>()
        var model = CoreModel(configuration: .init(), memoryCache: cache)
        model.request(TestRequest(url: "u"))
        model.finishEverything()
        let again = model.request(TestRequest(url: "u"))
        #expect(model.answered.contains(again))
        #expect(model.loads.isEmpty)
        #expect(model.core.metrics.memoryCacheHits == 1)
    }

    /// Random requests, priority changes, moves to the front, cancels, and work ending in any
    /// order with any outcome, under random limits, with and without caches: every promise of
    /// ``CoreModel`` holds at every step, and once all work ends, every consumer that did not
    /// cancel has been answered.
    @Test func keepsItsPromisesUnderRandomEvents() {
        let seed = randomizedTestSeed()
        print("LoadingCore property test: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for round in 0..<40 {
            var model = Self.randomModel(using: &random)
            for step in 0..<500 {
                Self.randomStep(&model, using: &random)
                if let violation = model.violations.first {
                    Issue.record("seed \(seed), round \(round), step \(step): \(violation)")
                    return
                }
            }
            model.finishEverything()
            #expect(model.violations.isEmpty, "seed \(seed), round \(round): \(model.violations)")
            #expect(model.active.isEmpty, "seed \(seed), round \(round): \(model.active.count) consumers never answered")
            #expect(model.core.isIdle, "seed \(seed), round \(round): work left behind")
        }
    }

    @Test func theSameEventsGiveTheSameEffects() {
        let seed = randomizedTestSeed()
        print("LoadingCore replay test: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        let logs = (0..<2).map { _ in
            var random = SeededGenerator(seed: seed)
            var model = Self.randomModel(using: &random)
            for _ in 0..<500 { Self.randomStep(&model, using: &random) }
            // Consumer identities differ between runs; the decisions must not.
            return model.log.map { $0.replacingOccurrences(of: #"ContentConsumerID\(value: \d+\)"#, with: "consumer", options: .regularExpression) }
        }
        #expect(logs[0] == logs[1], "seed \(seed)")
    }

    private static func randomModel(using random: inout SeededGenerator) -> CoreModel {
        let cache = Bool.random(using: &random) ? MemoryCache<TestRequest, String>(limits: .init(totalCost: 100, count: 3)) : nil
        return CoreModel(
            configuration: .init(
                maxConcurrentLoads: Int.random(in: 1...3, using: &random),
                maxConcurrentProcessing: Int.random(in: 1...2, using: &random),
                order: Bool.random(using: &random) ? .lifo : .fifo),
            memoryCache: cache,
            disk: Bool.random(using: &random) ? [:] : nil)
    }

    private static func randomStep(_ model: inout CoreModel, using random: inout SeededGenerator) {
        let priority = LoadPriority.allCases.randomElement(using: &random)!
        let someone = model.active.randomElement(using: &random)?.consumer
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1, 2:
            let request = TestRequest(url: "u\(Int.random(in: 0..<6, using: &random))", size: Int.random(in: 1...2, using: &random))
            model.request(request, priority)
        case 3:
            if let someone { model.setPriority(priority, of: someone) }
        case 4:
            if let someone { model.moveToFront(someone) }
        case 5, 6:
            if let someone { model.cancel(someone) }
        case 7, 8, 9:
            if !model.loads.isEmpty {
                model.endLoad(at: Int.random(in: model.loads.indices, using: &random), succeeding: Int.random(in: 0..<5, using: &random) > 0)
            }
        default:
            if !model.jobs.isEmpty {
                model.endJob(at: Int.random(in: model.jobs.indices, using: &random), succeeding: Int.random(in: 0..<5, using: &random) > 0)
            }
        }
    }
}
