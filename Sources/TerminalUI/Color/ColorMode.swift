/// How many colours the terminal can show, and so how a ``TerminalColor`` is written to it.
public enum ColorMode: Hashable, Sendable {
    /// 24-bit colour: every colour written as it is.
    case truecolor
    /// The xterm 256-colour palette: 24-bit colours become the nearest palette entry.
    case palette256
    /// The 16 theme colours: everything else becomes the nearest of them.
    case palette16
    /// No colour at all (`NO_COLOR`): only attributes are written.
    case none

    /// The mode the environment asks for: none when `NO_COLOR` is set and not empty
    /// (no-color.org), truecolor when `COLORTERM` is `truecolor` or `24bit`, else 256 colours
    /// when `TERM` mentions `256color`, else 16.
    public static func detect(environment: [String: String]) -> ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        switch environment["COLORTERM"]?.lowercased() {
        case "truecolor", "24bit": return .truecolor
        default: break
        }
        if environment["TERM"]?.contains("256color") == true { return .palette256 }
        return .palette16
    }

    /// `color` as this mode can show it: unchanged, the nearest palette colour (in OKLab, a
    /// perceptual space), or the default.
    ///
    /// The 256-colour mapping uses only entries 16–255, whose colours xterm fixes; entries
    /// 0–15 are the user's theme and could be anything. The 16-colour mapping assumes xterm's
    /// default theme.
    /// - Complexity: O(1): at most 240 distances.
    public func resolve(_ color: TerminalColor) -> TerminalColor {
        switch (self, color) {
        case (_, .default), (.truecolor, _), (.palette256, .ansi), (.palette256, .indexed), (.palette16, .ansi):
            return color
        case (.none, _):
            return .default
        case (.palette256, .rgb(let red, let green, let blue)):
            return .indexed(ColorQuantizer.nearest256(RGB(red: red, green: green, blue: blue)))
        case (.palette16, .rgb(let red, let green, let blue)):
            return .ansi(ColorQuantizer.nearest16(RGB(red: red, green: green, blue: blue)))
        case (.palette16, .indexed(let index)):
            return index < 16 ? .ansi(index) : .ansi(ColorQuantizer.nearest16(ColorQuantizer.xterm256[Int(index)]))
        }
    }

    /// `style` with both colours resolved for this mode.
    public func resolve(_ style: CellStyle) -> CellStyle {
        CellStyle(foreground: resolve(style.foreground), background: resolve(style.background), attributes: style.attributes)
    }
}
