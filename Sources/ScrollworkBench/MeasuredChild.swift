import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path` with `arguments` in `environment`; its input and errors go to `/dev/null`,
    /// its output too unless `keepingOutput`. Kept, the output goes through a file, not a pipe:
    /// a program that leaves a server running (a PHP server's script) would hold a pipe open.
    static func run(_ path: String, _ arguments: [String], environment: [String: String], keepingOutput: Bool = false) throws -> MeasuredChild {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-output-\(UUID().uuidString)").path
        defer { if keepingOutput { try? FileManager.default.removeItem(atPath: outputFile) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, keepingOutput ? outputFile : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { envp.forEach { free($0) } }
        let started = ContinuousClock.now
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
        // Linux counts ru_maxrss in kilobytes, macOS in bytes.
        #if os(Linux)
        let peak = usage.ru_maxrss * 1024
        #else
        let peak = usage.ru_maxrss
        #endif
        let elapsed = (ContinuousClock.now - started).milliseconds
        let output = keepingOutput ? ((try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "") : ""
        return MeasuredChild(status: status, milliseconds: elapsed, peakBytes: peak, output: output)
    }
}
