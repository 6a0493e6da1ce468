import TerminalUI

/// The colours of the reader that the settings file's `[colors]` table can change.
struct ReaderColors: Sendable, Equatable {
    /// The title bar and headings (`accent`).
    var accent: TerminalColor
    /// Secondary text: feed names, dates, summaries, the status line (`dim`).
    var dim: TerminalColor
    /// The unread mark beside a post (`unread`).
    var unread: TerminalColor
    /// The background of the post under the cursor (`selection_background`).
    var selectionBackground: TerminalColor

    /// The reader's colours with no settings, from the 256-colour palette, which every colour
    /// mode can show (a 16-colour terminal gets the nearest of its own).
    static let defaults = ReaderColors(accent: .indexed(24), dim: .indexed(245), unread: .indexed(39), selectionBackground: .indexed(236))

    /// The names of the colours in the `[colors]` table, with their key paths, in the order
    /// the example and `scrollwork config` print them.
    static let fields: [(name: String, keyPath: WritableKeyPath<ReaderColors, TerminalColor> & Sendable)] = [
        ("accent", \.accent), ("dim", \.dim), ("unread", \.unread), ("selection_background", \.selectionBackground),
    ]
}

/// Colours as the settings file writes them: `"#rrggbb"`, a palette index from 0 to 255
/// (0–15 are the terminal theme's own colours), or one of the 16 theme colours by name
/// (`"red"`, `"bright_blue"`, `"gray"`), or `"default"` for the terminal's own.
enum ColorNotation {
    /// The 16 theme colours by name, in palette order; `gray` and `grey` are `bright_black`.
    static let names: [String] = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright_black", "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan", "bright_white",
    ]

    /// Reads a colour written as text: `#rrggbb`, a name, or `default`.
    ///
    /// - Returns: the colour, or `nil` when the text is none of those.
    static func parse(_ text: String) -> TerminalColor? {
        let name = text.lowercased()
        if name == "default" { return .default }
        if name == "gray" || name == "grey" { return .ansi(8) }
        if let index = names.firstIndex(of: name) { return .ansi(UInt8(index)) }
        guard name.count == 7, name.first == "#", name.dropFirst().allSatisfy(\.isHexDigit), let value = UInt32(name.dropFirst(), radix: 16) else { return nil }
        return .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }

    /// A palette index: 0–15 the theme's colours, 16–255 the xterm palette.
    ///
    /// - Returns: the colour, or `nil` outside 0–255.
    static func color(index: Int) -> TerminalColor? {
        guard (0...255).contains(index) else { return nil }
        return index < 16 ? .ansi(UInt8(index)) : .indexed(UInt8(index))
    }

    /// The colour in the settings file's notation, as TOML: a quoted name or `#rrggbb`, or a
    /// bare palette index.
    static func toml(_ color: TerminalColor) -> String {
        switch color {
        case .default: "\"default\""
        case .ansi(let index): index < 16 ? "\"\(names[Int(index)])\"" : "\(index)"
        case .indexed(let index): "\(index)"
        case .rgb(let red, let green, let blue): "\"#" + [red, green, blue].map(hexByte).joined() + "\""
        }
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
