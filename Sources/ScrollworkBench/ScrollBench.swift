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
            and ContentPipeline against a loopback HTTP server with the same delays. --seeds runs \
            every trace on each seed given (1-20, or 3,7,9) and reports, per trace, Scrollwork's \
            blank_ratio over the best other strategy's on each seed: how many seeds are at a third \
            or less (at_third, share_at_third), the worst ratio and its seed, the median ratio, and \
            the most stale rows Scrollwork showed on any seed.
            """
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "The seed of the delays; the same seed gives the same figures.")
    var seed: UInt64 = 14

    @Option(help: "Every trace on each of these seeds (1-20, or 3,7,9-12): the share of seeds where Scrollwork's blank time is at most a third of the best other strategy's, and the worst.")
    var seeds: SeedList?

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
        if let seeds {
            var report = BenchReport(columns: SeedSweep.columns)
            for scrollTrace in traces {
                report.append(SeedSweep.row(trace: scrollTrace.name, await SeedSweep.runs(scrollTrace, seeds: seeds.values)))
            }
            report.print(json: options.json)
            return
        }
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

/// Seeds for `bench scroll --seeds`: ranges and single seeds, comma-separated (`1-20`, `3,7,9-12`).
struct SeedList: ExpressibleByArgument, Equatable {
    /// The seeds, in the order given.
    let values: [UInt64]

    init?(argument: String) {
        var values: [UInt64] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let low = UInt64(bounds[0]), let high = bounds.count == 2 ? UInt64(bounds[1]) : low,
                  low <= high, high - low < 10_000 else { return nil }
            values += Array(low...high)
        }
        guard !values.isEmpty, values.count <= 10_000 else { return nil }
        self.values = values
    }
}

/// `bench scroll --seeds`: Scrollwork's blank time over the best other strategy's, seed by seed.
enum SeedSweep {
    static let columns = ["trace", "seeds", "at_third", "share_at_third", "worst_ratio", "worst_seed", "median_ratio", "stale_max"]

    /// One seed of one trace: every strategy's blank ratio, and the stale rows Scrollwork showed.
    struct Run {
        var seed: UInt64
        var blankRatios: [LoadingStrategy: Double]
        var stale: Int

        /// Scrollwork's blank ratio over the best other strategy's: 0 when Scrollwork showed no
        /// blank, infinite when only the others showed none.
        var ratio: Double {
            let ours = blankRatios[.scrollwork] ?? 0
            let best = blankRatios.filter { $0.key != .scrollwork }.values.min() ?? 0
            if ours == 0 { return 0 }
            return best == 0 ? .infinity : ours / best
        }
    }

    /// Every strategy on `trace`, once per seed.
    @MainActor
    static func runs(_ trace: ScrollTrace, seeds: [UInt64]) async -> [Run] {
        var runs: [Run] = []
        for seed in seeds {
            var blank: [LoadingStrategy: Double] = [:]
            var stale = 0
            for strategy in LoadingStrategy.allCases {
                let metrics = await ScrollSimulation.run(trace, strategy: strategy, configuration: .init(seed: seed))
                blank[strategy] = metrics.blankRatio
                if strategy == .scrollwork { stale = metrics.stale }
            }
            runs.append(Run(seed: seed, blankRatios: blank, stale: stale))
        }
        return runs
    }

    /// The row of `trace` over `runs`.
    static func row(trace: String, _ runs: [Run]) -> [BenchValue] {
        let ratios = runs.map(\.ratio)
        // A third, give or take the rounding of the division.
        let atThird = ratios.filter { $0 <= (1.0 / 3) * (1 + 1e-9) }.count
        let worst = runs.max { $0.ratio < $1.ratio }
        let sorted = ratios.sorted()
        func ratio(_ value: Double?) -> BenchValue {
            guard let value else { return .missing }
            return value.isFinite ? .number(value) : .text("inf")
        }
        return [
            .text(trace), .number(Double(runs.count)), .number(Double(atThird)),
            .number(runs.isEmpty ? 0 : Double(atThird) / Double(runs.count)),
            ratio(worst?.ratio), worst.map { .number(Double($0.seed)) } ?? .missing,
            ratio(sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]),
            .number(Double(runs.map(\.stale).max() ?? 0)),
        ]
    }
}
