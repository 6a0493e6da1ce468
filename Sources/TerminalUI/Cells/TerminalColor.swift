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

    /// A 24-bit colour from a pixel, ignoring its alpha.
    public init(_ pixel: RGB) {
        self = .rgb(pixel.red, pixel.green, pixel.blue)
    }
}

/// An opaque 8-bit sRGB colour.
public struct RGB: Hashable, Sendable {
    /// Red, 0 to 255.
    public var red: UInt8
    /// Green, 0 to 255.
    public var green: UInt8
    /// Blue, 0 to 255.
    public var blue: UInt8

    /// Creates a colour from its sRGB components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}
