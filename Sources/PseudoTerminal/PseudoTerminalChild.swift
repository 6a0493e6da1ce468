import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An executable in a pseudo-terminal: the caller is its terminal, reads what it writes, types
/// to it, signals it, and checks the terminal's modes after each step. The tests run the
/// package's executables in it, and `scrollwork bench ui` times the reader's launch (and
/// newsboat's) in it, as a person's terminal would see it.
package final class PseudoTerminalChild {
    package let master: Int32
    package let slave: Int32
    package let pid: pid_t
    /// The terminal's modes before the child took it.
    package let original: termios
    package private(set) var output: [UInt8] = []

    /// Starts the executable at `path` with `arguments` on a new terminal of `columns` × `rows`,
    /// in a process group of its own, with `environment` added to this process's (or, when not
    /// `inheritingEnvironment`, with `environment` alone).
    package init(path: String, arguments: [String] = [], columns: Int = 80, rows: Int = 24, environment: [String: String] = [:],
                 inheritingEnvironment: Bool = true) throws {
        let (master, slave) = try Self.openPseudoTerminal()
        (self.master, self.slave) = (master, slave)
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var modes = termios()
        tcgetattr(slave, &modes)
        original = modes

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in 0...2 { posix_spawn_file_actions_adddup2(&actions, slave, Int32(target)) }
        posix_spawn_file_actions_addclose(&actions, master)
        // Its own process group, whose parent (this test) is in the same session: not an
        // orphaned group, so SIGTSTP really stops it. Default signal actions, none blocked.
        let spawning = SpawnAttributes(newProcessGroup: true)

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var variables = inheritingEnvironment ? ProcessInfo.processInfo.environment : [:]
        variables.merge(environment) { _, new in new }
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0)=\($1)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, &spawning.attributes, argv, envp)
        guard status == 0 else {
            // No child: deinit will not run, so the terminal's two ends are closed here.
            close(master)
            close(slave)
            throw Failed("posix_spawn \(path): \(status)")
        }
        pid = child
    }

    private static func openPseudoTerminal() throws -> (master: Int32, slave: Int32) {
        #if canImport(Glibc)
        // posix_openpt and friends are hidden from Swift's Glibc module; these are the ioctls
        // they wrap: TIOCSPTLCK to unlock the pair, TIOCGPTN for its number under /dev/pts.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            if master >= 0 { close(master) }
            throw Failed("no pseudo-terminal")
        }
        let name = "/dev/pts/\(number)"
        #else
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let pointer = ptsname(master) else { throw Failed("no pseudo-terminal") }
        let name = String(cString: pointer)
        #endif
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw Failed("cannot open \(name)")
        }
        return (master, slave)
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
        close(slave)
    }

    package struct Failed: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// Whether the terminal is in raw mode now (no canonical input, no echo).
    package var isRaw: Bool {
        var modes = termios()
        tcgetattr(slave, &modes)
        return modes.c_lflag & tcflag_t(ICANON | ECHO) == 0
    }

    /// Whether the terminal's modes are exactly those it had before the child.
    package var isRestored: Bool {
        var modes = termios()
        tcgetattr(slave, &modes)
        return modes.c_lflag == original.c_lflag && modes.c_iflag == original.c_iflag && modes.c_oflag == original.c_oflag
    }

    /// The output as text.
    package var text: String { String(decoding: output, as: UTF8.self) }

    /// Reads what the child writes until `marker` has been written `count` times in all. The
    /// limit only keeps a broken child from hanging the tests; nothing is timed.
    package func read(until marker: String, count: Int = 1) throws {
        let limit = ContinuousClock.now + .seconds(30)
        while text.occurrences(of: marker) < count {
            guard ContinuousClock.now < limit else { throw Failed("no \(marker.debugDescription) in \(text.debugDescription)") }
            drain(waitingMilliseconds: 100)
        }
    }

    /// Reads whatever the child has written, waiting up to `waitingMilliseconds` for some.
    package func drain(waitingMilliseconds: Int32) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, waitingMilliseconds) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { readBytes(master, $0.baseAddress, $0.count) }
        if count > 0 { output += chunk[0..<count] }
    }

    /// Waits for the child to stop or end, reading its output meanwhile; returns the status.
    package func waitForStatusChange() throws -> Int32 {
        let limit = ContinuousClock.now + .seconds(30)
        var status: Int32 = 0
        while true {
            let changed = waitpid(pid, &status, WNOHANG | WUNTRACED)
            if changed == pid { break }
            guard changed == 0 || errno == EINTR else { throw Failed("waitpid: errno \(errno)") }
            guard ContinuousClock.now < limit else { throw Failed("the child neither stopped nor ended") }
            drain(waitingMilliseconds: 20)
        }
        drain(waitingMilliseconds: 0)
        return status
    }

    package func type(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }
}

extension String {
    /// How many times `marker` occurs in the string, without overlaps.
    package func occurrences(of marker: String) -> Int {
        var count = 0
        var rest = self[...]
        while let range = rest.range(of: marker) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}

private let readBytes = read
