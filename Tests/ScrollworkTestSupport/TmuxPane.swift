import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pane of a real tmux, for tests of what a terminal makes of the bytes we write: a server
/// of its own (on a socket in a scratch directory), one detached pane of a given size whose
/// terminal the test writes to, and its screen read back with `capture-pane`.
///
/// The pane runs `sleep`, which reads nothing, so the pane's terminal answers the test alone:
/// ``waitUntilShown()`` asks tmux where its cursor is (DSR) and waits for the answer, which
/// tmux gives only once it has read everything written before the question.
public final class TmuxPane {
    /// tmux on this machine, if there is one.
    public static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"])
            .map { URL(fileURLWithPath: $0).appendingPathComponent("tmux") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private let tmux: URL
    private let scratch = ScratchDirectory("scrollwork-tmux")
    /// The server's socket, as `tmux -S` and the `TMUX` variable name it.
    public let socket: String
    /// The pane's terminal, opened by the test: raw, without echo.
    private var terminal: Int32 = -1

    public struct Failed: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// A new pane of `columns` × `rows`, in a UTF-8 locale.
    public init(columns: Int, rows: Int) throws {
        guard let tmux = Self.executable else { throw Failed("no tmux") }
        self.tmux = tmux
        socket = scratch.path("s").path
        // `sleep` bounds how long a server outlives a test that dies before it can stop it.
        try run(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "exec sleep 600"])
        let path = try run(["display-message", "-p", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        terminal = open(path, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw Failed("cannot open the pane's terminal \(path)") }
        var modes = termios()
        tcgetattr(terminal, &modes)
        cfmakeraw(&modes)
        tcsetattr(terminal, TCSANOW, &modes)
    }

    deinit {
        close(terminal)
        _ = try? run(["kill-server"])
    }

    /// Writes `bytes` to the pane, as a program in it would.
    public func write(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { writeBytes(terminal, $0.baseAddress, $0.count) }
            guard count > 0 || errno == EINTR else { throw Failed("write to the pane: errno \(errno)") }
            written += max(count, 0)
        }
    }

    /// Waits until tmux has read and drawn everything written so far. The limit only keeps a
    /// broken tmux from hanging the tests; nothing is timed.
    public func waitUntilShown() throws {
        try write(Array("\u{1B}[6n".utf8))
        var answer: [UInt8] = []
        let limit = ContinuousClock.now + .seconds(30)
        while answer.last != UInt8(ascii: "R") {
            guard ContinuousClock.now < limit else { throw Failed("tmux did not answer where its cursor is: \(answer)") }
            var descriptor = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            if readBytes(terminal, &byte, 1) == 1 { answer.append(byte) }
        }
    }

    /// The pane's lines as tmux shows them: a wide character once, trailing blanks left out.
    public func lines() throws -> [String] {
        try run(["capture-pane", "-p"]).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Runs tmux on `socket` with `arguments`, in a UTF-8 locale and outside any tmux the tests
    /// run in; returns its output.
    ///
    /// It is spawned as ``SpawnedProgram`` spawns programs: no signal blocked or ignored, since
    /// the server it starts passes its mask on to the pane's `sleep`, which must end when the
    /// server does; output to a file, since the server keeps what it inherits open.
    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        var variables = ProcessInfo.processInfo.environment
        variables["TMUX"] = nil
        variables["LC_ALL"] = "C.UTF-8"
        variables["TERM"] = "xterm-256color"
        let result = try SpawnedProgram.run(tmux.path, ["-u", "-f", "/dev/null", "-S", socket] + arguments, environment: variables,
                                            outputPath: scratch.path("output").path, keepingErrors: false)
        guard result.status == 0 else { throw Failed("tmux \(arguments.joined(separator: " ")): status \(result.status)") }
        return result.output
    }
}

private let writeBytes = write
private let readBytes = read
