import TerminalUI

/// What the reader needs of a terminal: its size, a way to write frames, a stream of input,
/// and a way to give the terminal back for a while. ``TerminalIO`` is the real one; tests and
/// `scrollwork bench ui` drive the reader through ``ScriptedTerminal``.
package protocol ReaderTerminal: AnyObject {
    /// The terminal's size in cells.
    var size: (columns: Int, rows: Int) { get }
    /// The size of a cell in pixels, where the kernel knows it (`TIOCGWINSZ`); nil elsewhere.
    var cellPixelSize: CellPixelSize? { get }
    /// Writes a rendered frame.
    func write(_ bytes: [UInt8])
    /// Gives the terminal back and stops the process (Ctrl-Z); a repaint event follows.
    func suspend()
    /// Starts delivering input events, on a thread of the terminal's choosing, until stopped.
    func startReading(_ deliver: @escaping @Sendable (InputEvent) -> Void) -> any InputReading
    /// Gives the terminal back as it was while `body` runs (a browser may need it), then takes
    /// it again. Input is not read meanwhile.
    func whileReleased(_ body: () -> Void)
}

/// A running input reader's switch.
package protocol InputReading: Sendable {
    /// Stops reading; no event is delivered after it returns.
    func stop()
}

/// A terminal in memory: frames go into an ``InMemoryTerminal`` that tests read back, input
/// comes from the test. What `scrollwork bench ui` renders into.
package final class ScriptedTerminal: ReaderTerminal {
    package private(set) var screen: InMemoryTerminal
    /// Bytes written per frame, in order.
    package private(set) var frameSizes: [Int] = []
    /// How many times the reader gave the terminal back (`o`).
    private(set) var releases = 0
    private(set) var suspensions = 0
    /// Whether each frame is decoded into ``screen``; off when only the byte counts matter.
    var decodesFrames: Bool

    package init(columns: Int, rows: Int, decodesFrames: Bool = true) {
        screen = InMemoryTerminal(columns: columns, rows: rows)
        self.decodesFrames = decodesFrames
    }

    package var size: (columns: Int, rows: Int) { (screen.screen.columns, screen.screen.rows) }
    /// The size of a cell in pixels, as the kernel would say it; nil by default.
    package var cellPixelSize: CellPixelSize?

    package func write(_ bytes: [UInt8]) {
        frameSizes.append(bytes.count)
        if decodesFrames { screen.apply(bytes) }
    }

    package func suspend() { suspensions += 1 }

    package func startReading(_ deliver: @escaping @Sendable (InputEvent) -> Void) -> any InputReading { Stopped() }

    package func whileReleased(_ body: () -> Void) {
        releases += 1
        body()
    }

    /// Resizes the screen; the reader learns of it through a resize event the test sends.
    func resize(columns: Int, rows: Int) {
        screen = InMemoryTerminal(columns: columns, rows: rows)
    }

    private struct Stopped: InputReading {
        func stop() {}
    }
}
