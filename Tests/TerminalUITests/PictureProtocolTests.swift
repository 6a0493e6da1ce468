import Testing
import TerminalUI

/// Which picture protocol a terminal gets when the settings say auto, and why.
@Suite struct PictureProtocolTests {
    static let xterm = TerminalCapabilities(sixel: true, terminalVersion: "XTerm(379)", answered: true)
    static let kitty = TerminalCapabilities(kittyGraphics: true, terminalVersion: "kitty(0.26.5)", answered: true)
    static let plain = TerminalCapabilities(answered: true)
    static let silent = TerminalCapabilities()

    @Test(arguments: [
        (xterm, ["TERM": "xterm"], PictureProtocol.sixel, "XTerm(379)"),
        (kitty, ["TERM": "xterm-kitty"], .kitty, "kitty graphics query"),
        (plain, ["TERM": "xterm-256color"], .blocks, "no graphics protocol"),
        (silent, ["TERM": "xterm-kitty"], .kitty, "did not answer"),
        (silent, ["KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"], .kitty, "did not answer"),
        (silent, ["TERM": "foot"], .sixel, "TERM=foot"),
        (silent, ["TERM": "xterm-256color"], .blocks, "answered no query"),
        (plain, ["TERM_PROGRAM": "iTerm.app"], .iterm, "iTerm"),
        (plain, ["WEZTERM_PANE": "0", "TERM": "xterm-256color"], .iterm, "WezTerm"),
        // tmux answers for the terminal: a kitty outside is not reachable without passthrough,
        // and is not asked from a pane behind.
        ({ var asked = kitty; asked.askedOutside = true; return asked }(), ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"], .blocks,
         "allow-passthrough"),
        (kitty, ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"], .blocks, "was not asked"),
        (TerminalCapabilities(sixel: true, answered: true), ["TMUX": "/tmp/t,1,0", "TERM": "screen"], .sixel, "tmux draws sixel"),
    ] as [(TerminalCapabilities, [String: String], PictureProtocol, String)])
    func answersBeatGuessesAndTheReasonSaysWhich(
        capabilities: TerminalCapabilities, environment: [String: String], expected: PictureProtocol, reason: String
    ) {
        let (chosen, why) = PictureProtocol.detect(capabilities, environment: environment)
        #expect(chosen == expected, "\(why)")
        #expect(why.contains(reason), "\(why)")
    }
}
