import ContentLoading
import Testing

/// Hedged loads in the core, stepped in virtual time: a load a row on screen waits for too
/// long is asked for again, the first answer wins, a failure waits for the other load, and
/// nothing is delivered twice or to a consumer that left.
@Suite struct HedgeTests {
    typealias Core = LoadingCore<TestRequest, String>

    /// What a batch of effects asks for, in a form tests compare.
    struct Effects {
        var loads: [(WorkID, String)] = []
        var cancelled: [WorkID] = []
        var processed: [(WorkID, String)] = []
        var delivered: [(ContentConsumerID, Result<String, ContentError>)] = []
        var wake: Duration?

        init(_ effects: [Core.Effect]) {
            for effect in effects {
                switch effect {
                case let .load(id, key): loads.append((id, key))
                case let .cancelLoad(id): cancelled.append(id)
                case let .process(id, request, _): processed.append((id, request.url))
                case let .deliver(consumer, _, result, _): delivered.append((consumer, result))
                case let .wake(at: time): wake = time
                case .readDisk, .writeDisk, .cancelProcessing: break
                }
            }
        }
    }

    private func core(loads: Int = 6, hedging: LoadHedging? = .fixed(.milliseconds(300))) -> Core {
        Core(configuration: .init(maxConcurrentLoads: loads, maxConcurrentProcessing: 2, hedging: hedging))
    }

    private func data(_ url: String) -> Result<[UInt8], any Error> { .success(Array(url.utf8)) }

    @Test func aLoadStillRunningAfterTheDelayIsAskedForAgainAndTheHedgesAnswerWins() throws {
        var core = core()
        let row = ContentConsumerID()
        var effects = Effects(core.handle(.request(TestRequest(url: "a"), .visible, row), at: .zero))
        let first = try #require(effects.loads.first?.0)
        #expect(effects.wake == .milliseconds(300), "a wake-up when the load is due for its hedge")
        #expect(Effects(core.handle(.tick, at: .milliseconds(299))).loads.isEmpty, "not before")
        effects = Effects(core.handle(.tick, at: .milliseconds(300)))
        #expect(effects.loads.map(\.1) == ["a"], "the same data, asked for again")
        let hedge = try #require(effects.loads.first?.0)
        #expect(hedge != first)
        #expect(Effects(core.handle(.tick, at: .milliseconds(900))).loads.isEmpty, "a hedge is never hedged")

        // The hedge answers first: the data goes on, the first load is stopped.
        effects = Effects(core.handle(.loaded(hedge, data("a")), at: .milliseconds(420)))
        #expect(effects.cancelled == [first])
        #expect(effects.processed.map(\.1) == ["a"])
        let job = try #require(effects.processed.first?.0)
        // The stopped load's report changes nothing.
        effects = Effects(core.handle(.loaded(first, .failure(CancellationError())), at: .milliseconds(430)))
        #expect(effects.loads.isEmpty && effects.processed.isEmpty && effects.delivered.isEmpty)
        effects = Effects(core.handle(.processed(job, .success("a@1")), at: .milliseconds(440)))
        #expect(effects.delivered.count == 1)
        #expect(core.metrics.hedged == 1 && core.metrics.hedgesWon == 1)
        #expect(core.isIdle)
    }

    @Test func theFirstLoadAnsweringFirstStopsItsHedge() throws {
        var core = core()
        let row = ContentConsumerID()
        let first = try #require(Effects(core.handle(.request(TestRequest(url: "a"), .display, row), at: .zero)).loads.first?.0)
        let hedge = try #require(Effects(core.handle(.tick, at: .milliseconds(350))).loads.first?.0)
        let effects = Effects(core.handle(.loaded(first, data("a")), at: .milliseconds(360)))
        #expect(effects.cancelled == [hedge])
        #expect(effects.processed.map(\.1) == ["a"])
        #expect(Effects(core.handle(.loaded(hedge, data("a")), at: .milliseconds(370))).processed.isEmpty, "the late hedge is dropped")
        #expect(core.metrics.hedged == 1 && core.metrics.hedgesWon == 0)
        #expect(core.runningCounts.loads == 0)
    }

    @Test func aFailureWaitsForTheOtherLoadAndBothFailingFailOnce() throws {
        var core = core()
        let (one, two) = (ContentConsumerID(), ContentConsumerID())
        // a: the first load fails, the hedge brings the data.
        let firstA = try #require(Effects(core.handle(.request(TestRequest(url: "a"), .visible, one), at: .zero)).loads.first?.0)
        let hedgeA = try #require(Effects(core.handle(.tick, at: .milliseconds(300))).loads.first?.0)
        var effects = Effects(core.handle(.loaded(firstA, .failure(LoadFailure())), at: .milliseconds(310)))
        #expect(effects.delivered.isEmpty && effects.processed.isEmpty, "the hedge may still answer")
        effects = Effects(core.handle(.loaded(hedgeA, data("a")), at: .milliseconds(320)))
        #expect(effects.processed.map(\.1) == ["a"])
        #expect(effects.cancelled.isEmpty)

        // b: both fail, and the consumer hears it once.
        let firstB = try #require(Effects(core.handle(.request(TestRequest(url: "b"), .visible, two), at: .seconds(1))).loads.first?.0)
        let hedgeB = try #require(Effects(core.handle(.tick, at: .milliseconds(1_300))).loads.first?.0)
        #expect(Effects(core.handle(.loaded(hedgeB, .failure(LoadFailure())), at: .milliseconds(1_310))).delivered.isEmpty)
        effects = Effects(core.handle(.loaded(firstB, .failure(LoadFailure())), at: .milliseconds(1_320)))
        #expect(effects.delivered.count == 1)
        if case .failure(.loadingFailed) = effects.delivered.first?.1 {} else { Issue.record("b fails: \(effects.delivered)") }
    }

    @Test func prefetchesAreNotHedgedAndWorkAbandonedStopsBothLoads() throws {
        var core = core()
        let (ahead, row) = (ContentConsumerID(), ContentConsumerID())
        var effects = Effects(core.handle(.request(TestRequest(url: "p"), .prefetch, ahead), at: .zero))
        #expect(effects.wake == nil, "a prefetch is never hedged")
        #expect(Effects(core.handle(.tick, at: .seconds(5))).loads.isEmpty)

        let first = try #require(Effects(core.handle(.request(TestRequest(url: "v"), .visible, row), at: .seconds(5))).loads.first?.0)
        let hedge = try #require(Effects(core.handle(.tick, at: .milliseconds(5_300))).loads.first?.0)
        // The row left the screen: both loads stop, and their reports free their places.
        effects = Effects(core.handle(.cancel(TestRequest(url: "v"), row), at: .milliseconds(5_310)))
        #expect(Set(effects.cancelled) == [first, hedge])
        _ = core.handle(.loaded(first, .failure(CancellationError())), at: .milliseconds(5_320))
        _ = core.handle(.loaded(hedge, .failure(CancellationError())), at: .milliseconds(5_330))
        #expect(core.runningCounts.loads == 1, "the prefetch alone")
        #expect(Effects(core.handle(.tick, at: .seconds(9))).loads.isEmpty)
    }

    @Test func aHedgeWaitsForAPlaceAndLeavesTheQueueWhenTheFirstAnswers() throws {
        var core = core(loads: 1)
        let row = ContentConsumerID()
        let first = try #require(Effects(core.handle(.request(TestRequest(url: "a"), .visible, row), at: .zero)).loads.first?.0)
        #expect(Effects(core.handle(.tick, at: .milliseconds(400))).loads.isEmpty, "no place for the hedge")
        #expect(core.waitingCounts.loads == 1)
        let effects = Effects(core.handle(.loaded(first, data("a")), at: .milliseconds(500)))
        #expect(effects.loads.isEmpty && effects.cancelled.isEmpty, "the waiting hedge leaves the queue, never started")
        #expect(core.waitingCounts.loads == 0)
        #expect(core.metrics.hedged == 0 && core.metrics.cancelledBeforeStart == 1)
    }

    /// The delay is the 80th percentile of the last loads' times: a fast network hedges
    /// early, a slow one late, never before the minimum.
    @Test func theDelayFollowsTheLastLoadsTimes() throws {
        var hedging = LoadHedging()
        hedging.window = 10
        var core = core(hedging: hedging)
        #expect(core.hedgeDelay == .milliseconds(250), "until ten loads have ended")
        var now = Duration.zero
        func load(_ url: String, taking time: Duration) throws {
            let id = try #require(Effects(core.handle(.request(TestRequest(url: url), .prefetch, ContentConsumerID()), at: now)).loads.first?.0)
            now += time
            _ = core.handle(.loaded(id, data(url)), at: now)
        }
        // Loads of 10, 20, ... 100 ms: four in five end within 80 ms.
        for index in 1...10 { try load("slow\(index)", taking: .milliseconds(10 * index)) }
        #expect(core.hedgeDelay == .milliseconds(80))
        // Ten loads of 5 ms: the delay stops at the minimum.
        for index in 1...10 { try load("fast\(index)", taking: .milliseconds(5)) }
        #expect(core.hedgeDelay == .milliseconds(50))
        // A load on screen now is hedged after 50 ms.
        #expect(Effects(core.handle(.request(TestRequest(url: "v"), .visible, ContentConsumerID()), at: now)).loads.map(\.1) == ["v"])
        #expect(Effects(core.handle(.tick, at: now + .milliseconds(50))).loads.map(\.1) == ["v"])
    }

    /// A hedge that wins counts what the row waited, from its first load: counting the hedge
    /// alone would lower the delay at each win and hedge more and more.
    @Test func aWinningHedgeCountsTheRowsWholeWait() throws {
        var hedging = LoadHedging.fixed(.milliseconds(250))
        hedging.window = 1
        var core = core(hedging: hedging)
        _ = try #require(Effects(core.handle(.request(TestRequest(url: "a"), .visible, ContentConsumerID()), at: .zero)).loads.first)
        let hedge = try #require(Effects(core.handle(.tick, at: .milliseconds(250))).loads.first?.0)
        _ = core.handle(.loaded(hedge, data("a")), at: .milliseconds(300))
        #expect(core.hedgeDelay == .milliseconds(300), "the row waited 300 ms, the hedge 50")
    }

    /// A hedge still waiting for a place when its row leaves the screen (its request lowered to
    /// a prefetch) never starts; the first load goes on.
    @Test func aWaitingHedgeLeavesWhenItsRowIsNoLongerOnScreen() throws {
        var core = core(loads: 1)
        let row = ContentConsumerID()
        let first = try #require(Effects(core.handle(.request(TestRequest(url: "a"), .visible, row), at: .zero)).loads.first?.0)
        _ = core.handle(.tick, at: .milliseconds(400))
        #expect(core.waitingCounts.loads == 1, "the hedge waits for a place")
        _ = core.handle(.setPriority(TestRequest(url: "a"), .prefetch, row), at: .milliseconds(410))
        #expect(core.waitingCounts.loads == 0 && core.metrics.cancelledBeforeStart == 1)
        let effects = Effects(core.handle(.loaded(first, data("a")), at: .milliseconds(500)))
        #expect(effects.processed.map(\.1) == ["a"] && effects.loads.isEmpty)
        #expect(core.metrics.hedged == 0)
    }

    @Test func withoutADelayNothingIsHedged() {
        var core = core(hedging: nil)
        let effects = Effects(core.handle(.request(TestRequest(url: "a"), .visible, ContentConsumerID()), at: .zero))
        #expect(effects.wake == nil)
        #expect(Effects(core.handle(.tick, at: .seconds(10))).loads.isEmpty)
    }
}
