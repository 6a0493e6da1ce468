import ScrollSimulation
import SeededRandom
import Testing

@MainActor
@Suite struct ScrollSimulationTests {
    private func trace(_ name: String) -> ScrollTrace {
        ScrollTrace.standard.first { $0.name == name }!
    }

    private func run(_ name: String, _ strategy: LoadingStrategy, seed: UInt64,
                     change: (inout ScrollSimulation.Configuration) -> Void = { _ in }) async -> ScrollMetrics {
        var configuration = ScrollSimulation.Configuration(seed: seed)
        change(&configuration)
        return await ScrollSimulation.run(trace(name), strategy: strategy, configuration: configuration)
    }

    /// The least blank time of the strategies apps ship, on `name` with `seed`.
    private func bestBaseline(_ name: String, seed: UInt64) async -> Double {
        var best = Double.infinity
        for strategy in LoadingStrategy.allCases where strategy != .scrollwork {
            best = min(best, await run(name, strategy, seed: seed).blankRatio)
        }
        return best
    }

    @Test func aRunReplaysExactlyForItsSeed() async {
        let seed = randomizedTestSeed()
        print("ScrollSimulationTests seed \(seed) (SCROLLWORK_SEED replays it)")
        for strategy in [LoadingStrategy.scrollwork, .naive, .pendingSet] {
            let first = await run("fling-stop-reverse", strategy, seed: seed)
            let second = await run("fling-stop-reverse", strategy, seed: seed)
            #expect(first == second, "\(strategy) with seed \(seed)")
            #expect(first.loads > 0)
        }
    }

    @Test func naiveLoadsEveryDisplayedRowAndOnlyThose() async {
        let seed = randomizedTestSeed()
        print("ScrollSimulationTests seed \(seed) (SCROLLWORK_SEED replays it)")
        let metrics = await run("slow-drag", .naive, seed: seed)
        #expect(metrics.displays > 20, "the drag passes over more than two screens")
        #expect(metrics.loads == metrics.displays)
    }

    @Test func aResultForAReusedRowIsStaleOnlyForNaive() async {
        let seed = randomizedTestSeed()
        print("ScrollSimulationTests seed \(seed) (SCROLLWORK_SEED replays it)")
        // 75 rows pass in a few hundred milliseconds: views are reused while loads are out.
        let naive = await run("fling-fast", .naive, seed: seed)
        #expect(naive.stale > 0)
        for strategy in [LoadingStrategy.lifoStack, .opqueue4, .scrollwork] {
            #expect(await run("fling-fast", strategy, seed: seed).stale == 0, "\(strategy)")
        }
    }

    @Test func scrollworkNeverShowsAStaleValue() async {
        let seed = randomizedTestSeed()
        print("ScrollSimulationTests seed \(seed) (SCROLLWORK_SEED replays it)")
        for trace in ScrollTrace.standard where trace.rowCount <= 500 {
            let metrics = await ScrollSimulation.run(trace, strategy: .scrollwork, configuration: .init(seed: seed))
            #expect(metrics.stale == 0, "\(trace.name)")
            #expect(metrics.loads > 0, "\(trace.name)")
        }
    }

    @Test func theQueuesKeepTheirWidthsAndNaiveHasNone() async {
        let seed = randomizedTestSeed()
        print("ScrollSimulationTests seed \(seed) (SCROLLWORK_SEED replays it)")
        #expect(await run("fling-fast", .opqueue4, seed: seed).peakConcurrentLoads == 4)
        #expect(await run("fling-fast", .lifoStack, seed: seed).peakConcurrentLoads == 6)
        #expect(await run("fling-fast", .scrollwork, seed: seed).peakConcurrentLoads <= 6)
        #expect(await run("fling-fast", .naive, seed: seed).peakConcurrentLoads > 6)
    }

    @Test func loadWhenStoppedLoadsOnlyAtRest() async {
        let seed = randomizedTestSeed()
        print("ScrollSimulationTests seed \(seed) (SCROLLWORK_SEED replays it)")
        let metrics = await run("fling-medium", .loadWhenStopped, seed: seed)
        #expect(metrics.loads > 0)
        #expect(metrics.loadsStartedWhileMoving == 0)
        #expect(await run("fling-medium", .naive, seed: seed).loadsStartedWhileMoving > 0)
    }

    /// Seed 6 draws a second load of 1.2 s for a row at the top (its first, at launch, was
    /// cancelled when the list moved away): the jump back to the top waits for it unless the
    /// load is hedged.
    @Test func aSlowLoadOnScreenIsHedgedAfterAJumpToTheTop() async {
        let hedged = await run("jump-to-top", .scrollwork, seed: 6)
        let unhedged = await run("jump-to-top", .scrollwork, seed: 6) { $0.hedging = nil }
        #expect(hedged.visibleCompleteP95! < 600 && unhedged.visibleCompleteP95! > 1_000, "\(hedged) \(unhedged)")
        #expect(hedged.loads > unhedged.loads, "a hedge is a load")
        #expect(hedged.blankRatio * 3 <= (await bestBaseline("jump-to-top", seed: 6)))
    }

    /// Seed 11: a fling stopped by a touch rests on rows whose loads began as they came into
    /// view, unless the display range reached them before.
    @Test func aFlingStoppedByATouchRestsOnRowsThatBeganLoadingBeforeTheyShowed() async {
        let lead = await run("fling-stop-reverse", .scrollwork, seed: 11)
        let noLead = await run("fling-stop-reverse", .scrollwork, seed: 11) { $0.ranges.glideDisplayLead = .zero }
        let best = await bestBaseline("fling-stop-reverse", seed: 11)
        #expect(lead.blankRatio * 3 <= best, "\(lead.blankRatio) against \(best)")
        #expect(noLead.blankRatio * 3 > best)
    }

    @Test func theLandingRangeFillsTheScreenBeforeALongFlingStops() async {
        // The bench's seed: a fixed draw, so the comparison is not left to chance.
        let scrollwork = await run("fling-medium", .scrollwork, seed: 14)
        let naive = await run("fling-medium", .naive, seed: 14)
        #expect(scrollwork.visibleCompleteMilliseconds.count == 1, "one stop")
        #expect(scrollwork.visibleCompleteP95 == 0, "the landing rows arrived during the glide")
        #expect(naive.visibleCompleteP95! > 50)
        #expect(scrollwork.blankRatio * 3 <= naive.blankRatio)
        #expect(scrollwork.minFlingMilliseconds! > 3_000)
    }
}

@Suite struct LatencyModelTests {
    @Test func drawsHaveTheIssuesMedianAndTail() {
        let seed = randomizedTestSeed()
        print("LatencyModelTests seed \(seed) (SCROLLWORK_SEED replays it)")
        let model = LatencyModel(seed: seed)
        let draws = (0..<20_000).map { LatencyModel.milliseconds(model.latency(item: $0 / 2, attempt: 1 + $0 % 2)) }
        let median = ScrollMetrics.percentile(0.5, of: draws)!
        let tail = ScrollMetrics.percentile(0.95, of: draws)!
        #expect(abs(median - 120) < 120 * 0.05, "median \(median)")
        #expect(abs(tail - 600) < 600 * 0.07, "p95 \(tail)")
        #expect(model.latency(item: 7, attempt: 2) == LatencyModel(seed: seed).latency(item: 7, attempt: 2))
        #expect(model.latency(item: 7, attempt: 1) != model.latency(item: 7, attempt: 2))
    }
}

@Suite struct ScrollMetricsRecorderTests {
    private func rows(_ filled: [Bool], top: Double = 0) -> [ScrollMetricsRecorder.VisibleRow] {
        filled.enumerated().map { .init(item: $0.offset, top: top + Double($0.offset) * 80, isFilled: $0.element) }
    }

    @Test func aStopCountsFromTheFrameThatReachedTheRestingPlaceUntilTheScreenIsFull() {
        var recorder = ScrollMetricsRecorder(viewportHeight: 800)
        // A glide ends in the second frame, a screen further down, with one row blank; the
        // row is filled two frames later. Frames are 10 ms apart.
        recorder.record(at: .zero, rows: rows([true, true]), isAtRest: false, isGliding: true)
        recorder.record(at: .milliseconds(10), rows: rows([true, false], top: -800), isAtRest: true, isGliding: false)
        recorder.record(at: .milliseconds(20), rows: rows([true, false], top: -800), isAtRest: true, isGliding: false)
        recorder.record(at: .milliseconds(30), rows: rows([true, true], top: -800), isAtRest: true, isGliding: false)
        recorder.finish(at: .milliseconds(40))
        #expect(recorder.visibleCompleteMilliseconds == [20])
        #expect(recorder.metrics(wastedRatio: 0, stale: 0, loads: 0, bytes: 0).minFlingMilliseconds == 10, "the glide lasted one frame")
        let (readable, all) = recorder.blankRatios
        // Four frames of two rows, two blank row-frames: a quarter. The second frame moved a
        // screen in 10 ms and is not readable; the first (no motion known) and the last two
        // are: one blank row-frame of six.
        #expect(all == 0.25)
        #expect(abs(readable - 1.0 / 6.0) < 1e-12)
    }

    @Test func aScreenFullWhenTheListStopsCountsZero() {
        var recorder = ScrollMetricsRecorder(viewportHeight: 800)
        recorder.record(at: .zero, rows: rows([true, true]), isAtRest: false, isGliding: true)
        recorder.record(at: .milliseconds(10), rows: rows([true, true], top: -40), isAtRest: true, isGliding: false)
        recorder.record(at: .milliseconds(20), rows: rows([true, true], top: -40), isAtRest: true, isGliding: false)
        // Moving again and stopping with a blank row, never filled before the end.
        recorder.record(at: .milliseconds(30), rows: rows([true, false], top: -60), isAtRest: false, isGliding: false)
        recorder.record(at: .milliseconds(40), rows: rows([true, false], top: -60), isAtRest: true, isGliding: false)
        recorder.finish(at: .milliseconds(100))
        #expect(recorder.visibleCompleteMilliseconds == [0, 70])
        #expect(recorder.blankRatios.all > 0)
    }
}
