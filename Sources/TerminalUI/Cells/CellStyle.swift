/// How a cell is drawn: its colours and attributes.
public struct CellStyle: Hashable, Sendable {
    /// The colour of the glyph.
    public var foreground: TerminalColor
    /// The colour behind the glyph.
    public var background: TerminalColor
    /// Bold, underline and the other attributes.
    public var attributes: CellAttributes

    /// The terminal's default colours and no attributes.
    public static let plain = CellStyle()

    /// A style; everything defaults to the terminal's own defaults.
    public init(foreground: TerminalColor = .default, background: TerminalColor = .default, attributes: CellAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}
