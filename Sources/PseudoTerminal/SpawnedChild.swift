#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program started with `posix_spawn`, with every signal at its default action and none
/// blocked (``SpawnAttributes``), its standard input `/dev/null` and its output in a file: a
/// server it leaves running (a PHP server's script) would keep a pipe open, and reading to its
/// end would never end. The benchmarks' whole-process cases and the tests that drive real
/// programs both start children so.
package struct SpawnedChild: Sendable {
    /// Why a program could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// How a child ended.
    package struct Ending: Sendable {
        /// The wait status, as `waitpid` reports it.
        package var status: Int32
        /// The child's peak resident memory (`ru_maxrss`).
        package var peakBytes: Int
    }

    /// Its process id.
    package let pid: pid_t

    /// Starts `path` with `arguments` in `environment`. Its standard output goes to
    /// `outputPath` (created, mode 0600), else to `/dev/null`; its standard error to the same
    /// place if `errorsWithOutput`, else to `/dev/null`.
    package static func start(_ path: String, _ arguments: [String], environment: [String: String],
                              outputPath: String?, errorsWithOutput: Bool) throws(Failure) -> SpawnedChild {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if errorsWithOutput {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let spawning = SpawnAttributes()
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = SanitizerOptions.forwarded(into: environment).map { strdup("\($0)=\($1)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &spawning.attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(path): \(String(cString: strerror(spawned)))") }
        return SpawnedChild(pid: child)
    }

    /// Sends it `signal` (`SIGKILL` to kill it where it stands).
    package func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for it to end, blocking the calling thread (`wait4`): its status and peak memory.
    /// Call it once.
    package func wait() -> Ending {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        // Linux counts ru_maxrss in kilobytes, macOS in bytes.
        #if os(Linux)
        return Ending(status: status, peakBytes: usage.ru_maxrss * 1024)
        #else
        return Ending(status: status, peakBytes: usage.ru_maxrss)
        #endif
    }
}
