import TerminalUI
import ScrollworkReader

/// The main actor's time per piece of work of a running reader, for `scrollwork bench ui`:
/// every event the reader's loop hands it, and every frame and wake-up of its clock. A piece
/// of work that wrote to the terminal drew a frame.
@MainActor
final class FrameLog {
    /// Milliseconds of each piece of work that drew a frame: the frame's whole cost on the
    /// main actor.
    private(set) var frameMilliseconds: [Double] = []
    /// Main-actor milliseconds in each 1/60 s of wall time that had any work, all of it.
    var busyMilliseconds: [Double] { Array(busyBySlot.values) }
    private var busyBySlot: [Int: Double] = [:]
    private let origin = ContinuousClock.now
    private let terminal: ScriptedTerminal

    /// A log of the work that draws into `terminal`.
    init(terminal: ScriptedTerminal) {
        self.terminal = terminal
    }

    /// Runs `work` and records its time, as a frame if it drew one.
    func time(_ work: () -> Void) {
        let written = terminal.frameSizes.count
        let started = ContinuousClock.now
        work()
        let milliseconds = (ContinuousClock.now - started).milliseconds
        if terminal.frameSizes.count > written { frameMilliseconds.append(milliseconds) }
        // The slot the work ended in: it is charged to the frame interval it delays.
        let slot = Int((ContinuousClock.now - origin).milliseconds / (1000.0 / 60))
        busyBySlot[slot, default: 0] += milliseconds
    }
}

/// A frame clock whose every frame and wake-up is timed by a ``FrameLog``.
@MainActor
final class TimedFrames: FrameScheduling {
    private let frames: any FrameScheduling
    private let log: FrameLog

    init(_ frames: any FrameScheduling, log: FrameLog) {
        self.frames = frames
        self.log = log
    }

    var now: Duration { frames.now }

    func requestFrame(_ fire: @escaping @MainActor @Sendable () -> Void) {
        frames.requestFrame { [log] in log.time(fire) }
    }

    func schedule(after delay: Duration, _ fire: @escaping @MainActor @Sendable () -> Void) {
        frames.schedule(after: delay) { [log] in log.time(fire) }
    }
}
