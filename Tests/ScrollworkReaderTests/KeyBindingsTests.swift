import Testing
import TerminalUI
@testable import ScrollworkReader

/// Keys to actions: the defaults, key names, overrides and conflicts.
@Suite struct KeyBindingsTests {
    private func key(_ name: String) throws(KeyNotation.Problem) -> KeyPress {
        try KeyNotation.parse(name)
    }

    @Test func defaultsMapTheREADMEsKeys() {
        let bindings = KeyBindings.defaults
        let expected: [(KeyPress, ReaderAction)] = [
            (KeyPress(.character("j")), .down), (KeyPress(.down), .down), (KeyPress(.character("k")), .up), (KeyPress(.up), .up),
            (KeyPress(.character(" ")), .pageDown), (KeyPress(.pageDown), .pageDown), (KeyPress(.character("b")), .pageUp),
            (KeyPress(.character("g")), .top), (KeyPress(.character("G")), .bottom), (KeyPress(.enter), .open),
            (KeyPress(.character("q")), .back), (KeyPress(.escape), .back), (KeyPress(.character("Q")), .quit),
            (KeyPress(.character("o")), .openLink), (KeyPress(.character("r")), .refresh), (KeyPress(.character("R")), .refreshAll),
            (KeyPress(.character("u")), .unreadOnly), (KeyPress(.character("s")), .star), (KeyPress(.character("m")), .toggleRead),
            (KeyPress(.character("A")), .markAllRead), (KeyPress(.character("/")), .search), (KeyPress(.character("f")), .feeds),
            (KeyPress(.character("?")), .help), (KeyPress(.character("l"), .control), .redraw),
        ]
        for (press, action) in expected {
            #expect(bindings.action(for: press) == action, "\(press)")
        }
        #expect(bindings.action(for: KeyPress(.character("x"))) == nil)
        #expect(bindings.action(for: KeyPress(.character("c"), .control)) == nil)
        for action in ReaderAction.allCases {
            #expect(!bindings.keys(for: action).isEmpty, "\(action) has no default key")
        }
    }

    @Test func shiftedCharactersMatchTheirUnshiftedBinding() {
        #expect(KeyBindings.defaults.action(for: KeyPress(.character("R"), .shift)) == .refreshAll)
        #expect(KeyBindings.defaults.action(for: KeyPress(.down, .shift)) == nil)
    }

    @Test func labelsReadLikeKeyCaps() {
        let bindings = KeyBindings.defaults
        #expect(bindings.label(for: .down) == "j ↓")
        #expect(bindings.label(for: .pageDown) == "Space PgDn")
        #expect(bindings.label(for: .back) == "q Esc")
        #expect(bindings.label(for: .redraw) == "Ctrl-L")
    }

    @Test func keyNamesParse() throws {
        #expect(try key("j") == KeyPress(.character("j")))
        #expect(try key("R") == KeyPress(.character("R")))
        #expect(try key("shift+r") == KeyPress(.character("R")))
        #expect(try key("ctrl+x") == KeyPress(.character("x"), .control))
        #expect(try key("Ctrl+X") == KeyPress(.character("x"), .control))
        #expect(try key("ctrl++") == KeyPress(.character("+"), .control))
        #expect(try key("+") == KeyPress(.character("+")))
        #expect(try key("alt+shift+up") == KeyPress(.up, [.alt, .shift]))
        #expect(try key("PageDown") == KeyPress(.pageDown))
        #expect(try key("esc") == KeyPress(.escape))
        #expect(try key("space") == KeyPress(.character(" ")))
        #expect(try key("f12") == KeyPress(.function(12)))
        #expect(try key("shift+tab") == KeyPress(.tab, .shift))
    }

    @Test func badKeyNamesSayWhy() {
        #expect(throws: KeyNotation.Problem.self) { try key("") }
        #expect(throws: KeyNotation.Problem.self) { try key("ctrl+") }
        #expect(throws: KeyNotation.Problem.self) { try key("f13") }
        #expect(throws: KeyNotation.Problem.self) { try key("shift+1") }
        do {
            _ = try key("pgdown")
            Issue.record("pgdown parsed")
        } catch {
            #expect(error.description.contains("did you mean \"pgdn\"?"), "\(error)")
        }
        #expect(throws: KeyNotation.Problem(description: """
            is not a key: write one character, or a name such as "space", "enter", "pagedown" or "f5" (did you mean "pagedown"?)
            """)) { try key("pagedwn") }
        do {
            _ = try key("ctrl+C")
            Issue.record("ctrl+C parsed")
        } catch {
            #expect(error.description == "always quits and cannot be bound")
        }
        #expect(throws: KeyNotation.Problem(description: "always suspends the reader and cannot be bound")) { try key("ctrl+z") }
    }

    @Test func everyKeyNameReadsBackAsTheSameKey() throws {
        var presses = ReaderAction.allCases.flatMap(KeyBindings.defaults.keys(for:))
        presses += [KeyPress(.function(5), .alt), KeyPress(.tab, .shift), KeyPress(.delete, .control), KeyPress(.character("\""))]
        for press in presses {
            #expect(try key(KeyNotation.name(of: press)) == press, "\(press)")
        }
    }

    @Test func overridesReplaceAnActionsKeysAndTakeThemFromTheDefaults() throws {
        let bindings = try KeyBindings(overriding: [.down: [key("n")], .quit: [key("q")], .help: []])
        #expect(bindings.keys(for: .down) == [KeyPress(.character("n"))])
        #expect(bindings.action(for: KeyPress(.character("j"))) == nil)
        #expect(bindings.action(for: KeyPress(.down)) == nil)
        #expect(bindings.action(for: KeyPress(.character("q"))) == .quit)
        #expect(bindings.keys(for: .back) == [KeyPress(.escape)])
        #expect(bindings.action(for: KeyPress(.character("?"))) == nil)
        #expect(bindings.label(for: .help) == "unbound")
        #expect(bindings.keys(for: .up) == KeyBindings.defaults.keys(for: .up))
    }

    @Test func oneKeyForTwoActionsIsAConflict() throws {
        #expect(throws: KeyBindings.Conflict(key: KeyPress(.character("x")), first: .down, second: .star)) {
            try KeyBindings(overriding: [.star: [key("x")], .down: [key("j"), key("x")]])
        }
        let repeated = try KeyBindings(overriding: [.down: [key("j"), key("j")]])
        #expect(repeated.keys(for: .down) == [KeyPress(.character("j"))])
    }
}
