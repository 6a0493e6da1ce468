#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal taken over for a full-screen program: raw input, the alternate screen, a
/// hidden cursor, bracketed paste, SGR mouse reporting and focus events, and the terminal given
/// back exactly as it was on every way out.
///
/// Ways out and what happens:
/// - ``stop()``, or the end of ``run(_:)`` whether it returns or throws: restored.
/// - `exit()` from anywhere: restored by an `atexit` hook.
/// - SIGINT, SIGTERM, SIGHUP, SIGQUIT: restored, then the process ends by that signal.
/// - SIGTSTP (`kill -TSTP`, or ``suspend()`` for a Ctrl-Z key, since raw mode turns the key's
///   signal off): restored, then stopped; on SIGCONT the modes are taken again and
///   ``InputEvent/repaint`` is delivered, since the screen may hold anything by then.
/// - SIGWINCH: ``InputEvent/resize(columns:rows:)``.
///
/// Crashes (SIGSEGV, a failed precondition) are left to the Swift runtime's backtracer.
///
/// Nothing is done when either standard input or output is not a terminal: the initialiser
/// returns nil and the program prints plain text instead. One session at a time.
public final class TerminalSession {
    /// The modes a session turns on besides raw input.
    public struct Modes: OptionSet, Sendable {
        /// The set as bits, in the order of the static members below.
        public let rawValue: UInt8

        /// A set from its bits.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// DEC mode 1049: a screen of its own, the shell's back on exit.
        public static let alternateScreen = Modes(rawValue: 1 << 0)
        /// DEC mode 25 reset.
        public static let hiddenCursor = Modes(rawValue: 1 << 1)
        /// DEC mode 2004: pastes arrive marked, as one ``InputEvent/paste(_:)``.
        public static let bracketedPaste = Modes(rawValue: 1 << 2)
        /// DEC modes 1000, 1002 and 1006: presses, releases, drags and wheel, in SGR form.
        public static let mouse = Modes(rawValue: 1 << 3)
        /// DEC mode 1004: ``InputEvent/focusGained`` and ``InputEvent/focusLost``.
        public static let focusEvents = Modes(rawValue: 1 << 4)

        /// Every mode: what a full-screen reader wants.
        public static let all: Modes = [.alternateScreen, .hiddenCursor, .bracketedPaste, .mouse, .focusEvents]
    }

    /// Why a session could not start.
    public struct Failure: Error, CustomStringConvertible {
        /// The call that failed.
        public var operation: String
        /// Its `errno`.
        public var code: Int32

        /// `tcgetattr: Inappropriate ioctl for device`.
        public var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// The terminal read from.
    public let input: Int32
    /// The terminal written to.
    public let output: Int32
    /// The modes turned on.
    public let modes: Modes
    private var decoder = InputDecoder()
    private var wakeRead: Int32 = -1
    private var buffer = [UInt8](repeating: 0, count: 4096)
    /// Events read while waiting for something else, delivered by the next read.
    private var held: [InputEvent] = []

    /// A session on `input` and `output`, not started; nil unless both are terminals.
    public init?(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, modes: Modes = .all) {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        self.input = input
        self.output = output
        self.modes = modes
    }

    /// Whether the session holds the terminal.
    public var isActive: Bool { TerminalRestorer.state?.pointee.isEntered == true }

    /// The terminal's size now.
    public var size: TerminalSize? { TerminalSize.of(fileDescriptor: output) }

    /// Starts the session, runs `body`, and gives the terminal back however `body` ends.
    public func run<T>(_ body: () throws -> T) throws -> T {
        try start()
        defer { stop() }
        return try body()
    }

    /// Takes the terminal: raw mode, the modes asked for, and the signal handlers.
    ///
    /// - Precondition: no session is active.
    public func start() throws(Failure) {
        precondition(!isActive, "one terminal session at a time")
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { throw Failure(operation: "tcgetattr", code: errno) }
        var raw = saved
        cfmakeraw(&raw)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Failure(operation: "pipe", code: errno) }
        for end in pipeEnds {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = pipeEnds[0]
        let state = TerminalRestorer.State(
            input: input, output: output, saved: saved, raw: raw,
            enter: Self.copy(Self.enterSequence(modes)), leave: Self.copy(Self.leaveSequence(modes)),
            wake: pipeEnds[1], isEntered: false
        )
        if let previous = TerminalRestorer.state {
            previous.pointee.enter.deallocate()
            previous.pointee.leave.deallocate()
            previous.pointee = state
        } else {
            let storage = UnsafeMutablePointer<TerminalRestorer.State>.allocate(capacity: 1)
            storage.initialize(to: state)
            TerminalRestorer.state = storage
            atexit { TerminalRestorer.leave() }
        }
        TerminalRestorer.installHandlers()
        TerminalRestorer.enter()
    }

    /// Reads and drops input until `count` device attributes answer a query still open, or
    /// `timeout` passes: answers that arrive after the terminal is given back would reach the
    /// shell as text. Returns at once for a count of 0.
    public func discardAnswers(_ count: Int = 1, timeout: Duration = .milliseconds(150)) {
        let clock = ContinuousClock()
        let limit = clock.now + timeout
        var left = count
        while left > 0, clock.now < limit {
            left -= readEvents(timeout: limit - clock.now).count(where: { if case .deviceAttributes = $0 { true } else { false } })
        }
    }

    /// Gives the terminal back as it was and removes the signal handlers. Safe to call twice.
    public func stop() {
        guard isActive else { return }
        TerminalRestorer.leave()
        TerminalRestorer.removeHandlers()
        close(wakeRead)
        if let state = TerminalRestorer.state { close(state.pointee.wake) }
        decoder = InputDecoder()
    }

    /// Suspends the program as Ctrl-Z would outside raw mode: the terminal is given back, the
    /// process stops, and when continued it takes the terminal again and delivers
    /// ``InputEvent/repaint``.
    ///
    /// The signal goes to the process, not the calling thread: a thread that blocks SIGTSTP
    /// (the main thread under an async `main`, whose dispatch queue blocks signals) would
    /// otherwise keep it pending forever.
    public func suspend() {
        kill(getpid(), SIGTSTP)
    }

    /// Writes `bytes` to the terminal, all of them.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { TerminalRestorer.writeAll(output, $0) }
    }

    /// Asks the terminal what it supports and waits for its answers, up to `timeout` for a
    /// terminal that does not answer at all.
    ///
    /// Events that arrive meanwhile (a key pressed during the wait) are kept for the next
    /// ``readEvents(timeout:)``.
    ///
    /// When `throughTmux`, the terminal outside tmux is asked too
    /// (``TerminalCapabilities/query(throughTmux:)``), and its answers are awaited as long: a
    /// tmux whose `allow-passthrough` is off passes none, and the wait is the whole `timeout`.
    public func queryCapabilities(throughTmux: Bool = false, insideTmux: Bool = false,
                                  timeout: Duration = .milliseconds(150)) -> TerminalCapabilities {
        write(TerminalCapabilities.query(throughTmux: throughTmux, insideTmux: insideTmux))
        let clock = ContinuousClock()
        let limit = clock.now + timeout
        var answers = CapabilityAnswers(throughTmux: throughTmux)
        while clock.now < limit && answers.awaited > 0 {
            for event in readEvents(timeout: limit - clock.now) where answers.take(event) == nil {
                held.append(event)
            }
        }
        let size = self.size
        var capabilities = answers.capabilities(cells: size.map { ($0.columns, $0.rows) })
        // Else the pixel size the kernel knows, where the terminal keeps it there.
        if capabilities.cellPixelSize == nil { capabilities.cellPixelSize = size?.cellPixelSize }
        return capabilities
    }

    /// Waits up to `timeout` (nil: until something happens) for input or a signal and returns
    /// the events; empty when the time ran out.
    ///
    /// The wait is shortened to the input decoder's ``InputDecoder/deadline`` when an Escape
    /// is pending, so a lone Escape is delivered on time.
    public func readEvents(timeout: Duration?) -> [InputEvent] {
        if !held.isEmpty {
            defer { held.removeAll() }
            return held
        }
        let clock = ContinuousClock()
        var wait = timeout
        if let deadline = decoder.deadline {
            let untilDeadline = max(.zero, deadline - clock.now)
            wait = wait.map { min($0, untilDeadline) } ?? untilDeadline
        }
        let milliseconds = wait.map { Int32(clamping: Int(($0 / .milliseconds(1)).rounded(.up))) } ?? -1
        var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, 2, milliseconds)
        var events = wakeEvents()
        if ready > 0 && descriptors[0].revents != 0 {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count > 0 { events += decoder.decode(buffer[0..<count], at: clock.now) }
        }
        events += decoder.flush(at: clock.now)
        return events
    }

    /// What the signal handlers reported through the wake pipe, one event per kind.
    private func wakeEvents() -> [InputEvent] {
        var reasons: Set<UInt8> = []
        var byte: UInt8 = 0
        while read(wakeRead, &byte, 1) == 1 { reasons.insert(byte) }
        var events: [InputEvent] = []
        if reasons.contains(TerminalRestorer.Wake.resumed.rawValue) { events.append(.repaint) }
        if reasons.contains(TerminalRestorer.Wake.resize.rawValue), let size {
            events.append(.resize(columns: size.columns, rows: size.rows))
        }
        return events
    }

    /// What turns `modes` on.
    package static func enterSequence(_ modes: Modes) -> [UInt8] {
        var sequence = ""
        if modes.contains(.alternateScreen) { sequence += "\u{1B}[?1049h" }
        if modes.contains(.hiddenCursor) { sequence += "\u{1B}[?25l" }
        if modes.contains(.bracketedPaste) { sequence += "\u{1B}[?2004h" }
        if modes.contains(.mouse) { sequence += "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h" }
        if modes.contains(.focusEvents) { sequence += "\u{1B}[?1004h" }
        return Array(sequence.utf8)
    }

    /// What turns them off, and undoes what an interrupted frame may have left: an open
    /// synchronized update (which would freeze the screen), a scroll region, an SGR pen.
    /// Resetting the scroll region also sends the cursor home, so the cursor is saved around
    /// it: a session without the alternate screen (a capability query) leaves it where it was.
    package static func leaveSequence(_ modes: Modes) -> [UInt8] {
        var sequence = "\u{1B}[?2026l\u{1B}7\u{1B}[r\u{1B}8\u{1B}[m"
        if modes.contains(.focusEvents) { sequence += "\u{1B}[?1004l" }
        if modes.contains(.mouse) { sequence += "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l" }
        if modes.contains(.bracketedPaste) { sequence += "\u{1B}[?2004l" }
        if modes.contains(.hiddenCursor) { sequence += "\u{1B}[?25h" }
        if modes.contains(.alternateScreen) { sequence += "\u{1B}[?1049l" }
        return Array(sequence.utf8)
    }

    private static func copy(_ bytes: [UInt8]) -> UnsafeMutableBufferPointer<UInt8> {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }
}
