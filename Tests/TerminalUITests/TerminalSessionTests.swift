import ScrollworkTestSupport
import Testing
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


private func stopSignal(_ status: Int32) -> Int32? { status & 0xFF == 0x7F ? (status >> 8) & 0xFF : nil }
private func terminationSignal(_ status: Int32) -> Int32? { status & 0x7F != 0 && status & 0x7F != 0x7F ? status & 0x7F : nil }
private func exitCode(_ status: Int32) -> Int32? { status & 0x7F == 0 ? (status >> 8) & 0xFF : nil }

private let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?1004h"
private let leave = "\u{1B}[?2026l\u{1B}7\u{1B}[r\u{1B}8\u{1B}[m\u{1B}[?1004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"

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
        #expect(child.text.occurrences(of: enter) == 2)

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
