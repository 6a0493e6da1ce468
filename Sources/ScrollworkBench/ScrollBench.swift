import ArgumentParser
import ScrollSimulation

/// `scrollwork bench scroll`: the same scroll traces replayed against every loading strategy
/// in a simulation in virtual time, or, with `--real`, one trace in real time over loopback
/// HTTP beside its simulation.
struct ScrollBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll",
        abstract: "Replay scroll traces against every loading strategy: blank rows, time to a full screen, wasted and stale loads.",
        discussion: """
            A discrete-event simulation in virtual time drives the real ListViewport (physics, \
            ranges, landing prediction, display events, updates) at 60 Hz, with loads delayed by a \
            seeded log-normal (median 120 ms, 95th percentile 600 ms) plus a decode. Strategies: \
            naive, lifo-stack, pending-set, opqueue-4, load-when-stopped, scrollwork (the real \
            LoadingCore and loader front). Figures: blank_ratio (visible row-time showing a \
            placeholder while the list moves slower than a screen per second), blank_ratio_all, \
            visible_complete_ms_p50/p95 (from each stop to a full screen), wasted_ratio, stale, \
            loads, bytes, min_fling_ms. --real runs one trace in real time through ContentLoader \
            and ContentPipeline against a loopback HTTP server with the same delays.
            """
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "The seed of the delays; the same seed gives the same figures.")
    var seed: UInt64 = 14

    @Option(help: "Only the traces whose names contain this.")
    var trace: String?

    @Flag(help: "Run one trace (a 3.5 s fling over 500 rows, then rest) in real time over loopback HTTP beside its simulation.")
    var real = false

    static let columns = [
        "strategy", "trace", "blank_ratio", "blank_ratio_all", "visible_complete_ms_p50", "visible_complete_ms_p95",
        "wasted_ratio", "stale", "loads", "bytes", "min_fling_ms",
    ]

    @MainActor
    func run() async throws {
        if real {
            try await RealScrollCheck.run(seed: seed, json: options.json)
            return
        }
        let traces = ScrollTrace.standard.filter { trace == nil || $0.name.contains(trace!) }
        for scrollTrace in traces {
            let report = await Self.report(scrollTrace, seed: seed, withTrace: options.json)
            if !options.json { print("\n\(scrollTrace.name) (\(scrollTrace.rowCount) rows)") }
            report.print(json: options.json)
        }
    }

    /// Every strategy on `trace`: a row each, with a `trace` column for JSON.
    @MainActor
    static func report(_ trace: ScrollTrace, seed: UInt64, withTrace: Bool) async -> BenchReport {
        var report = BenchReport(columns: withTrace ? columns : columns.filter { $0 != "trace" })
        for strategy in LoadingStrategy.allCases {
            let metrics = await ScrollSimulation.run(trace, strategy: strategy, configuration: .init(seed: seed))
            report.append(row(strategy: strategy, trace: trace.name, metrics, withTrace: withTrace))
        }
        return report
    }

    static func row(strategy: LoadingStrategy, trace: String, _ metrics: ScrollMetrics, withTrace: Bool) -> [BenchValue] {
        var row: [BenchValue] = [.text(strategy.rawValue)]
        if withTrace { row.append(.text(trace)) }
        row += [
            .number(metrics.blankRatio), .number(metrics.blankRatioAll),
            BenchValue(metrics.visibleCompleteP50), BenchValue(metrics.visibleCompleteP95),
            .number(metrics.wastedRatio), .number(Double(metrics.stale)), .number(Double(metrics.loads)),
            .number(Double(metrics.bytes)), BenchValue(metrics.minFlingMilliseconds),
        ]
        return row
    }
}
