import TerminalUI

/// Which key does what in the reader: the defaults, with the `[keys]` table of the settings
/// file laid over them.
///
/// Each key does at most one thing; an action may have several keys, or none. Ctrl-C and
/// Ctrl-Z are not here: the reader handles them before asking the bindings (see
/// ``KeyNotation/fixed``).
struct KeyBindings: Sendable, Equatable {
    /// The keys of each action, in the order the help overlay shows them.
    private var keysByAction: [ReaderAction: [KeyPress]]
    /// The reverse map, for ``action(for:)``.
    private var actionsByKey: [KeyPress: ReaderAction]

    /// The reader's keys with no settings: vi-style letters and the arrows, as in the README.
    static let defaults = KeyBindings(uncheckedKeys: [
        .down: [.init(.character("j")), .init(.down)],
        .up: [.init(.character("k")), .init(.up)],
        .pageDown: [.init(.character(" ")), .init(.pageDown)],
        .pageUp: [.init(.character("b")), .init(.pageUp)],
        .top: [.init(.character("g")), .init(.home)],
        .bottom: [.init(.character("G")), .init(.end)],
        .open: [.init(.enter)],
        .back: [.init(.character("q")), .init(.escape)],
        .quit: [.init(.character("Q"))],
        .openLink: [.init(.character("o"))],
        .refresh: [.init(.character("r"))],
        .refreshAll: [.init(.character("R"))],
        .unreadOnly: [.init(.character("u"))],
        .star: [.init(.character("s"))],
        .toggleRead: [.init(.character("m"))],
        .markAllRead: [.init(.character("A"))],
        .search: [.init(.character("/"))],
        .saveSearch: [.init(.character("S"))],
        .searchOrder: [.init(.character("d"))],
        .groupByDay: [.init(.character("D"))],
        .feeds: [.init(.character("f"))],
        .help: [.init(.character("?"))],
        .redraw: [.init(.character("l"), .control)],
    ])

    /// Bindings from a table that is known to give each key one action.
    private init(uncheckedKeys keys: [ReaderAction: [KeyPress]]) {
        keysByAction = keys
        actionsByKey = [:]
        for (action, presses) in keys {
            for press in presses {
                precondition(actionsByKey.updateValue(action, forKey: press) == nil, "\(press) is bound to two actions")
            }
        }
    }

    /// Two actions given the same key by the overrides.
    struct Conflict: Error, Equatable, CustomStringConvertible {
        /// The key.
        let key: KeyPress
        /// The action that comes first in ``ReaderAction/allCases``.
        let first: ReaderAction
        /// The other action.
        let second: ReaderAction

        var description: String {
            "\"\(KeyNotation.name(of: key))\" is bound to both \(first.rawValue) and \(second.rawValue)"
        }
    }

    /// The defaults with `overrides` laid over them: each action named there gets exactly the
    /// keys given (none for an empty list), and a key given there is taken from whichever
    /// action had it by default.
    ///
    /// - Throws: ``Conflict`` when the overrides give one key to two actions. A key given
    ///   twice to the same action is kept once.
    init(overriding overrides: [ReaderAction: [KeyPress]]) throws(Conflict) {
        var owners: [KeyPress: ReaderAction] = [:]
        for action in ReaderAction.allCases {
            for press in overrides[action] ?? [] {
                if let owner = owners[press], owner != action { throw Conflict(key: press, first: owner, second: action) }
                owners[press] = action
            }
        }
        var keys = Self.defaults.keysByAction
        for (action, presses) in overrides {
            keys[action] = presses.reduce(into: [KeyPress]()) { unique, press in
                if !unique.contains(press) { unique.append(press) }
            }
        }
        for action in ReaderAction.allCases where overrides[action] == nil {
            keys[action]?.removeAll { owners[$0] != nil }
        }
        self.init(uncheckedKeys: keys)
    }

    /// The action `press` stands for, if any.
    ///
    /// A character typed with Shift (as the kitty keyboard protocol reports it) matches its
    /// binding without Shift, since other terminals send only the character.
    ///
    /// - Complexity: O(1).
    func action(for press: KeyPress) -> ReaderAction? {
        if let action = actionsByKey[press] { return action }
        guard case .character = press.key, press.modifiers.contains(.shift) else { return nil }
        var unshifted = press
        unshifted.modifiers.remove(.shift)
        return actionsByKey[unshifted]
    }

    /// The keys bound to `action`, the first being the one to show where there is room for one.
    func keys(for action: ReaderAction) -> [KeyPress] {
        keysByAction[action] ?? []
    }

    /// The keys of `action` as the help overlay shows them, such as `j ↓` or `Ctrl-L`;
    /// "unbound" when it has none.
    func label(for action: ReaderAction) -> String {
        let keys = keys(for: action)
        return keys.isEmpty ? "unbound" : keys.map(KeyNotation.label(of:)).joined(separator: " ")
    }
}
