#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What it takes to give the terminal back, and to take it again, kept where a signal handler
/// can reach it: fixed memory, allocated before any handler is installed, read without locks.
///
/// A signal handler may only call async-signal-safe functions. Everything here is `write`,
/// `tcsetattr`, `signal`, `sigprocmask` and `raise` on that memory: no allocation, no Swift
/// runtime calls beyond reading a pointer set before the handlers were installed.
enum TerminalRestorer {
    struct State {
        var input: Int32
        var output: Int32
        /// The terminal's modes before the session: what every way out restores.
        var saved: termios
        /// Raw mode, what the session runs in.
        var raw: termios
        var enter: UnsafeMutableBufferPointer<UInt8>
        var leave: UnsafeMutableBufferPointer<UInt8>
        /// The write end of the pipe that wakes ``TerminalSession/readEvents(timeout:)``.
        var wake: Int32
        /// Whether the terminal is in the session's modes right now.
        var isEntered: Bool
    }

    /// Bytes written to the wake pipe: what the handler saw.
    enum Wake: UInt8 {
        /// SIGWINCH: the size changed.
        case resize = 0x57
        /// SIGCONT: the program runs again and must repaint.
        case resumed = 0x43
    }

    /// Set once by the first session and never freed: a handler may run at any time after.
    nonisolated(unsafe) static var state: UnsafeMutablePointer<State>?

    /// The signals after which the terminal is given back and the process ends as the signal
    /// says.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func installHandlers() {
        for signalNumber in endingSignals + [SIGTSTP, SIGCONT, SIGWINCH] {
            signal(signalNumber, handleSignal)
        }
    }

    static func removeHandlers() {
        for signalNumber in endingSignals + [SIGTSTP, SIGCONT, SIGWINCH] {
            signal(signalNumber, SIG_DFL)
        }
    }

    /// Puts the terminal in the session's modes. Async-signal-safe.
    static func enter() {
        guard let state else { return }
        tcsetattr(state.pointee.input, TCSANOW, &state.pointee.raw)
        writeAll(state.pointee.output, UnsafeBufferPointer(state.pointee.enter))
        state.pointee.isEntered = true
    }

    /// Gives the terminal back as it was. Async-signal-safe.
    static func leave() {
        guard let state, state.pointee.isEntered else { return }
        state.pointee.isEntered = false
        writeAll(state.pointee.output, UnsafeBufferPointer(state.pointee.leave))
        tcsetattr(state.pointee.input, TCSANOW, &state.pointee.saved)
    }

    static func wake(_ reason: Wake) {
        guard let state else { return }
        var byte = reason.rawValue
        _ = write(state.pointee.wake, &byte, 1)
    }

    /// Writes all of `bytes` unless the descriptor fails. Async-signal-safe.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    static func unblock(_ signalNumber: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signalNumber)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}

/// The one handler for every signal a session watches.
private func handleSignal(_ signalNumber: Int32) {
    let savedErrno = errno
    defer { errno = savedErrno }
    switch signalNumber {
    case SIGWINCH:
        TerminalRestorer.wake(.resize)
    case SIGCONT:
        // Continued after a stop the handler did not see (SIGSTOP): take the terminal again.
        if TerminalRestorer.state?.pointee.isEntered == false { TerminalRestorer.enter() }
        TerminalRestorer.wake(.resumed)
    case SIGTSTP:
        let wasEntered = TerminalRestorer.state?.pointee.isEntered == true
        TerminalRestorer.leave()
        // Stop for real, as the default action would; execution resumes here on SIGCONT.
        signal(SIGTSTP, SIG_DFL)
        TerminalRestorer.unblock(SIGTSTP)
        raise(SIGTSTP)
        signal(SIGTSTP, handleSignal)
        if wasEntered && TerminalRestorer.state?.pointee.isEntered == false { TerminalRestorer.enter() }
        TerminalRestorer.wake(.resumed)
    default:
        // Give the terminal back, then end as the signal's default action would, so the
        // parent sees the real cause.
        TerminalRestorer.leave()
        signal(signalNumber, SIG_DFL)
        TerminalRestorer.unblock(signalNumber)
        raise(signalNumber)
    }
}
