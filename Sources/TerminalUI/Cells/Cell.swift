/// One cell of a terminal screen: a grapheme cluster and its style.
///
/// A wide character (``DisplayWidth`` 2) takes two cells: a leading cell that holds it, with
/// ``width`` 2, and a continuation cell after it, with ``width`` 0, an empty grapheme and the
/// same style, and no grapheme. ``CellBuffer`` keeps pairs whole.
public struct Cell: Hashable, Sendable {
    /// What the cell shows: `" "` when blank, `nil` in the continuation of a wide character.
    public internal(set) var grapheme: Character?
    /// Its colours and attributes.
    public var style: CellStyle
    /// 1 for an ordinary cell, 2 for the first cell of a wide character, 0 for its second.
    public internal(set) var width: UInt8

    /// A blank cell in the default style.
    public static let blank = Cell(" ")

    /// A cell showing `grapheme`, which must take one column.
    ///
    /// - Precondition: `DisplayWidth.of(grapheme) == 1`. Wide characters are placed with
    ///   ``CellBuffer/write(_:row:column:style:)``, which fills both of their cells.
    public init(_ grapheme: Character, style: CellStyle = .plain) {
        precondition(DisplayWidth.of(grapheme) == 1, "a cell holds a one-column character; write wide ones through CellBuffer")
        self.grapheme = grapheme
        self.style = style
        self.width = 1
    }

    init(grapheme: Character?, style: CellStyle, width: UInt8) {
        self.grapheme = grapheme
        self.style = style
        self.width = width
    }

    /// Whether the cell is a kitty Unicode placeholder (U+10EEEE), whose foreground colour names
    /// the image it shows (``KittyGraphics/placeholders(id:columns:rows:)``) and must reach the
    /// terminal as it is, whatever the colour mode.
    var isKittyPlaceholder: Bool {
        grapheme?.unicodeScalars.first == "\u{10EEEE}"
    }

    /// The cell a wide character's second column holds.
    static func continuation(style: CellStyle) -> Cell {
        Cell(grapheme: nil, style: style, width: 0)
    }

    /// A blank in `style`: what is left of a wide character when half of it is overwritten.
    static func blank(style: CellStyle) -> Cell {
        Cell(grapheme: " ", style: style, width: 1)
    }
}
