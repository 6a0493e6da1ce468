/// A colour as a terminal is told it: its default, one of the 16 colours of its theme, an
/// index in the 256-colour palette, or red, green and blue.
public enum TerminalColor: Hashable, Sendable {
    /// The terminal's own default foreground or background.
    case `default`
    /// One of the 16 theme colours: 0–7 normal, 8–15 bright. Their look is the user's choice.
    case ansi(UInt8)
    /// An index in the xterm 256-colour palette: 16–231 the 6 × 6 × 6 cube, 232–255 greys.
    case indexed(UInt8)
    /// A 24-bit colour, drawn exactly by truecolor terminals.
    case rgb(UInt8, UInt8, UInt8)

    /// The 24-bit colour `pixel`.
    public init(_ pixel: RGB) {
        self = .rgb(pixel.red, pixel.green, pixel.blue)
    }
}
