import Foundation
import TerminalUI

/// The reader's terminal: a ``TerminalSession`` whose input is read on a thread of its own (the
/// read blocks, and the main actor must stay free for the frame loop) and whose output is
/// written from the main actor.
///
/// `@unchecked Sendable`: the session's reading state (its decoder and buffer) is touched only
/// by the reading thread, and its output only by the main actor.
package final class TerminalIO: ReaderTerminal, @unchecked Sendable {
    private let session: TerminalSession

    package init(session: TerminalSession) {
        self.session = session
    }

    /// The terminal's size, or 80 × 24 when it does not say.
    package var size: (columns: Int, rows: Int) {
        session.size.map { ($0.columns, $0.rows) } ?? (80, 24)
    }

    package var cellPixelSize: CellPixelSize? {
        session.size?.cellPixelSize
    }

    package func write(_ bytes: [UInt8]) {
        session.write(bytes)
    }

    /// Gives the terminal back and stops the process (Ctrl-Z); when continued, the session
    /// takes the terminal again and a repaint event arrives.
    package func suspend() {
        session.suspend()
    }

    /// Reads input events on a thread of its own and hands each to `deliver`, until stopped.
    package func startReading(_ deliver: @escaping @Sendable (InputEvent) -> Void) -> any InputReading {
        let reading = Reading()
        let thread = Thread { [self] in
            while !reading.isStopped {
                // A bounded wait, so a stop is noticed within a fifth of a second.
                for event in session.readEvents(timeout: .milliseconds(200)) { deliver(event) }
            }
            reading.finished.signal()
        }
        thread.name = "scrollwork-input"
        thread.start()
        return reading
    }

    /// Leaves raw mode and the alternate screen while `body` runs, then takes the terminal
    /// again; if it cannot, the reader goes on drawing into a cooked terminal, which is ugly but
    /// loses nothing, and Ctrl-L after a `reset` repairs it.
    package func whileReleased(_ body: () -> Void) {
        session.stop()
        body()
        try? session.start()
    }

    /// A reading thread's switch.
    final class Reading: InputReading, @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        let finished = DispatchSemaphore(value: 0)

        var isStopped: Bool { lock.withLock { stopped } }

        /// Stops reading and waits for the thread to finish its last read.
        func stop() {
            lock.withLock { stopped = true }
            finished.wait()
        }
    }
}
