import TerminalUI

/// Keys as the settings file writes them, and as the help overlay shows them.
///
/// A key is one character (`j`, `R`, `?`, `/`) or a name (`space`, `enter`, `escape`, `tab`,
/// `backspace`, `up`, `down`, `left`, `right`, `home`, `end`, `pageup`, `pagedown`, `insert`,
/// `delete`, `f1` to `f12`), after any of the modifiers `ctrl+`, `alt+` and `shift+`. Names and
/// modifiers ignore case; single characters do not (`r` and `R` are two keys).
///
/// Terminals send an upper-case letter, not Shift with a letter, and Control with a letter
/// whatever its case: so `shift+r` is read as `R`, and `ctrl+L` as `ctrl+l`, the keys the
/// reader will actually receive.
enum KeyNotation {
    /// Why a key name could not be read.
    struct Problem: Error, Equatable, CustomStringConvertible {
        /// The reason, in a sentence fragment that follows the key's name.
        let description: String
    }

    /// The keys that keep their meaning whatever the settings say.
    static let fixed: [KeyPress: String] = [
        KeyPress(.character("c"), .control): "always quits",
        KeyPress(.character("z"), .control): "always suspends the reader",
    ]

    private static let modifierNames: [(String, KeyModifiers)] = [
        ("ctrl+", .control), ("control+", .control), ("alt+", .alt), ("meta+", .alt), ("shift+", .shift),
    ]

    private static let namedKeys: [String: Key] = [
        "space": .character(" "), "enter": .enter, "return": .enter, "tab": .tab, "backspace": .backspace,
        "escape": .escape, "esc": .escape, "up": .up, "down": .down, "left": .left, "right": .right,
        "home": .home, "end": .end, "pageup": .pageUp, "page_up": .pageUp, "pgup": .pageUp,
        "pagedown": .pageDown, "page_down": .pageDown, "pgdn": .pageDown, "insert": .insert, "delete": .delete,
    ]

    /// Every key name that is not a single character, for suggestions.
    static var names: [String] {
        namedKeys.keys.sorted() + (1...12).map { "f\($0)" }
    }

    /// Reads a key such as `j`, `R`, `pagedown` or `ctrl+l`.
    ///
    /// - Throws: ``Problem`` for an empty or unknown name, Shift with a character that is not a
    ///   letter, or a key in ``fixed``.
    static func parse(_ text: String) throws(Problem) -> KeyPress {
        var rest = Substring(text)
        var modifiers: KeyModifiers = []
        // `ctrl++` is Control with `+`: a prefix counts only when a key follows it.
        while let match = modifierNames.first(where: { rest.count > $0.0.count && rest.lowercased().hasPrefix($0.0) }) {
            modifiers.insert(match.1)
            rest = rest.dropFirst(match.0.count)
        }
        guard !rest.isEmpty else { throw Problem(description: "is empty: write a key such as \"j\" or \"ctrl+l\"") }
        var key: Key
        if rest.count == 1, let character = rest.first {
            key = .character(character)
        } else if let named = namedKeys[rest.lowercased()] {
            key = named
        } else if let number = functionKeyNumber(rest) {
            key = .function(number)
        } else {
            let suggestion = NearestName.nearest(to: rest.lowercased(), among: names).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw Problem(description: "is not a key: write one character, or a name such as \"space\", \"enter\", \"pagedown\" or \"f5\"\(suggestion)")
        }
        if case .character(let character) = key, character != " " {
            if modifiers.contains(.shift) {
                let upper = character.uppercased()
                guard character.isLetter, character.isLowercase || character.isUppercase, upper.count == 1 else {
                    throw Problem(description: "is not a key terminals send: write the character Shift types (such as \"?\" for shift+/)")
                }
                key = .character(Character(upper))
                modifiers.remove(.shift)
            }
            if modifiers.contains(.control), case .character(let character) = key, character.lowercased().count == 1 {
                key = .character(Character(character.lowercased()))
            }
        }
        let press = KeyPress(key, modifiers)
        if let reason = fixed[press] {
            throw Problem(description: "\(reason) and cannot be bound")
        }
        return press
    }

    /// The key in the settings file's notation; ``parse(_:)`` reads it back as the same key.
    static func name(of press: KeyPress) -> String {
        let name = switch press.key {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .enter: "enter"
        case .tab: "tab"
        case .backspace: "backspace"
        case .escape: "escape"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .home: "home"
        case .end: "end"
        case .pageUp: "pageup"
        case .pageDown: "pagedown"
        case .insert: "insert"
        case .delete: "delete"
        case .function(let number): "f\(number)"
        }
        return modifierPrefix(press.modifiers, control: "ctrl+", alt: "alt+", shift: "shift+") + name
    }

    /// The key as people read it on a key cap: `j`, `↓`, `PgDn`, `Ctrl-L`.
    static func label(of press: KeyPress) -> String {
        let name = switch press.key {
        case .character(" "): "Space"
        case .character(let character): press.modifiers.contains(.control) ? character.uppercased() : String(character)
        case .enter: "Enter"
        case .tab: "Tab"
        case .backspace: "Bksp"
        case .escape: "Esc"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .insert: "Ins"
        case .delete: "Del"
        case .function(let number): "F\(number)"
        }
        return modifierPrefix(press.modifiers, control: "Ctrl-", alt: "Alt-", shift: "Shift-") + name
    }

    private static func modifierPrefix(_ modifiers: KeyModifiers, control: String, alt: String, shift: String) -> String {
        (modifiers.contains(.control) ? control : "") + (modifiers.contains(.alt) ? alt : "") + (modifiers.contains(.shift) ? shift : "")
    }

    private static func functionKeyNumber(_ text: Substring) -> Int? {
        guard text.first == "f" || text.first == "F", let number = Int(text.dropFirst()), (1...12).contains(number) else { return nil }
        return number
    }
}
