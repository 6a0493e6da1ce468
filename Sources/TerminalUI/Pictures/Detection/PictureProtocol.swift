/// How a terminal draws pictures: its own graphics at pixel resolution, or cells.
public enum PictureProtocol: String, CaseIterable, Sendable, Hashable {
    /// The kitty graphics protocol: kitty, Ghostty, WezTerm.
    case kitty
    /// DEC sixel: xterm (`-ti vt340`), foot, mlterm, Konsole, contour, Windows Terminal.
    case sixel
    /// iTerm2's inline images (OSC 1337): iTerm2, WezTerm.
    case iterm
    /// Half blocks in colour: every terminal.
    case blocks
    /// Sextant mosaics (six pixels a cell) in colour: terminals whose font has Unicode 13's
    /// block sextants (kitty and foot draw them themselves). Never detected: only asked for.
    case sextants
    /// No pictures at all.
    case none

    /// What a terminal that answered `capabilities`, in `environment`, draws best, and why, in
    /// words for `scrollwork config` and the status line.
    ///
    /// Answers beat guesses: a kitty graphics reply means kitty, sixel in the device attributes
    /// means sixel. Inside tmux, which answers the queries itself, pictures are kitty graphics
    /// when the terminal outside answered the kitty query through tmux's passthrough
    /// (``TerminalCapabilities/outer``) with a version that has Unicode placeholders, the only
    /// kitty pictures that stay in their pane; sixel when tmux draws sixel itself; else blocks. With
    /// no answer, the environment decides (`TERM=xterm-kitty`, `KITTY_WINDOW_ID`,
    /// `TERM_PROGRAM`, `LC_TERMINAL`, `WEZTERM_*`), else blocks.
    public static func detect(_ capabilities: TerminalCapabilities, environment: [String: String]) -> (PictureProtocol, reason: String) {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("tmux") || program == "tmux" {
            if let outer = capabilities.outer, outer.kittyGraphics {
                let name = outer.terminalVersion.map { " (\($0))" } ?? ""
                guard TerminalCapabilities.hasUnicodePlaceholders(version: outer.terminalVersion) else {
                    return (.blocks, "inside tmux: the terminal outside\(name) answered the kitty graphics query through tmux's "
                        + "passthrough, but has no Unicode placeholders (kitty 0.28 or later, Ghostty), which pictures in a pane need")
                }
                return (.kitty, "the terminal outside tmux\(name) answered the kitty graphics query through tmux's passthrough")
            }
            if capabilities.sixel { return (.sixel, "tmux draws sixel itself (its device attributes include 4)") }
            if let outer = capabilities.outer {
                let name = outer.terminalVersion.map { " (\($0))" } ?? ""
                return (.blocks, "inside tmux; the terminal outside\(name) answered through tmux's passthrough, with no kitty graphics")
            }
            guard capabilities.askedOutside else {
                return (.blocks, "inside tmux; the terminal outside was not asked (only the pane in front asks it: tmux types its answers there)")
            }
            return (.blocks, "inside tmux, which passes no pictures to the terminal without allow-passthrough")
        }
        if capabilities.kittyGraphics { return (.kitty, "the terminal answered the kitty graphics query") }
        if capabilities.sixel {
            let name = capabilities.terminalVersion.map { " (\($0))" } ?? ""
            return (.sixel, "the terminal\(name) reports sixel in its device attributes")
        }
        if program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" { return (.iterm, "TERM_PROGRAM=iTerm.app") }
        if program == "WezTerm" || environment.keys.contains(where: { $0.hasPrefix("WEZTERM_") }) {
            return (.iterm, "WezTerm (TERM_PROGRAM or WEZTERM_*), which draws iTerm2 images")
        }
        if !capabilities.answered {
            if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil {
                return (.kitty, "TERM=xterm-kitty or KITTY_WINDOW_ID, though the terminal did not answer")
            }
            if term.hasPrefix("foot") || term.hasPrefix("mlterm") {
                return (.sixel, "TERM=\(term), though the terminal did not answer")
            }
            return (.blocks, "the terminal answered no query")
        }
        return (.blocks, "the terminal answered, with no graphics protocol")
    }
}
