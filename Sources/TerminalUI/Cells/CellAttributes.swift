/// The text attributes SGR can set, as a set.
public struct CellAttributes: OptionSet, Hashable, Sendable {
    /// The set as bits, in the order of the static members below.
    public let rawValue: UInt8

    /// A set from its bits.
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
