import Foundation
import PseudoTerminal

/// A program run to its end as a child process, measured as the user who runs it would see it:
/// its wall time and its own peak resident memory (`wait4`'s `ru_maxrss`), apart from this
/// process's.
///
/// It is started through `scrollwork-measure` (``BenchExecutables/measure``), a small C
/// program that spawns it and reports both: Linux counts the resident memory of the process a
/// child was spawned from in the child's `ru_maxrss`, so a benchmark holding 120 MB measured
/// every child it spawned itself at 120 MB or more.
struct MeasuredChild {
    /// The exit status, as `waitpid` reports it.
    var status: Int32
    /// From spawn to exit.
    var milliseconds: Double
    /// The child's peak resident memory.
    var peakBytes: Int
    /// What it wrote to its standard output, when it was kept.
    var output = ""

    /// Runs `path` with `arguments` in `environment` (``SpawnedChild``); its errors go to
    /// `/dev/null`, its output too unless `keepingOutput`.
    static func run(_ path: String, _ arguments: [String], environment: [String: String], keepingOutput: Bool = false) throws -> MeasuredChild {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-\(UUID().uuidString)").path
        let (outputFile, resultFile) = (scratch + "-output", scratch + "-result")
        defer {
            try? FileManager.default.removeItem(atPath: outputFile)
            try? FileManager.default.removeItem(atPath: resultFile)
        }
        let measure = try BenchExecutables.measure
        let helper = try SpawnedChild.start(measure, [resultFile, path] + arguments, environment: environment,
                                            outputPath: keepingOutput ? outputFile : nil, errorsWithOutput: false).wait()
        let fields = ((try? String(contentsOfFile: resultFile, encoding: .utf8)) ?? "").split(separator: " ").map {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard helper.status == 0, fields.count == 3, let status = fields[0], let kilobytes = fields[1], let nanoseconds = fields[2] else {
            throw BenchExecutables.Failure(description: "scrollwork-measure could not run \(path) (wait status \(helper.status))")
        }
        let output = keepingOutput ? ((try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "") : ""
        return MeasuredChild(status: Int32(status), milliseconds: Double(nanoseconds) / 1_000_000, peakBytes: kilobytes * 1024, output: output)
    }
}
