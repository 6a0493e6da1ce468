import ScrollworkTestSupport
import Testing
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The session helper in a pseudo-terminal: the test is its terminal, reads what it writes,
/// signals it, and checks the terminal's modes after each step.
private final class PseudoTerminalChild {
    let master: Int32
    let slave: Int32
    let pid: pid_t
    /// The terminal's modes before the child took it.
    let original: termios
    private(set) var output: [UInt8] = []

    init(arguments: [String] = []) throws {
        (master, slave) = try Self.openPseudoTerminal()
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var modes = termios()
        tcgetattr(slave, &modes)
        original = modes

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in 0...2 { posix_spawn_file_actions_adddup2(&actions, slave, Int32(target)) }
        posix_spawn_file_actions_addclose(&actions, master)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, whose parent (this test) is in the same session: not an
        // orphaned group, so SIGTSTP really stops it. Default signal actions, none blocked.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)

        let path = try BuiltExecutable.url(named: "terminal-session-helper").path
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard status == 0 else { throw Failed("posix_spawn: \(status)") }
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
            throw Failed("no pseudo-terminal")
        }
        let name = "/dev/pts/\(number)"
        #else
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let pointer = ptsname(master) else { throw Failed("no pseudo-terminal") }
        let name = String(cString: pointer)
        #endif
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failed("cannot open \(name)") }
        return (master, slave)
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
        close(slave)
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Whether the terminal is in raw mode now (no canonical input, no echo).
    var isRaw: Bool {
        var modes = termios()
        tcgetattr(slave, &modes)
        return modes.c_lflag & tcflag_t(ICANON | ECHO) == 0
    }

    /// Whether the terminal's modes are exactly those it had before the child.
    var isRestored: Bool {
        var modes = termios()
        tcgetattr(slave, &modes)
        return modes.c_lflag == original.c_lflag && modes.c_iflag == original.c_iflag && modes.c_oflag == original.c_oflag
    }

    /// The output as text.
    var text: String { String(decoding: output, as: UTF8.self) }

    /// Reads what the child writes until `marker` has been written `count` times in all. The
    /// limit only keeps a broken child from hanging the tests; nothing is timed.
    func read(until marker: String, count: Int = 1) throws {
        let limit = ContinuousClock.now + .seconds(30)
        while text.components(marker) < count {
            guard ContinuousClock.now < limit else { throw Failed("no \(marker.debugDescription) in \(text.debugDescription)") }
            drain(waitingMilliseconds: 100)
        }
    }

    /// Reads whatever the child has written, waiting up to `waitingMilliseconds` for some.
    func drain(waitingMilliseconds: Int32) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, waitingMilliseconds) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { readBytes(master, $0.baseAddress, $0.count) }
        if count > 0 { output += chunk[0..<count] }
    }

    /// Waits for the child to stop or end, reading its output meanwhile; returns the status.
    func waitForStatusChange() throws -> Int32 {
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

    func type(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
    }
}

extension String {
    fileprivate func components(_ marker: String) -> Int {
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

private func stopSignal(_ status: Int32) -> Int32? { status & 0xFF == 0x7F ? (status >> 8) & 0xFF : nil }
private func terminationSignal(_ status: Int32) -> Int32? { status & 0x7F != 0 && status & 0x7F != 0x7F ? status & 0x7F : nil }
private func exitCode(_ status: Int32) -> Int32? { status & 0x7F == 0 ? (status >> 8) & 0xFF : nil }

private let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?1004h"
private let leave = "\u{1B}[?2026l\u{1B}[r\u{1B}[m\u{1B}[?1004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"

@Suite(.serialized) struct TerminalSessionTests {
    @Test func suspendGivesTheTerminalBackAndContinueTakesItAgainUntilSIGINTEndsIt() throws {
        let child = try PseudoTerminalChild()
        try child.read(until: "ready")
        #expect(child.isRaw)
        #expect(child.text.hasPrefix(enter))

        kill(child.pid, SIGTSTP)
        #expect(stopSignal(try child.waitForStatusChange()) == SIGTSTP)
        #expect(child.isRestored)
        #expect(child.text.hasSuffix(leave))

        kill(child.pid, SIGCONT)
        try child.read(until: "repaint")
        #expect(child.isRaw)
        #expect(child.text.components(enter) == 2)

        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(child.master, UInt(TIOCSWINSZ), &size)
        kill(child.pid, SIGWINCH)
        try child.read(until: "resize 100x30")

        child.type("\u{1B}[A")
        try child.read(until: "key up")

        kill(child.pid, SIGINT)
        #expect(terminationSignal(try child.waitForStatusChange()) == SIGINT)
        #expect(child.isRestored)
        #expect(child.text.hasSuffix(leave))
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGQUIT])
    func anEndingSignalGivesTheTerminalBack(_ signal: Int32) throws {
        let child = try PseudoTerminalChild()
        try child.read(until: "ready")
        #expect(child.isRaw)
        kill(child.pid, signal)
        #expect(terminationSignal(try child.waitForStatusChange()) == signal)
        #expect(child.isRestored)
        #expect(child.text.hasSuffix(leave))
    }

    @Test(arguments: [("q", 0, "bye"), ("e", 1, "thrown"), ("x", 4, "")])
    func everyWayOutOfTheProgramGivesTheTerminalBack(_ key: String, _ status: Int32, _ message: String) throws {
        let child = try PseudoTerminalChild()
        try child.read(until: "ready")
        child.type(key)
        #expect(exitCode(try child.waitForStatusChange()) == status)
        #expect(child.isRestored)
        #expect(child.text.contains(leave + message))
    }

    @Test func aCtrlZKeySuspendsLikeSIGTSTP() throws {
        let child = try PseudoTerminalChild()
        try child.read(until: "ready")
        child.type("\u{1A}")
        #expect(stopSignal(try child.waitForStatusChange()) == SIGTSTP)
        #expect(child.isRestored)
        kill(child.pid, SIGCONT)
        try child.read(until: "repaint")
        #expect(child.isRaw)
    }

    @Test func asksTheTerminalWhatItSupportsAndKeepsAKeyTypedMeanwhile() throws {
        let child = try PseudoTerminalChild(arguments: ["--query"])
        try child.read(until: "\u{1B}[c")
        #expect(child.text.hasSuffix(String(decoding: TerminalCapabilities.query, as: UTF8.self)))
        child.type("k\u{1B}[?2026;2$y\u{1B}[6;20;10t\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c")
        try child.read(until: "ready")
        #expect(child.text.contains("sync true cell 10x20 kitty true\r\nready"))
        try child.read(until: "key k")
        kill(child.pid, SIGTERM)
        #expect(terminationSignal(try child.waitForStatusChange()) == SIGTERM)
    }

    @Test func doesNothingWhenNotOnATerminal() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        #expect(TerminalSession(input: ends[0], output: ends[1]) == nil)
    }
}
