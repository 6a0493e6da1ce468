import Foundation
import PseudoTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to its end, for tests that drive real programs (tmux, a PHP server's script).
///
/// The program is spawned with no signal blocked or ignored, whatever this test process blocks
/// (a server it starts passes its mask on to its own children, which must end when told to), and
/// its output goes to a file, not a pipe: a server it leaves running would keep a pipe open, and
/// reading to its end would never end.
public enum SpawnedProgram {
    /// What a program did: its exit status (as `waitpid` reports it) and what it wrote.
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
    }

    /// Why a program could not be run.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A program started and not yet waited for.
    public struct Running: Sendable {
        let child: SpawnedChild
        let outputPath: String

        /// Its process id.
        public var pid: pid_t { child.pid }

        /// Sends it `signal` (`SIGKILL` to kill it where it stands).
        public func send(_ signal: Int32) {
            child.send(signal)
        }

        /// Waits for it to end, on a thread of its own: an async test that blocked in `waitpid`
        /// would hold one of the few threads every test of the process shares, and the tests
        /// waiting for them (the one that is to kill this program among them) would stall.
        public func exit() async -> Result {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: wait()) }
            }
        }

        /// Waits for it to end, blocking the calling thread: its status and what it wrote.
        public func wait() -> Result {
            let status = child.wait().status
            return Result(status: status, output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
        }
    }

    /// Runs `path` with `arguments` in `environment`, its standard input `/dev/null`; its output
    /// is kept in `outputPath` and returned, with its standard error too if `keepingErrors`.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String],
                           outputPath: String, keepingErrors: Bool = true) throws(Failure) -> Result {
        try start(path, arguments, environment: environment, outputPath: outputPath, keepingErrors: keepingErrors).wait()
    }

    /// Starts `path` as ``run(_:_:environment:outputPath:keepingErrors:)`` does, without waiting.
    public static func start(_ path: String, _ arguments: [String], environment: [String: String],
                             outputPath: String, keepingErrors: Bool = true) throws(Failure) -> Running {
        do {
            let child = try SpawnedChild.start(path, arguments, environment: environment, outputPath: outputPath, errorsWithOutput: keepingErrors)
            return Running(child: child, outputPath: outputPath)
        } catch {
            throw Failure(description: error.description)
        }
    }
}
