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

/// The text attributes SGR can set, as a set.
public struct CellAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// SGR 1.
    public static let bold = CellAttributes(rawValue: 1 << 0)
    /// SGR 2, faint.
    public static let dim = CellAttributes(rawValue: 1 << 1)
    /// SGR 3.
    public static let italic = CellAttributes(rawValue: 1 << 2)
    /// SGR 4.
    public static let underline = CellAttributes(rawValue: 1 << 3)
    /// SGR 7: foreground and background swapped.
    public static let reverse = CellAttributes(rawValue: 1 << 4)
    /// SGR 9.
    public static let strikethrough = CellAttributes(rawValue: 1 << 5)
}
