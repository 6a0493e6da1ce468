import FeedSync
import Foundation
import ScrollworkTestSupport
import Testing
import TerminalUI
@testable import ScrollworkReader

/// The settings file: defaults, the example, values, and every kind of mistake with its line.
@Suite struct ReaderSettingsTests {
    private let scratch = ScratchDirectory("scrollwork-settings")

    private func settings(_ toml: String) throws(SettingsError) -> ReaderSettings {
        try ReaderSettings(toml: toml, file: "config.toml")
    }

    /// The problems `toml` has, or none when it reads.
    private func problems(_ toml: String) -> [SettingsProblem] {
        do {
            _ = try settings(toml)
            return []
        } catch {
            return error.problems
        }
    }

    /// The one problem `toml` has; records an issue when there is not exactly one.
    private func problem(_ toml: String, sourceLocation: SourceLocation = #_sourceLocation) -> SettingsProblem? {
        let found = problems(toml)
        #expect(found.count == 1, "\(found)", sourceLocation: sourceLocation)
        return found.first
    }

    @Test func emptyFileAndMissingFileMeanTheDefaults() throws {
        #expect(try settings("") == .defaults)
        #expect(try settings("# nothing but a comment\n") == .defaults)
        let missing = scratch.path("config/scrollwork/config.toml")
        #expect(try ReaderSettings.load(from: missing) == .defaults)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("config").path), "reading created something")
    }

    @Test func defaultsAreTheDocumentedOnes() {
        let defaults = ReaderSettings.defaults
        #expect(defaults.refreshInterval == .seconds(1800))
        #expect(defaults.markReadOnScroll == false)
        #expect(defaults.markReadAfter == .milliseconds(1500))
        #expect(defaults.groupByDay == false)
        #expect(defaults.imageMode == .auto)
        #expect(defaults.keys == .defaults)
        #expect(defaults.colors == .defaults)
    }

    @Test func theExampleReadsBackAsTheDefaults() throws {
        let example = ReaderSettings.example
        #expect(try settings(example) == .defaults)
        let values = ReaderSettings.settingNames.filter { !["colors", "keys", "account", "query_feeds"].contains($0) }
        for name in values + ReaderAction.allCases.map(\.rawValue) + ReaderColors.fields.map(\.name) {
            #expect(example.contains("\n\(name) = "), "the example does not show \(name)")
        }
        #expect(example.contains("\n[colors]\n") && example.contains("\n[keys]\n"))
        // The account and saved searches are shown commented out: the defaults have none.
        #expect(example.contains("\n# [account]\n"))
        #expect(example.contains("\n# [query_feeds]\n"))
        for name in ReaderSettings.accountNames {
            #expect(example.contains("\n# \(name) = "), "the example does not show account.\(name)")
        }
        #expect(example.contains("Ctrl-C (quit) and Ctrl-Z (suspend) always work and"))
        #expect(example.split(separator: "\n").allSatisfy { !$0.hasSuffix(" ") })
    }

    @Test func everySettingIsRead() throws {
        let read = try settings("""
            refresh_interval = 0
            mark_read_on_scroll = true
            mark_read_after = 3
            group_by_day = true
            image_mode = "blocks"

            [colors]
            accent = "#1f2E3d"
            dim = 8
            unread = "bright_blue"
            selection_background = 236

            [keys]
            quit = "q"
            down = ["n", "down"]
            refresh_all = "ctrl+r"
            help = []
            """)
        #expect(read.refreshInterval == nil)
        #expect(read.markReadOnScroll)
        #expect(read.markReadAfter == .seconds(3))
        #expect(read.groupByDay)
        #expect(ReaderOptions(settings: read, colorMode: .palette256).groupsByDay)
        #expect(read.imageMode == .always(.blocks))
        #expect(read.colors == ReaderColors(accent: .rgb(0x1F, 0x2E, 0x3D), dim: .ansi(8), unread: .ansi(12), selectionBackground: .indexed(236)))
        #expect(read.keys.action(for: KeyPress(.character("q"))) == .quit)
        #expect(read.keys.keys(for: .back) == [KeyPress(.escape)])
        #expect(read.keys.keys(for: .down) == [KeyPress(.character("n")), KeyPress(.down)])
        #expect(read.keys.action(for: KeyPress(.character("r"), .control)) == .refreshAll)
        #expect(read.keys.keys(for: .help).isEmpty)
        #expect(try settings("mark_read_after = 0.25").markReadAfter == .milliseconds(250))
        #expect(try settings("refresh_interval = 5").refreshInterval == .seconds(300))
        #expect(try settings("colors = { accent = \"red\" }").colors.accent == .ansi(1))
    }

    @Test func anySettingsWrittenOutReadBackTheSame() throws {
        var custom = ReaderSettings.defaults
        custom.refreshInterval = nil
        custom.markReadOnScroll = true
        custom.markReadAfter = .milliseconds(2250)
        custom.groupByDay = true
        custom.imageMode = .always(.none)
        custom.colors = ReaderColors(accent: .rgb(1, 2, 255), dim: .default, unread: .ansi(9), selectionBackground: .indexed(17))
        custom.keys = try KeyBindings(overriding: [.quit: [KeyPress(.character("q"))], .search: [KeyPress(.character("\""))], .help: []])
        custom.account = SyncAccount(kind: .freshrss, serverURL: URL(string: "https://rss.example.com/")!, username: "alice",
                                     passwordCommand: "pass show \"freshrss\"")
        for settings in [custom, .defaults] {
            #expect(try self.settings(settings.toml(explained: false)) == settings)
            #expect(try self.settings(settings.toml(explained: true)) == settings)
        }
    }

    @Test func theAccountIsReadFromItsTableAndItsMistakesAreNamed() throws {
        let account = try settings("""
            [account]
            kind = "greader"
            url = "https://reader.example.com/api/greader.php"
            user = "bob"
            """).account

        #expect(account == SyncAccount(kind: .greader, serverURL: URL(string: "https://reader.example.com/api/greader.php")!, username: "bob"))
        #expect(account?.apiURL.absoluteString == "https://reader.example.com/api/greader.php")
        #expect(problem("[account]\nkind = \"miniflux\"\nurl = \"https://a.example/\"\nuser = \"a\"")?.kind
            == .invalidValue(key: "account.kind", value: "\"miniflux\"", expected: "\"freshrss\" or \"greader\""))
        #expect(problem("[account]\nkind = \"freshrss\"\nurl = \"file:///etc\"\nuser = \"a\"")?.line == 3)
        #expect(problem("[account]\nkind = \"freshrss\"\nurl = \"https://a.example/\"")?.kind
            == .invalidValue(key: "account", value: "[account]", expected: "kind, url and user all given"))
        #expect(problem("[account]\nkind = \"freshrss\"\nurl = \"https://a.example/\"\nuser = \"a\"\npasword_command = \"x\"")?.kind
            == .unknownKey("account.pasword_command", suggestion: "password_command"))
    }

    @Test func aSyntaxErrorHasItsLineAndColumn() throws {
        let syntax = try #require(problem("refresh_interval = 30\nimage_mode = \n"))
        #expect(syntax.line == 2)
        #expect(syntax.column != nil)
        guard case .syntax = syntax.kind else { Issue.record("\(syntax)"); return }
        let duplicate = try #require(problem("[keys]\ndown = \"j\"\ndown = \"n\"\n"))
        #expect(duplicate.line == 3)
    }

    @Test func aNULCharacterIsASyntaxErrorNotTheEndOfTheFile() {
        let found = problem("refresh_interval = 30\n\0\nrefresh_interval = 5\n")
        #expect(found?.line == 2)
    }

    /// Found by fuzz-settings: a control character in a table's name made toml++ assert, which
    /// aborted the reader on its own settings file.
    @Test func aControlCharacterAnywhereIsASyntaxErrorWithItsPlace() {
        let found = problem("refresh_interval = +10\n[\u{03}uery_feodeketk)\\\"\\\\eds]\n\"Unread Rust\" = \"ru\u{0F}st\"")
        #expect(found?.line == 2)
        #expect(found?.column == 2)
        #expect(found?.kind.description.contains("U+0003") == true, "\(String(describing: found))")
        // In a comment, a string, a key: nowhere; tab and both line ends stay allowed.
        for text in ["# a \u{1B}[31m comment\n", "name = \"a\u{7F}b\"\n", "\u{08}key = 1\n"] {
            #expect(problem(text) != nil, "\(text.debugDescription)")
        }
        #expect(problems("refresh_interval = 30\t# tab\r\n").isEmpty)
    }

    /// Found by fuzz-settings: a table header whose name starts with what no key starts with
    /// (`[?query_feeds]`) made toml++ assert, which aborted the reader.
    @Test func aTableNameThatNoKeyStartsWithIsASyntaxErrorWithItsPlace() throws {
        let fuzzed = "refresh_interval = 10\n[?query_feeds]\n\"Unre{d Rust\" = \"rust is:unread\"\n"
        let found = try #require(problem(fuzzed))
        #expect(found.line == 2)
        #expect(found.column == 2)
        guard case .syntax(let message) = found.kind else { Issue.record("\(found)"); return }
        #expect(message.contains("'?'"), "\(message)")
        // The second: a name on the line after its bracket, found by the fuzzer next.
        // The last: after a byte order mark, found by the fuzzer once more.
        for header in ["[ +x]", "[\n\"wal\" = \"x\"\n", "[[ {a}]]", "[\t%]", "# fine\n  [ !]", "[ \r\n", "\u{FEFF}[[[[\u{FEFF}y s"] {
            #expect(problems(header + "\n").contains { if case .syntax = $0.kind { true } else { false } }, "\(header.debugDescription)")
        }
    }

    /// Found by fuzz-settings: a `}` where an array's next element should be made toml++
    /// assert.
    @Test func aBraceWhereAnArraysElementShouldBeIsASyntaxError() throws {
        let fuzzed = "# dx  w=no\"\"'''\n[keys]\nup = [\n  \"k\",\n  \"nope\",\n}"
        let found = try #require(problem(fuzzed))
        #expect(found.line == 6)
        #expect(found.column == 1)
        #expect(problem("a = [}\n")?.column == 6)
        #expect(problem("a = [ # note\n\n }\n")?.line == 3)
        // Inline tables in arrays, comments between elements, a trailing comma: all fine.
        #expect(try TOMLDocument(parsing: "a = [ {b = 1}, {c = [1, 2]} ]\nd = [\n # c\n 1,\n]\n").root.count == 2)
    }

    /// Found by fuzz-settings: TOMLKit quotes the text it stopped at, here a carriage return,
    /// and the message reaches the terminal.
    @Test func aSyntaxErrorShowsTheControlCharactersItQuotesWrittenOut() throws {
        let fuzzed = "r= [[[[[[[[[[[[[[[[[[[[in" + String(repeating: "\r", count: 17) + "[[["
        let found = try #require(problem(fuzzed))
        let message = found.kind.description
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(message.debugDescription)")
        #expect(message.hasSuffix("not 'in'"), "\(message)")
        // What TOMLKit quotes, a key defined twice: its escape character written out.
        let twice = try #require(problem("\"a\\u001Bb\" = 1\n\"a\\u001Bb\" = 2\n"))
        #expect(!twice.kind.description.unicodeScalars.contains { $0.value < 0x20 }, "\(twice.kind.description.debugDescription)")
        // The character a table's name starts with, quoted by our own check: a C1 control
        // (U+008E, found by the fuzzer next) is written out too.
        let header = try #require(problem("a = 1\n\n[ \u{8E}x]\n"))
        #expect(header.kind.description.contains("\\u{8E}"), "\(header.kind.description.debugDescription)")
        #expect(!header.kind.description.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
    }

    /// Found by fuzz-settings: a key binding holding an escaped carriage return (`\r`) was
    /// quoted raw in its error, which reaches the terminal.
    @Test func aProblemQuotesTheFilesKeysAndValuesWithTheirControlsWrittenOut() throws {
        let fuzzed = "[keys]\nquit = \"\"\nrefresh_all = \"ct//\\\\6\\\\\\rl+r\"\nhelp = []"
        let binding = try #require(problems(fuzzed).first { $0.line == 3 })
        #expect(binding.kind.description.contains("\\r"), "\(binding.kind.description)")
        for text in [fuzzed, "image_mode = \"a\\u001B[31mb\"\n", "\"a\\rb\" = 1\n", "[colors]\naccent = \"\\u009Bred\"\n"] {
            for problem in problems(text) {
                let description = problem.kind.description
                #expect(!description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(description.debugDescription)")
            }
            #expect(!problems(text).isEmpty, "\(text.debugDescription)")
        }
    }

    /// Lines that start with `[` inside a value's array or a multi-line string are no headers.
    @Test func bracketsInsideValuesAndStringsAreNotTakenForTableNames() throws {
        let documents = [
            "[query_feeds]\n\"A\" = \"\"\"\n[?not a header\n\"\"\"\n",
            "[query_feeds]\n\"B\" = '''\n[ +x\n'''\n",
            "[query_feeds]\n\"C\" = \"[? no\"\n",
        ]
        for document in documents {
            let syntax = problems(document).filter { if case .syntax = $0.kind { true } else { false } }
            #expect(syntax.isEmpty, "\(document.debugDescription): \(syntax)")
        }
        // An array of a value spanning lines, its lines starting with `[` and `+`.
        #expect(try TOMLDocument(parsing: "a = [\n  [+1, -2],\n  [ {b = 1} ],\n]\n[t]\nc = 1\n").root.count == 2)
    }

    /// The message of the one problem `toml` has if it is a limit, with its line.
    private func overLimit(_ toml: String, sourceLocation: SourceLocation = #_sourceLocation) -> (message: String, line: Int?)? {
        guard let found = problem(toml, sourceLocation: sourceLocation), case .overLimit(let message) = found.kind else { return nil }
        return (message, found.line)
    }

    private func isOverLimit(_ toml: String) -> Bool {
        problems(toml).contains { if case .overLimit = $0.kind { true } else { false } }
    }

    @Test func aTableHeaderOf100000PartsIsRefusedWithItsLineBeforeTOMLKitSeesIt() throws {
        let deep = try #require(overLimit("refresh_interval = 30\n\n[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]\n"))
        #expect(deep.line == 3)
        #expect(deep.message.hasPrefix("nested more than \(TOMLDocument.Limits.maxDepth) levels deep"))
        let dotted = "[" + Array(repeating: "a", count: TOMLDocument.Limits.maxDepth).joined(separator: " . ")
        #expect(!isOverLimit(dotted + "]"))
        #expect(overLimit(dotted + ".b]")?.line == 1)
        #expect(overLimit("[[a]]\n" + Array(repeating: "b", count: TOMLDocument.Limits.maxDepth).joined(separator: ".") + " = 1")?.line == 2)
    }

    @Test func everyKindOfNestingCountsTowardTheDepthLimit() {
        // 20 header parts, 5 key parts and 7 arrays or inline tables: 32 levels.
        let header = "[" + Array(repeating: "t", count: 20).joined(separator: ".") + "]\n"
        let key = #"k.'quoted.key'."x".y.z = "#
        #expect(!isOverLimit(header + key + #"[ [ {a = [ [ ["s"] ] ]} ] ]"#))
        #expect(overLimit(header + key + #"[ [ {a = [ [ [[1]] ] ]} ] ]"#)?.line == 2)
        #expect(overLimit(header + key + "[\n[\n[\n[\n[\n[\n[\n[\n")?.line == 9)
        #expect(overLimit("a = " + String(repeating: "[", count: 100_000))?.line == 1)
        #expect(overLimit("a = " + String(repeating: "{b = ", count: 100_000))?.line == 1)
    }

    @Test func bracketsInStringsAndCommentsAreNotNesting() {
        let brackets = String(repeating: "[{", count: 100)
        #expect(!isOverLimit(#"image_mode = "\#(brackets)\"\\""# + "\n"))
        #expect(!isOverLimit("image_mode = '\(brackets)'\n# \(brackets)\n"))
        #expect(!isOverLimit(#"""
            image_mode = """
            \#(brackets) \""" ""
            \#(brackets)"""""
            """#))
        #expect(!isOverLimit("""
            image_mode = '''
            \(brackets)'
            \(brackets)''''
            """))
        #expect(!isOverLimit("[keys]\ndown = [\n  \"j\", # \(brackets)\n  \"]\",\n]\n"))
        // Lines are counted inside multi-line strings, an escaped line end included.
        #expect(overLimit(#"""
            image_mode = """
            a\
            b
            """
            """# + "\na = " + String(repeating: "[", count: 40))?.line == 5)
    }

    @Test func moreKeysThanTheLimitAreRefusedAtTheFirstOneTooMany() throws {
        let keys = (0..<TOMLDocument.Limits.maxKeys).map { "k\($0) = 1\n" }.joined()
        #expect(problems(keys).count == TOMLDocument.Limits.maxKeys)
        let found = try #require(overLimit(keys + "one_more = 1\n"))
        #expect(found.line == TOMLDocument.Limits.maxKeys + 1)
        #expect(found.message == "more than \(TOMLDocument.Limits.maxKeys) keys, the most a settings file may have")
        #expect(overLimit(String(repeating: "[t]\n", count: 100_000))?.line == TOMLDocument.Limits.maxKeys + 1)
        #expect(overLimit("a = {" + (0..<2_000).map { "k\($0) = 1" }.joined(separator: ", ") + "}")?.line == 1)
    }

    @Test func aFileOverAMebibyteIsRefusedWithoutBeingParsed() {
        let big = "image_mode = \"" + String(repeating: "x", count: TOMLDocument.Limits.maxBytes) + "\"\n"
        #expect(problem(big) == SettingsProblem(kind: .overLimit("it is \(big.utf8.count) bytes, and a settings file may be at most 1048576 (1 MiB)")))
    }

    @Test func unknownKeysSuggestTheNearestKnownOne() {
        #expect(problem("refresh_interval = 30\nrefersh_interval = 10\n")
                == SettingsProblem(line: 2, kind: .unknownKey("refersh_interval", suggestion: "refresh_interval")))
        #expect(problem("\n[colors]\naccent = 1\nunred = 2\n")
                == SettingsProblem(line: 4, kind: .unknownKey("colors.unred", suggestion: "colors.unread")))
        #expect(problem("something_else = 1") == SettingsProblem(line: 1, kind: .unknownKey("something_else", suggestion: nil)))
        #expect(problem("[colors]\nselection = 1\n")?.kind == .unknownKey("colors.selection", suggestion: "colors.selection_background"))
    }

    @Test func wrongTypesNameWhatWasExpected() {
        #expect(problem("# comment\nrefresh_interval = \"30\"\n")
                == SettingsProblem(line: 2, kind: .wrongType(key: "refresh_interval", expected: "a whole number of minutes", found: "a string")))
        #expect(problem("mark_read_on_scroll = 1")?.kind
                == .wrongType(key: "mark_read_on_scroll", expected: "true or false", found: "an integer"))
        #expect(problem("group_by_day = \"yes\"")?.kind
                == .wrongType(key: "group_by_day", expected: "true or false", found: "a string"))
        #expect(problem("\n\nmark_read_after = 2021-01-01")?.line == 3)
        #expect(problem("colors = 3")?.kind == .wrongType(key: "colors", expected: "a table such as [colors]", found: "an integer"))
        #expect(problem("[keys]\nup = 1\n")?.line == 2)
        #expect(problem("[keys]\nup = [\"k\", 2]\n")?.line == 2)
        #expect(problem("[colors]\n\n  dim = true\n")?.line == 3)
    }

    @Test func outOfRangeValuesSayTheRange() {
        #expect(problem("refresh_interval = -1")
                == SettingsProblem(line: 1, kind: .invalidValue(key: "refresh_interval", value: "-1", expected: "0 (never) to 10080 minutes (a week)")))
        #expect(problem("\nmark_read_after = 0.0\n")?.line == 2)
        #expect(problem("mark_read_after = 61")?.kind == .invalidValue(key: "mark_read_after", value: "61", expected: "0.1 to 60 seconds"))
        #expect(problem("[colors]\naccent = 256\n")?.line == 2)
        #expect(problem("[colors]\naccent = \"#12345\"\n")?.line == 2)
        #expect(problem("[colors]\naccent = \"purple\"\n")?.line == 2)
        let mode = problem("image_mode = \"kity\"")
        #expect(mode?.kind == .invalidValue(
            key: "image_mode", value: "\"kity\"", expected: "one of \"auto\", \"kitty\", \"sixel\", \"iterm\", \"blocks\", \"sextants\", \"none\" (did you mean \"kitty\"?)"))
    }

    @Test func unknownActionsAndKeyNamesAreNamed() {
        #expect(problem("[keys]\n\npagedown = \"n\"\n") == SettingsProblem(line: 3, kind: .unknownAction("pagedown", suggestion: "page_down")))
        #expect(problem("[keys]\ndown = [\"j\", \"dwn\"]\n")?.line == 2)
        guard case .badKeyName(let key, let name, _)? = problem("[keys]\ndown = [\"j\", \"dwn\"]\n")?.kind else {
            Issue.record("not a bad key name")
            return
        }
        #expect((key, name) == ("keys.down", "dwn"))
        #expect(problem("[keys]\nquit = \"ctrl+c\"\n")?.kind
                == .badKeyName(key: "keys.quit", name: "ctrl+c", reason: "always quits and cannot be bound"))
    }

    @Test func oneKeyForTwoActionsIsNamedAtTheLaterLine() {
        #expect(problem("[keys]\nstar = \"x\"\ntop = \"g\"\ndown = [\"j\", \"x\"]\n")
                == SettingsProblem(line: 4, kind: .duplicateBinding(key: "x", first: .down, second: .star)))
    }

    @Test func keysInDottedAndQuotedFormsAreFound() {
        #expect(problem("keys.dwn = \"j\"")?.line == 1)
        #expect(problem("[\"keys\"]\n'dwn' = \"j\"\n")?.line == 2)
        #expect(problem("[colors]\naccent = 1\n[keys]\ndown = \"j\" # the = sign in a comment\n\"refresh all\" = \"R\"\n")?.line == 5)
    }

    @Test func linesAreFoundPastMultilineValuesAndComments() {
        let toml = """
            # down = "x" in a comment is no key
            notes = '''
            down = "also no key"
            '''
            [keys]
            up = [
              "k",
              "nope",
            ]
            """
        #expect(problems(toml).map(\.line) == [2, 6])
        #expect(problem("[[keys]]\ndown = \"j\"\n") == SettingsProblem(
            line: 1, kind: .wrongType(key: "keys", expected: "a table such as [keys]", found: "an array")))
        #expect(problem("\nmark_read_after = inf\n")?.kind == .invalidValue(key: "mark_read_after", value: "inf", expected: "0.1 to 60 seconds"))
        #expect(problem("refresh_interval = 30.0")?.kind
                == .wrongType(key: "refresh_interval", expected: "a whole number of minutes", found: "a floating-point number"))
    }

    @Test func everyProblemIsReportedInTheOrderOfTheFile() throws {
        let found = problems("image_mode = \"big\"\nrefresh_interval = true\n[keys]\nsearchh = \"/\"\n")
        #expect(found.map(\.line) == [1, 2, 4])
        let error = SettingsError(file: "/home/ada/.config/scrollwork/config.toml", problems: found)
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1] == "/home/ada/.config/scrollwork/config.toml:2: refresh_interval must be a whole number of minutes, not a boolean")
        #expect(lines[2].hasPrefix("/home/ada/.config/scrollwork/config.toml:4: keys.searchh is not an action (did you mean search?)"))
    }

    @Test func aFileThatCannotBeReadIsNamed() throws {
        let file = try scratch.file("refresh_interval = 30\n[keys]\n  up = 7\n", named: "config.toml")
        #expect(throws: SettingsError.self) { try ReaderSettings.load(from: file) }
        do {
            _ = try ReaderSettings.load(from: file)
        } catch {
            #expect(error.description == "\(file.path):3: keys.up must be a key such as \"j\", or a list of keys such as [\"j\", \"down\"], not an integer")
        }
        let latin1 = scratch.path("latin1.toml")
        try Data([0x23, 0xE9, 0x0A]).write(to: latin1)
        #expect(throws: SettingsError(file: latin1.path, problems: [SettingsProblem(kind: .unreadable("it is not UTF-8 text"))])) {
            try ReaderSettings.load(from: latin1)
        }
        #expect(throws: SettingsError(file: scratch.url.path, problems: [SettingsProblem(kind: .unreadable("it is a directory"))])) {
            try ReaderSettings.load(from: scratch.url)
        }
    }
}
