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
}
