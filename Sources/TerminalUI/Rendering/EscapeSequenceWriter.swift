/// Builds the bytes of a frame: text, cursor moves and SGR, each in its shortest form.
struct EscapeSequenceWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ sequence: [UInt8]) {
        bytes.append(contentsOf: sequence)
    }

    mutating func append(_ character: Character) {
        if let ascii = character.asciiValue {
            bytes.append(ascii)
        } else {
            bytes.append(contentsOf: character.utf8)
        }
    }

    /// `ESC [` then `parameter` (omitted when it is `omitted`, the sequence's default) then `final`.
    mutating func csi(_ parameter: Int, omitted: Int = 1, _ final: UInt8) {
        bytes.append(0x1B)
        bytes.append(0x5B)
        if parameter != omitted { decimal(parameter) }
        bytes.append(final)
    }

    /// `bytes` between DECSC and DECRC (`ESC 7`, `ESC 8`): whatever they move, the cursor and
    /// the pen are where they were after; empty bytes stay empty.
    static func keepingCursor(_ bytes: [UInt8]) -> [UInt8] {
        bytes.isEmpty ? [] : [0x1B, 0x37] + bytes + [0x1B, 0x38]
    }

    /// CUP: the cursor to zero-based `row`, `column`, with the defaults (1) left out.
    mutating func moveCursor(row: Int, column: Int) {
        bytes.append(0x1B)
        bytes.append(0x5B)
        if row != 0 || column != 0 {
            if row != 0 { decimal(row + 1) }
            if column != 0 {
                bytes.append(0x3B)
                decimal(column + 1)
            }
        }
        bytes.append(0x48)
    }

    /// The length of ``moveCursor(row:column:)``'s output, to compare moves without writing them.
    static func cursorPositionLength(row: Int, column: Int) -> Int {
        3 + (row != 0 ? digits(row + 1) : 0) + (column != 0 ? 1 + digits(column + 1) : 0)
    }

    /// The length of a CSI sequence with one parameter.
    static func csiLength(_ parameter: Int, omitted: Int = 1) -> Int {
        3 + (parameter != omitted ? digits(parameter) : 0)
    }

    /// SGR from `pen` (nil: unknown) to `style`, whichever is shorter: the changes alone, or a
    /// reset followed by everything `style` sets.
    mutating func selectGraphicRendition(from pen: CellStyle?, to style: CellStyle) {
        var reset: [UInt8] = [0x30]
        Self.appendParameters(of: style, to: &reset)
        guard let pen else { return sgr(reset) }
        var changes: [UInt8] = []
        let removed = pen.attributes.subtracting(style.attributes)
        var added = style.attributes.subtracting(pen.attributes)
        if !removed.intersection([.bold, .dim]).isEmpty {
            Self.parameter(22, to: &changes)
            added.formUnion(style.attributes.intersection([.bold, .dim]))
        }
        if removed.contains(.italic) { Self.parameter(23, to: &changes) }
        if removed.contains(.underline) { Self.parameter(24, to: &changes) }
        if removed.contains(.reverse) { Self.parameter(27, to: &changes) }
        if removed.contains(.strikethrough) { Self.parameter(29, to: &changes) }
        Self.appendAttributes(added, to: &changes)
        if pen.foreground != style.foreground { Self.appendColor(style.foreground, base: 30, to: &changes) }
        if pen.background != style.background { Self.appendColor(style.background, base: 40, to: &changes) }
        if changes.isEmpty { return }
        sgr(changes.count < reset.count ? changes : reset)
    }

    private mutating func sgr(_ parameters: [UInt8]) {
        bytes.append(0x1B)
        bytes.append(0x5B)
        // A lone reset is `ESC [ m`.
        if parameters != [0x30] { bytes.append(contentsOf: parameters) }
        bytes.append(0x6D)
    }

    private static func appendParameters(of style: CellStyle, to out: inout [UInt8]) {
        appendAttributes(style.attributes, to: &out)
        if style.foreground != .default { appendColor(style.foreground, base: 30, to: &out) }
        if style.background != .default { appendColor(style.background, base: 40, to: &out) }
    }

    private static func appendAttributes(_ attributes: CellAttributes, to out: inout [UInt8]) {
        let codes: [(CellAttributes, Int)] = [(.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4), (.reverse, 7), (.strikethrough, 9)]
        for (attribute, code) in codes where attributes.contains(attribute) {
            parameter(code, to: &out)
        }
    }

    /// `base` is 30 for the foreground, 40 for the background.
    private static func appendColor(_ color: TerminalColor, base: Int, to out: inout [UInt8]) {
        switch color {
        case .default:
            parameter(base + 9, to: &out)
        case .ansi(let index):
            parameter(index < 8 ? base + Int(index) : base + 60 + Int(index) - 8, to: &out)
        case .indexed(let index):
            parameter(base + 8, to: &out)
            parameter(5, to: &out)
            parameter(Int(index), to: &out)
        case .rgb(let red, let green, let blue):
            parameter(base + 8, to: &out)
            parameter(2, to: &out)
            parameter(Int(red), to: &out)
            parameter(Int(green), to: &out)
            parameter(Int(blue), to: &out)
        }
    }

    private static func parameter(_ value: Int, to out: inout [UInt8]) {
        if !out.isEmpty { out.append(0x3B) }
        appendDecimal(value, to: &out)
    }

    mutating func decimal(_ value: Int) {
        Self.appendDecimal(value, to: &bytes)
    }

    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        precondition(value >= 0, "escape sequence parameters are not negative")
        if value >= 10 { appendDecimal(value / 10, to: &out) }
        out.append(UInt8(0x30 + value % 10))
    }

    static func digits(_ value: Int) -> Int {
        value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : String(value).count
    }
}
