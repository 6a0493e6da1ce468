import SeededRandom
import Testing
@testable import ScrollworkReader

/// TOML 1.0's grammar, checked before TOMLKit's toml++ reads a settings file: toml++ asserts,
/// which aborts the reader, on some mistakes, so it only ever sees TOML.
@Suite struct TOMLGrammarTests {
    private func mistake(_ text: String) -> (message: String, line: Int, column: Int)? {
        do {
            try TOMLDocument.Grammar.check(text)
            return nil
        } catch {
            guard case .syntax(let message, let line, let column) = error else { return nil }
            return (message, line, column)
        }
    }

    /// Found by fuzz-settings: toml++ asserted on a number's text after a key's value (in its
    /// reading of a date-like value), which aborted the reader.
    @Test func whatFollowsAValueOnItsLineIsCheckedBeforeTOMLKitReadsIt() throws {
        for fuzzed in ["svabva = 4=-%-2---- 9 }-", "a = 4=-%-2---- 9 }"] {
            let found = try #require(mistake(fuzzed), "\(fuzzed)")
            #expect(found.line == 1)
            #expect(found.column == fuzzed.distance(from: fuzzed.startIndex, to: fuzzed.lastIndex(of: "=")!) + 1)
            #expect(found.message == "after a key's value, the line ends (or a comment starts, with '#'), not '=-%-2----'")
            #expect(throws: TOMLDocument.ReadError.self) { try TOMLDocument(parsing: fuzzed) }
        }
    }

    /// Found by the edits below: TOMLKit crashed (a force unwrap in its table's iterator) on a
    /// key holding an escaped NUL, which it looks up by the name cut short at the NUL.
    @Test func anEscapedNULIsRefusedInKeysAndStrings() throws {
        let texts = [#""k\u0000e9" = 1"#, #"a = { "\U00000000" = 1 }"#, #"a = "x\u0000y""#, "a = \"\"\"\\u0000\"\"\""]
        for text in texts {
            let found = try #require(mistake(text), "\(text)")
            #expect(found.message.hasSuffix("a NUL character, cannot be in a settings file"), "\(found.message)")
            #expect(throws: TOMLDocument.ReadError.self) { try TOMLDocument(parsing: text) }
        }
        #expect(mistake(#"a = "\u0001""#) == nil)
    }

    /// The examples of TOML 1.0's specification, each kind of key, string, number, date,
    /// array and table: every one reads, through the grammar and then TOMLKit.
    @Test func everyExampleOfTheSpecificationReads() throws {
        let documents = [
            #"""
            # This is a TOML document
            key = "value"   # a comment
            bare_key = "value"
            bare-key = "value"
            1234 = "value"
            "127.0.0.1" = "value"
            "character encoding" = "value"
            "ʎǝʞ" = "value"
            'key2' = "value"
            'quoted "value"' = "value"
            "" = "blank"
            physical.color = "orange"
            physical.shape = "round"
            site."google.com" = true
            fruit . flavor = "banana"
            3.14159 = "pi"
            """#,
            #"""
            str = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF.\U0001F600"
            str1 = """
            Roses are red
            Violets are blue"""
            str2 = """
            The quick brown \


              fox jumps over \
                the lazy dog."""
            str3 = """\
                   The quick brown \
                   fox jumps over \
                   the lazy dog.\
                   """
            str4 = """Here are two quotation marks: "". Simple enough."""
            str5 = """Here are three quotation marks: ""\"."""
            str6 = """Here are fifteen quotation marks: ""\"""\"""\"""\"""\"."""
            str7 = """"This," she said, "is just a pointless statement.""""
            winpath  = 'C:\Users\nodejs\templates'
            quoted   = 'Tom "Dubs" Preston-Werner'
            regex    = '<\i\c*\s*>'
            regex2 = '''I [dw]on't need \d{2} apples'''
            lines  = '''
            The first newline is
            trimmed in raw strings.
               All other whitespace
               is preserved.
            '''
            quot15 = '''Here are fifteen quotation marks: """""""""""""""'''
            apos15 = "Here are fifteen apostrophes: '''''''''''''''"
            str8 = ''''That,' she said, 'is still pointless.''''
            tab = "a	tab"
            """#,
            """
            int1 = +99
            int2 = 42
            int3 = 0
            int4 = -17
            int5 = 1_000
            int6 = 5_349_221
            int7 = 53_49_221
            int8 = 1_2_3_4_5
            int9 = -9223372036854775808
            int10 = 9223372036854775807
            hex1 = 0xDEADBEEF
            hex2 = 0xdeadbeef
            hex3 = 0xdead_beef
            hex4 = 0x7FFFFFFFFFFFFFFF
            oct1 = 0o01234567
            oct2 = 0o755
            bin1 = 0b11010110
            flt1 = +1.0
            flt2 = 3.1415
            flt3 = -0.01
            flt4 = 5e+22
            flt5 = 1e06
            flt6 = -2E-2
            flt7 = 6.626e-34
            flt8 = 224_617.445_991_228
            flt9 = -0.0
            flt10 = +0.0
            sf1 = inf
            sf2 = +inf
            sf3 = -inf
            sf4 = nan
            sf5 = +nan
            sf6 = -nan
            bool1 = true
            bool2 = false
            """,
            """
            odt1 = 1979-05-27T07:32:00Z
            odt2 = 1979-05-27T00:32:00-07:00
            odt3 = 1979-05-27T00:32:00.999999-07:00
            odt4 = 1979-05-27 07:32:00Z
            odt5 = 1979-05-27t07:32:00z
            ldt1 = 1979-05-27T07:32:00
            ldt2 = 1979-05-27T00:32:00.999999
            ld1 = 1979-05-27
            ld2 = 2000-02-29 # a leap day
            lt1 = 07:32:00
            lt2 = 00:32:00.999999
            """,
            """
            integers = [ 1, 2, 3 ]
            colors = [ "red", "yellow", "green" ]
            nested_arrays_of_ints = [ [ 1, 2 ], [3, 4, 5] ]
            nested_mixed_array = [ [ 1, 2 ], ["a", "b", "c"] ]
            string_array = [ "all", 'strings', \"""are the same\""", '''type''' ]
            numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]
            contributors = [
              "Foo Bar <foo@example.com>",
              { name = "Baz Qux", email = "bazqux@example.com", url = "https://example.com/bazqux" }
            ]
            integers2 = [
              1, 2, 3
            ]
            integers3 = [
              1,
              2, # this is ok
            ]
            empty = [ ]
            commented = [ # first
              # alone
              [], {} , # after
            ]
            name = { first = "Tom", last = "Preston-Werner" }
            point = { x = 1, y = 2 }
            animal = { type.name = "pug" }
            none = {}
            """,
            """
            [table-1]
            key1 = "some string"
            key2 = 123

            [dog."tater.man"]
            type.name = "pug"

            [a.b.c]            # this is best practice
            [ d.e.f ]          # same as [d.e.f]
            [ g .  h  . i ]    # same as [g.h.i]
            [ j . "ʞ" . 'l' ]  # same as [j."ʞ".'l']

            [x.y.z.w]
            [x]

            [[products]]
            name = "Hammer"
            sku = 738594937

            [[products]]  # empty table within the array

            [[products]]
            name = "Nail"
            sku = 284758393
            color = "gray"

            [[fruits]]
            name = "apple"
            [fruits.physical]
            color = "red"
            [[fruits.varieties]]
            name = "red delicious"
            [[ fruits.varieties ]]
            name = "granny smith"
            """,
            "\u{FEFF}# after a byte order mark, with Windows line ends\r\na = 1\r\nb = \"\"\"\r\nx\r\n\"\"\"\r\n[t] # c\r\n",
            "",
            "\n\n   \t\n# only a comment",
        ]
        for document in documents {
            #expect(mistake(document) == nil, "\(mistake(document).map { "\($0)" } ?? "")\n\(document)")
            #expect(throws: Never.self, "\(document)") { try TOMLDocument(parsing: document) }
        }
    }

    /// Each mistake is found where it is, by the grammar, before toml++ sees it.
    @Test func mistakesAreFoundWhereTheyAre() {
        let mistakes: [(text: String, line: Int, column: Int)] = [
            ("a = 1 2", 1, 7),
            ("a = \"x", 1, 5),
            ("a = \"x\nb = 1", 1, 5),
            ("a = 'x", 1, 5),
            ("a = '''x\n\n", 1, 5),
            ("a = \"\"\"x\"\"", 1, 5),
            ("a = 01", 1, 5),
            ("a = 1__0", 1, 6),
            ("a = 1_", 1, 6),
            ("a = _1", 1, 5),
            ("a = 0x", 1, 7),
            ("a = 0xG", 1, 7),
            ("a = +0x10", 1, 7),
            ("a = 1.", 1, 7),
            ("a = .5", 1, 5),
            ("a = 1e", 1, 7),
            ("a = 1.e5", 1, 7),
            ("a = infinity", 1, 8),
            ("a = 9223372036854775808", 1, 5),
            ("a = -9223372036854775809", 1, 5),
            ("a = 0x8000000000000000", 1, 5),
            ("a = 1979-13-01", 1, 5),
            ("a = 1979-02-29", 1, 5),
            ("a = 1979-04-31", 1, 5),
            ("a = 1979-05-27T25:00:00", 1, 16),
            ("a = 1979-05-27T07:32", 1, 21),
            ("a = 07:32", 1, 10),
            ("a = 07:32:00.", 1, 14),
            ("a = 1979-05-27T07:32:00+24:00", 1, 24),
            ("a = 1979-05-27T07:32:00+0700", 1, 27),
            ("a = 07:32:00Z", 1, 13),
            ("a = 1979-05-27 # c\nb = 1979-05-27 x", 2, 16),
            ("a = tru", 1, 5),
            ("a = truex", 1, 9),
            ("a = TRUE", 1, 5),
            ("a = [1 2]", 1, 8),
            ("a = [,]", 1, 6),
            ("a = [1,,]", 1, 8),
            ("a = [1", 1, 7),
            ("a = [\n1,\n2\n3]", 4, 1),
            ("a = {b = 1,}", 1, 12),
            ("a = {b = 1\n}", 1, 11),
            ("a = {\nb = 1}", 1, 6),
            ("a = {b = 1 c = 2}", 1, 12),
            ("a = \"\\x\"", 1, 6),
            ("a = \"\\uD800\"", 1, 6),
            ("a = \"\\U00110000\"", 1, 6),
            ("a = \"\\u12\"", 1, 6),
            ("a = \"\"\"\\ x\"\"\"", 1, 8),
            ("a = \"\"\"\n\"\"\"\"\"\"", 2, 6),
            ("a =", 1, 4),
            ("a = # nothing", 1, 5),
            ("a = \n", 1, 5),
            ("a\n= 1", 1, 2),
            ("= 1", 1, 1),
            ("a.b. = 1", 1, 6),
            ("a..b = 1", 1, 3),
            ("\"\"\"a\"\"\" = 1", 1, 1),
            ("a b = 1", 1, 3),
            ("[a", 1, 3),
            ("[a]]", 1, 4),
            ("[[a]", 1, 5),
            ("[[a] ]", 1, 5),
            ("[ [a]]", 1, 3),
            ("[]", 1, 2),
            ("[a] b = 1", 1, 5),
            ("[a.]", 1, 4),
            ("a = 1\nb = 2\n  c", 3, 4),
            ("a = 1\r", 1, 6),
            ("a = 1 # ok\u{7F}", 1, 11),
            ("a = \"\u{1B}[31m\"", 1, 6),
            ("a = '\u{0}'", 1, 6),
            ("# \u{0C}", 1, 3),
            ("é = 1", 1, 1),
            ("a = é", 1, 5),
        ]
        for (text, line, column) in mistakes {
            let found = mistake(text)
            #expect(found?.line == line && found?.column == column, "\(text.debugDescription): \(found.map { "\($0)" } ?? "no mistake found")")
            if let message = found?.message {
                #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(message.debugDescription)")
            }
        }
    }

    /// The messages say what was due and quote what was found, a control character named.
    @Test func aMistakesMessageSaysWhatWasDueAndWhatWasFound() {
        #expect(mistake("a = 1 2")?.message == "after a key's value, the line ends (or a comment starts, with '#'), not '2'")
        #expect(mistake("a = [1 2]")?.message == "an array's values are separated by ',' and it ends with ']', not '2'")
        #expect(mistake("a = nope")?.message
            == "a value (a string, a number, true, false, a date, an array or an inline table) is due here, not 'nope'")
        #expect(mistake("a = 9223372036854775808")?.message == "9223372036854775808 does not fit a 64-bit integer")
        #expect(mistake("a = 1979-02-29")?.message == "1979-02-29 has no day 29")
        #expect(mistake("[a")?.message == "a table's header ends with ']' after its name, not the end of the file")
        #expect(mistake("a = \"\u{1B}\"")?.message == "a control character (U+001B) is not allowed in TOML")
        #expect(mistake("a = 1\rb = 2")?.message == "a control character (U+000D) is allowed in TOML only before a line feed")
        #expect(mistake("a = \(String(repeating: "x", count: 40))")?.message.hasSuffix("'xxxxxxxxxxxxxxxx…'") == true)
        // The escape as written; a long number cut; a word ends before a carriage return.
        #expect(mistake(#"a = "C:\data""#)?.message.hasSuffix("not '\\d'") == true, "\(mistake(#"a = "C:\data""#)?.message ?? "")")
        #expect(mistake("a = \(String(repeating: "9", count: 100_000))")?.message == String(repeating: "9", count: 24) + "… does not fit a 64-bit integer")
        #expect(mistake("a = tru\r\n")?.message.hasSuffix("not 'tru'") == true)
        let sign = mistake("a = +x")
        #expect(sign?.column == 5 && sign?.message.hasSuffix("not '+x'") == true, "\(String(describing: sign))")
    }

    /// Random documents, written in every way TOML allows a value to be written, read back
    /// through the grammar and TOMLKit as the values they were written from.
    @Test func randomDocumentsReadAsTheValuesTheyWereWrittenFrom() throws {
        let seed = randomizedTestSeed()
        print("TOMLGrammarTests seed \(seed) (SCROLLWORK_SEED replays it)")
        var writer = RandomTOMLWriter(seed: seed)
        for _ in 0..<300 {
            let (text, values) = writer.document()
            if let found = mistake(text) {
                Issue.record("seed \(seed): \(found)\n\(text)")
                return
            }
            let document = try TOMLDocument(parsing: text)
            var read: [String: String] = [:]
            Self.flatten(.table(document.root), path: "", into: &read)
            #expect(read == values, "seed \(seed):\n\(text)")
        }
    }

    /// Random documents cut, patched and spliced: each one is TOML by the grammar or a syntax
    /// error, and TOMLKit reads only the first (an assertion in toml++ would end the run).
    @Test func editedDocumentsAreTOMLOrAMistakeNeverAnAbort() {
        let seed = randomizedTestSeed()
        print("TOMLGrammarTests seed \(seed) (SCROLLWORK_SEED replays it)")
        var writer = RandomTOMLWriter(seed: seed)
        var random = SeededGenerator(seed: seed ^ 0xED17)
        let alphabet = Array("[]{}=,.\"'#\n \t\\-+_:0123456789eExobTZinaf".unicodeScalars)
        var accepted = 0
        for _ in 0..<1_000 {
            var scalars = Array(writer.document().text.unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0...scalars.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !scalars.isEmpty:
                    scalars.removeSubrange(min(at, scalars.count - 1)..<min(scalars.count, at + Int.random(in: 1...4, using: &random)))
                case 1:
                    scalars.insert(alphabet.randomElement(using: &random)!, at: at)
                default:
                    let from = Int.random(in: 0...scalars.count, using: &random)
                    scalars.insert(contentsOf: scalars[from..<min(scalars.count, from + 8)], at: at)
                }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            do {
                _ = try TOMLDocument(parsing: String(text))
                accepted += 1
            } catch {
                if case .syntax(let message, _, _) = error {
                    #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "seed \(seed)")
                }
            }
        }
        #expect(accepted > 0, "seed \(seed): no edit left TOML")
    }

    /// `value` as leaves by their path (`a.b.0`), each `type:text`.
    private static func flatten(_ value: TOMLDocument.Value, path: String, into leaves: inout [String: String]) {
        let prefix = path.isEmpty ? "" : path + "."
        switch value {
        case .table(let entries):
            if entries.isEmpty, !path.isEmpty { leaves[path] = "{}" }
            for (key, value) in entries { flatten(value, path: prefix + key, into: &leaves) }
        case .array(let values):
            if values.isEmpty { leaves[path] = "[]" }
            for (index, value) in values.enumerated() { flatten(value, path: prefix + "\(index)", into: &leaves) }
        case .string(let string): leaves[path] = "s:" + string
        case .integer(let integer): leaves[path] = "i:\(integer)"
        case .float(let float): leaves[path] = "f:\(float)"
        case .boolean(let boolean): leaves[path] = "b:\(boolean)"
        case .other(let name): leaves[path] = name
        }
    }
}

/// Random TOML documents and the leaves they hold (as ``TOMLGrammarTests`` flattens them):
/// bare, quoted and dotted keys; strings of all four kinds with escapes, quotes and Unicode;
/// integers in every base with `_`; floats; booleans; dates and times of each form; arrays
/// over lines with comments; inline tables; tables and arrays of tables; `\n` or `\r\n`.
private struct RandomTOMLWriter {
    private var random: SeededGenerator
    private var text = ""
    private var leaves: [String: String] = [:]
    private var newline = "\n"
    private var counter = 0

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func document() -> (text: String, values: [String: String]) {
        text = ""
        leaves = [:]
        newline = chance(4) ? "\r\n" : "\n"
        if chance(10) { text += "\u{FEFF}" }
        for _ in 0..<int(0...3) { statement(table: "") }
        for table in 0..<int(0...3) {
            let name = "t\(table)"
            if chance(3) {
                // An array of tables, two of them.
                for element in 0..<2 {
                    line("[[" + blanks() + name + blanks() + "]]" + comment())
                    let before = leaves.count
                    for _ in 0..<int(0...2) { statement(table: "\(name).\(element)") }
                    if leaves.count == before { leaves["\(name).\(element)"] = "{}" }
                }
            } else {
                let sub = chance(2) ? "sub \(table)" : "sub\(table)"
                let written = sub.contains(" ") ? "\"\(sub)\"" : sub
                line("[" + blanks() + name + blanks() + "." + blanks() + written + blanks() + "]" + comment())
                let header = "\(name).\(sub)"
                let before = leaves.count
                for _ in 0..<int(0...3) { statement(table: header) }
                if leaves.count == before { leaves[header] = "{}" }
            }
        }
        return (text, leaves)
    }

    /// A key and its value on a line of its own (or a blank or comment line), in `table`.
    private mutating func statement(table: String) {
        if chance(6) {
            line(chance(2) ? "" : blanks() + "# a comment: [x] = \"y\"")
            return
        }
        let (written, path) = key()
        var value = ""
        write(&value, at: (table.isEmpty ? "" : table + ".") + path, depth: 0)
        line(blanks() + written + blanks() + "=" + blanks() + value + comment())
    }

    /// A new key, as written and as its path: bare, quoted (basic or literal) or dotted.
    private mutating func key() -> (written: String, path: String) {
        counter += 1
        let name = "k\(counter)"
        switch int(0..<4) {
        case 0: return (name, name)
        case 1: return ("\"\(name) é\\t\\u00E9\"", "\(name) é\té")
        case 2: return ("'\(name) \"x\"'", "\(name) \"x\"")
        default: return (name + blanks() + "." + blanks() + "inner", name + ".inner")
        }
    }

    private mutating func write(_ out: inout String, at path: String, depth: Int) {
        switch int(0..<(depth < 3 ? 9 : 7)) {
        case 0: integer(&out, at: path)
        case 1: float(&out, at: path)
        case 2:
            let value = chance(2)
            out += "\(value)"
            leaves[path] = "b:\(value)"
        case 3, 4: string(&out, at: path)
        case 5: date(&out, at: path)
        case 6: string(&out, at: path)
        case 7: array(&out, at: path, depth: depth + 1)
        default: inlineTable(&out, at: path, depth: depth + 1)
        }
    }

    private mutating func integer(_ out: inout String, at path: String) {
        let value = Int.random(in: -1_000_000_000...1_000_000_000, using: &random) * (chance(8) ? 9_000_000 : 1)
        leaves[path] = "i:\(value)"
        if value >= 0, chance(3) {
            let (prefix, radix) = [("0x", 16), ("0o", 8), ("0b", 2)][int(0..<3)]
            var digits = String(value, radix: radix, uppercase: chance(2))
            if chance(4) { digits = "0" + digits }
            out += prefix + underscored(digits)
            return
        }
        let sign = value < 0 ? "-" : chance(4) ? "+" : ""
        out += sign + underscored(String(value.magnitude))
    }

    private mutating func float(_ out: inout String, at path: String) {
        if chance(8) {
            let text = ["inf", "+inf", "-inf"][int(0..<3)]
            out += text
            leaves[path] = "f:\(text == "-inf" ? -Double.infinity : .infinity)"
            return
        }
        let whole = int(-99_999...99_999)
        let fraction = String(int(0...999))
        let exponent = chance(3) ? "e\(["", "+", "-"][int(0..<3)])\(int(0...30))" : ""
        let written = (whole < 0 ? "-" : "") + underscored(String(whole.magnitude)) + (exponent.isEmpty || chance(2) ? "." + fraction : "") + (chance(2) ? exponent.uppercased() : exponent)
        out += written
        leaves[path] = "f:\(Double(written.replacing("_", with: ""))!)"
    }

    /// `digits` with `_` between some of them.
    private mutating func underscored(_ digits: String) -> String {
        guard chance(3), digits.count > 1 else { return digits }
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, chance(3) { out += "_" }
            out.append(digit)
        }
        return out
    }

    private mutating func string(_ out: inout String, at path: String) {
        let pieces = ["a", "Z", " ", "\t", "\"", "'", "\\", "é", "漢", "🙂", "#", "=", "[", "]", "{", "}", ",", "x y", "\n", "\u{85}"]
        var value = ""
        for _ in 0..<int(0...12) { value += pieces[int(0..<pieces.count)] }
        leaves[path] = "s:" + value
        let kind = int(0..<4)
        let literalSafe = !value.contains("'") && !value.contains("\n")
        if kind == 1, literalSafe {
            out += "'" + value + "'"
        } else if kind == 2, !value.contains("'''") {
            // Multi-line literal: a first line end is dropped, so one is added before a value
            // that starts with one; a value may end with one or two quotes before the closing
            // three.
            out += "'''" + (value.hasPrefix("\n") || chance(2) ? "\n" : "") + value + "'''"
        } else if kind == 3 {
            var body = ""
            for character in value {
                switch character {
                case "\\": body += "\\\\"
                case "\"": body += "\\\""
                case "\n": body += chance(2) ? "\n" : "\\n"
                default: body.append(character)
                }
            }
            // A line-ending backslash before the value, with blanks and lines after it, adds nothing.
            let lead = chance(3) && !(body.first.map { $0 == " " || $0 == "\t" || $0 == "\n" } ?? false) ? "\\" + newline + "   " + newline + "  " : ""
            out += "\"\"\"" + (body.hasPrefix("\n") || chance(2) ? newline : "") + lead + body + "\"\"\""
        } else {
            var body = ""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\\": body += "\\\\"
                case "\"": body += "\\\""
                case "\n": body += "\\n"
                case "\t": body += chance(2) ? "\\t" : "\t"
                default:
                    if scalar.value > 0x7F, chance(2) {
                        let hex = String(scalar.value, radix: 16)
                        body += scalar.value > 0xFFFF ? "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                            : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        body.unicodeScalars.append(scalar)
                    }
                }
            }
            out += "\"" + body + "\""
        }
    }

    private mutating func date(_ out: inout String, at path: String) {
        let year = int(1...9999)
        let month = int(1...12)
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let day = int(1...[31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1])
        let date = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        let time = pad(int(0...23), 2) + ":" + pad(int(0...59), 2) + ":" + pad(int(0...59), 2) + (chance(3) ? ".\(int(0...999_999))" : "")
        switch int(0..<4) {
        case 0:
            out += date
            leaves[path] = "a date"
        case 1:
            out += time
            leaves[path] = "a time"
        case 2:
            out += date + ["T", "t", " "][int(0..<3)] + time
            leaves[path] = "a date-time"
        default:
            let offset = ["Z", "z", "+05:30", "-11:00", "+00:00"][int(0..<5)]
            out += date + ["T", "t", " "][int(0..<3)] + time + offset
            leaves[path] = "a date-time"
        }
    }

    private mutating func array(_ out: inout String, at path: String, depth: Int) {
        let count = int(0...3)
        let multiLine = chance(2)
        out += "["
        for index in 0..<count {
            out += multiLine ? newline + "  " : blanks()
            write(&out, at: path + ".\(index)", depth: depth)
            if index < count - 1 || chance(3) { out += blanks() + "," }
            if multiLine, chance(3) { out += " # element \(index) ]," }
        }
        out += (multiLine ? newline : blanks()) + "]"
        if count == 0 { leaves[path] = "[]" }
    }

    private mutating func inlineTable(_ out: inout String, at path: String, depth: Int) {
        let count = int(0...3)
        out += "{" + blanks()
        for index in 0..<count {
            let (written, key) = self.key()
            out += written + blanks() + "=" + blanks()
            write(&out, at: path + "." + key, depth: depth)
            if index < count - 1 { out += blanks() + "," + blanks() }
        }
        out += blanks() + "}"
        if count == 0 { leaves[path] = "{}" }
    }

    private mutating func line(_ content: String) {
        text += content + newline
    }

    private mutating func comment() -> String {
        chance(4) ? blanks() + "# \"not\" = [a value] 🙂" : ""
    }

    private mutating func blanks() -> String {
        ["", "", " ", "\t", "  "][int(0..<5)]
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private mutating func chance(_ oneIn: Int) -> Bool {
        Int.random(in: 0..<oneIn, using: &random) == 0
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    private mutating func int(_ range: Range<Int>) -> Int {
        Int.random(in: range, using: &random)
    }
}
