import Foundation
import PseudoTerminal

/// A program run to its end as a child process, measured as the user who runs it would see it:
/// its wall time and its own peak resident memory (`wait4`'s `ru_maxrss`), apart from this
/// process's.
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
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-output-\(UUID().uuidString)").path
        defer { if keepingOutput { try? FileManager.default.removeItem(atPath: outputFile) } }
        let started = ContinuousClock.now
        let ending = try SpawnedChild.start(path, arguments, environment: environment, outputPath: keepingOutput ? outputFile : nil,
                                            errorsWithOutput: false).wait()
        let elapsed = (ContinuousClock.now - started).milliseconds
        let output = keepingOutput ? ((try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "") : ""
        return MeasuredChild(status: ending.status, milliseconds: elapsed, peakBytes: ending.peakBytes, output: output)
    }
}
