/// A key and the modifiers held with it.
public struct KeyPress: Hashable, Sendable, CustomStringConvertible {
    /// The key.
    public var key: Key
    /// Shift, Alt, Control.
    public var modifiers: KeyModifiers

    /// A key press.
    public init(_ key: Key, _ modifiers: KeyModifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// `ctrl+alt+shift+up`, `alt+x`, `f5`: modifiers first, for test failures and logs.
    public var description: String {
        let names: [(KeyModifiers, String)] = [(.control, "ctrl"), (.alt, "alt"), (.shift, "shift")]
        let name = switch key {
        case .character(let character): String(character)
        case .function(let number): "f\(number)"
        default: "\(key)"
        }
        return (names.filter { modifiers.contains($0.0) }.map(\.1) + [name]).joined(separator: "+")
    }
}

/// A key on the keyboard.
public enum Key: Hashable, Sendable {
    /// A character: text typed, or the letter of a Control or Alt combination (lower case).
    case character(Character)
    /// Return: CR, or `CSI 13 u`.
    case enter
    /// Tab; Shift+Tab arrives as `CSI Z`, decoded as Tab with ``KeyModifiers/shift``.
    case tab
    /// Backspace: DEL (0x7F); BS (0x08) is decoded as Control+Backspace.
    case backspace
    /// Escape, told from the start of a sequence by ``InputDecoder/escapeTimeout``.
    case escape
    /// An arrow key.
    case up, down, left, right
    /// A key of the editing block.
    case home, end, pageUp, pageDown, insert, delete
    /// F1 to F12.
    case function(Int)
}

/// Modifier keys, as a set.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    /// The set as bits: Shift 1, Alt 2, Control 4, as in xterm's modifier parameter less one.
    public let rawValue: UInt8

    /// A set from its bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    /// Alt (Option), sent by terminals as an ESC before the key or in the modifier parameter;
    /// Meta is read as Alt too.
    public static let alt = KeyModifiers(rawValue: 1 << 1)
    /// Control.
    public static let control = KeyModifiers(rawValue: 1 << 2)
}
