import Foundation
import ScrollSimulation
import Testing
@testable import ScrollworkApp
@testable import ScrollworkBench

/// `bench scroll --json`: one object per strategy and trace, with issue 14's keys.
@MainActor
@Suite struct ScrollBenchTests {
    @Test func jsonHasOneObjectPerStrategyWithTheIssuesKeys() async throws {
        let trace = try #require(ScrollTrace.standard.first { $0.name == "fling-slow" })
        let lines = await ScrollBench.report(trace, seed: 14, withTrace: true).jsonLines()
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["strategy"] as? String } == LoadingStrategy.allCases.map(\.rawValue))
        #expect(objects.allSatisfy { $0["trace"] as? String == "fling-slow" })
        let keys: Set<String> = [
            "strategy", "trace", "blank_ratio", "blank_ratio_all", "visible_complete_ms_p50", "visible_complete_ms_p95",
            "wasted_ratio", "stale", "loads", "bytes", "min_fling_ms",
        ]
        #expect(objects.allSatisfy { Set($0.keys) == keys })
        #expect(objects.allSatisfy { ($0["min_fling_ms"] as? Double ?? 0) > 2_000 }, "a fling of 2.85 s")
    }

    @Test func aTraceWithoutAFlingHasANullShortestFling() async throws {
        let trace = try #require(ScrollTrace.standard.first { $0.name == "slow-drag" })
        let lines = await ScrollBench.report(trace, seed: 14, withTrace: true).jsonLines()
        #expect(lines.allSatisfy { $0.contains("\"min_fling_ms\": null") })
    }

    @Test func seedsAreRangesAndSingleSeeds() {
        #expect(SeedList(argument: "1-3,7")?.values == [1, 2, 3, 7])
        #expect(SeedList(argument: "14")?.values == [14])
        for bad in ["", "3-1", "x", "1-", "-4", "1,,2", "1-2-3", "0-99999"] {
            #expect(SeedList(argument: bad) == nil, "\(bad)")
        }
    }

    @Test func aSeedsRatioIsOursOverTheBestOtherStrategysAndTheRowSumsThemUp() {
        func run(_ seed: UInt64, ours: Double, others: [Double], stale: Int = 0) -> SeedSweep.Run {
            var ratios: [LoadingStrategy: Double] = [.scrollwork: ours]
            for (strategy, blank) in zip(LoadingStrategy.allCases.filter { $0 != .scrollwork }, others) { ratios[strategy] = blank }
            return SeedSweep.Run(seed: seed, blankRatios: ratios, stale: stale)
        }
        let runs = [
            run(1, ours: 0.01, others: [0.5, 0.06, 0.2]),      // 1/6
            run(2, ours: 0.03, others: [0.05, 0.9]),           // 0.6: the worst
            run(3, ours: 0, others: [0, 0.1], stale: 2),       // none blank: 0
            run(4, ours: 0.02, others: [0.06]),                // exactly a third
        ]
        #expect(abs(runs[0].ratio - 1.0 / 6) < 1e-12)
        #expect(run(5, ours: 0.01, others: [0, 0.2]).ratio == .infinity, "blank where another strategy had none")
        let row = SeedSweep.row(trace: "t", runs)
        #expect(Array(row[0...3]) == [.text("t"), .number(4), .number(3), .number(0.75)])
        guard case .number(let worst) = row[4] else { Issue.record("\(row)"); return }
        #expect(abs(worst - 0.6) < 1e-12)
        #expect(row[5] == .number(2))
        #expect(row[7] == .number(2), "the most stale rows on any seed")
    }

    @Test func theSweepOfOneSeedAgreesWithThatSeedsReport() async throws {
        let trace = try #require(ScrollTrace.standard.first { $0.name == "fling-slow" })
        let sweep = await SeedSweep.runs(trace, seeds: [14])
        let report = await ScrollBench.report(trace, seed: 14, withTrace: false)
        let blank = Dictionary(uniqueKeysWithValues: report.rows.map { row -> (String, Double) in
            guard case .text(let name) = row[0], case .number(let ratio) = row[1] else { return ("", -1) }
            return (name, ratio)
        })
        #expect(sweep.first?.blankRatios.mapKeys(\.rawValue) == blank)
    }
}

private extension Dictionary {
    func mapKeys<T: Hashable>(_ transform: (Key) -> T) -> [T: Value] {
        Dictionary<T, Value>(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
