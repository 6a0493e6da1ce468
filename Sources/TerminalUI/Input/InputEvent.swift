/// Something the person at the terminal did, or the terminal reported.
public enum InputEvent: Hashable, Sendable {
    /// A key, with the modifiers held.
    case key(KeyPress)
    /// Text pasted while bracketed paste was on: delivered whole, never read as keys. It is
    /// the terminal's bytes as they came (invalid UTF-8 repaired); sanitise it before drawing.
    case paste(String)
    /// A mouse button, drag, movement or wheel step.
    case mouse(MouseEvent)
    /// The terminal window gained focus.
    case focusGained
    /// The terminal window lost focus.
    case focusLost
    /// The terminal has a new size, in cells.
    case resize(columns: Int, rows: Int)
    /// The screen must be drawn again from scratch: the program was suspended and resumed.
    case repaint
    /// The terminal's answer to a DECRQM query (`CSI ? mode $ p`): 1 set, 2 reset, 0 unknown.
    case modeReport(mode: Int, state: Int)
    /// The terminal's answer to XTWINOPS 16 (`CSI 16 t`): the size of a cell in pixels.
    case cellSizeReport(CellPixelSize)
    /// The terminal's primary device attributes reply, which every terminal sends: asked for
    /// after other queries, it says that their answers, if any, have all arrived.
    case deviceAttributes
}

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
    case enter, tab, backspace, escape
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    /// F1 to F12.
    case function(Int)
}

/// Modifier keys, as a set.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let alt = KeyModifiers(rawValue: 1 << 1)
    public static let control = KeyModifiers(rawValue: 1 << 2)
}

/// A mouse event in SGR mouse reporting, at a zero-based cell.
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Action: Hashable, Sendable {
        case press(MouseButton)
        case release(MouseButton)
        /// Moved with `button` held.
        case drag(MouseButton)
        /// Moved with no button held (reported only in any-motion mode).
        case move
        case scroll(ScrollDirection)
    }

    /// What the mouse did.
    public var action: Action
    /// The cell's column, from 0.
    public var column: Int
    /// The cell's row, from 0.
    public var row: Int
    /// Shift, Alt, Control held.
    public var modifiers: KeyModifiers

    /// A mouse event.
    public init(_ action: Action, column: Int, row: Int, modifiers: KeyModifiers = []) {
        self.action = action
        self.column = column
        self.row = row
        self.modifiers = modifiers
    }
}

/// A mouse button: left, middle, right, or another by its SGR number (8 and up).
public enum MouseButton: Hashable, Sendable {
    case left, middle, right
    case other(Int)
}

/// The direction of a wheel step.
public enum ScrollDirection: Hashable, Sendable {
    case up, down, left, right
}
