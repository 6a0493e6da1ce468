import SeededRandom
import Testing
import TerminalUI

private func key(_ key: Key, _ modifiers: KeyModifiers = []) -> InputEvent {
    .key(KeyPress(key, modifiers))
}

private func char(_ character: Character, _ modifiers: KeyModifiers = []) -> InputEvent {
    .key(KeyPress(.character(character), modifiers))
}

private func mouse(_ action: MouseEvent.Action, _ column: Int, _ row: Int, _ modifiers: KeyModifiers = []) -> InputEvent {
    .mouse(MouseEvent(action, column: column, row: row, modifiers: modifiers))
}

/// Decodes `input` in one read and flushes after the escape timeout.
private func decodeAll(_ input: [UInt8]) -> [InputEvent] {
    var decoder = InputDecoder()
    let start = ContinuousClock.now
    return decoder.decode(input, at: start) + decoder.flush(at: start + .seconds(1))
}

@Suite struct InputDecoderTests {
    static let table: [(String, [InputEvent])] = [
        ("a", [char("a")]),
        // A key per scalar: the skin tone is a key of its own (see TerminalFuzzFindingTests).
        ("Hé日👍🏽", [char("H"), char("é"), char("日"), char("👍"), char("🏽")]),
        ("\r", [key(.enter)]),
        ("\t", [key(.tab)]),
        ("\u{7F}", [key(.backspace)]),
        ("\u{8}", [key(.backspace, .control)]),
        ("\u{1B}", [key(.escape)]),
        ("\u{1}", [char("a", .control)]),
        ("\u{3}", [char("c", .control)]),
        ("\u{1A}", [char("z", .control)]),
        ("\u{0}", [char(" ", .control)]),
        ("\u{1F}", [char("_", .control)]),
        ("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", [key(.up), key(.down), key(.right), key(.left)]),
        ("\u{1B}OA\u{1B}OD", [key(.up), key(.left)]),
        ("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH", [key(.home), key(.end), key(.home), key(.end), key(.home)]),
        ("\u{1B}[5~\u{1B}[6~\u{1B}[2~\u{1B}[3~", [key(.pageUp), key(.pageDown), key(.insert), key(.delete)]),
        ("\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS", [key(.function(1)), key(.function(2)), key(.function(3)), key(.function(4))]),
        ("\u{1B}[15~\u{1B}[17~\u{1B}[18~\u{1B}[19~\u{1B}[20~\u{1B}[21~\u{1B}[23~\u{1B}[24~",
         [5, 6, 7, 8, 9, 10, 11, 12].map { key(.function($0)) }),
        ("\u{1B}[1;5A", [key(.up, .control)]),
        ("\u{1B}[1;2D", [key(.left, .shift)]),
        ("\u{1B}[1;3H", [key(.home, .alt)]),
        ("\u{1B}[3;8~", [key(.delete, [.shift, .alt, .control])]),
        ("\u{1B}[1;5P", [key(.function(1), .control)]),
        ("\u{1B}[Z", [key(.tab, .shift)]),
        ("\u{1B}[13;2u\u{1B}[97;5u", [key(.enter, .shift), char("a", .control)]),
        ("\u{1B}x", [char("x", .alt)]),
        ("\u{1B}é", [char("é", .alt)]),
        ("\u{1B}\u{1}", [char("a", [.alt, .control])]),
        ("\u{1B}\u{7F}", [key(.backspace, .alt)]),
        ("\u{1B}\u{1B}[A", [key(.up, .alt)]),
        ("\u{1B}\u{1B}", [key(.escape, .alt)]),
        ("\u{1B}[", [char("[", .alt)]),
        ("\u{1B}[<0;10;5M\u{1B}[<0;10;5m", [mouse(.press(.left), 9, 4), mouse(.release(.left), 9, 4)]),
        ("\u{1B}[<2;1;1M\u{1B}[<1;3;4M", [mouse(.press(.right), 0, 0), mouse(.press(.middle), 2, 3)]),
        ("\u{1B}[<32;11;5M\u{1B}[<35;12;5M", [mouse(.drag(.left), 10, 4), mouse(.move, 11, 4)]),
        ("\u{1B}[<64;1;1M\u{1B}[<65;1;1M\u{1B}[<80;2;2M", [mouse(.scroll(.up), 0, 0), mouse(.scroll(.down), 0, 0), mouse(.scroll(.up), 1, 1, .control)]),
        ("\u{1B}[<4;200;100M", [mouse(.press(.left), 199, 99, .shift)]),
        ("\u{1B}[<128;1;1M", [mouse(.press(.other(8)), 0, 0)]),
        ("\u{1B}[I\u{1B}[O", [.focusGained, .focusLost]),
        ("\u{1B}[200~hello\u{1B}[A\r\u{3}world\u{1B}[201~x", [.paste("hello\u{1B}[A\r\u{3}world"), char("x")]),
        ("\u{1B}[200~\u{1B}[201~", [.paste("")]),
        ("\u{1B}[?2026;2$y\u{1B}[?62;22c", [.modeReport(mode: 2026, state: 2), .deviceAttributes([62, 22])]),
        ("\u{1B}[?63;1;2;4;6;9;15;22c", [.deviceAttributes([63, 1, 2, 4, 6, 9, 15, 22])]),
        ("\u{1B}[6;18;9t", [.cellSizeReport(CellPixelSize(width: 9, height: 18))]),
        ("\u{1B}[4;720;1280t", [.windowPixelSizeReport(width: 1280, height: 720)]),
        ("\u{1B}P>|XTerm(379)\u{1B}\\x", [.terminalVersion("XTerm(379)"), char("x")]),
        ("\u{1B}Px", [char("P", .alt), char("x")]),
        ("\u{1B}_Gi=31;OK\u{1B}\\x", [.kittyGraphicsReply("i=31;OK"), char("x")]),
        ("\u{1B}_x", [char("_", .alt), char("x")]),
    ]

    @Test(arguments: table)
    func decodesInOneRead(_ input: String, _ expected: [InputEvent]) {
        #expect(decodeAll(Array(input.utf8)) == expected)
    }

    @Test(arguments: table)
    func decodesTheSameOneByteAtATime(_ input: String, _ expected: [InputEvent]) {
        var decoder = InputDecoder()
        let start = ContinuousClock.now
        var events: [InputEvent] = []
        for byte in input.utf8 { events += decoder.decode([byte], at: start) }
        events += decoder.flush(at: start + .seconds(1))
        // Text split across reads arrives one scalar at a time; compare the keys' text.
        #expect(Self.flattened(events) == Self.flattened(expected))
    }

    /// Events with each character key split into one key per scalar.
    static func flattened(_ events: [InputEvent]) -> [InputEvent] {
        events.flatMap { event -> [InputEvent] in
            guard case .key(let press) = event, case .character(let character) = press.key else { return [event] }
            return character.unicodeScalars.map { .key(KeyPress(.character(Character($0)), press.modifiers)) }
        }
    }

    @Test func holdsALoneEscapeUntilTheTimeout() {
        var decoder = InputDecoder(escapeTimeout: .milliseconds(50))
        let start = ContinuousClock.now
        #expect(decoder.decode([0x1B], at: start).isEmpty)
        #expect(decoder.deadline == start + .milliseconds(50))
        #expect(decoder.flush(at: start + .milliseconds(49)).isEmpty)
        #expect(decoder.decode(Array("[A".utf8), at: start + .milliseconds(10)) == [key(.up)])
        #expect(decoder.deadline == nil)

        #expect(decoder.decode([0x1B], at: start + .milliseconds(100)).isEmpty)
        #expect(decoder.flush(at: start + .milliseconds(150)) == [key(.escape)])
        #expect(decoder.decode(Array("[A".utf8), at: start + .milliseconds(160)) == [char("["), char("A")])
    }

    @Test func waitsForTheRestOfASplitCharacter() {
        var decoder = InputDecoder()
        let now = ContinuousClock.now
        let bytes = Array("日".utf8)
        #expect(decoder.decode(bytes[0..<1], at: now).isEmpty)
        #expect(decoder.decode(bytes[1..<2], at: now).isEmpty)
        #expect(decoder.decode(bytes[2...] + [0x61], at: now) == [char("日"), char("a")])
    }

    @Test(arguments: [
        ("\u{1B}[1;2\u{1B}[A", [key(.up)]),
        ("\u{1B}[99zb", [char("b")]),
        ("\u{1B}[<0;1M\u{1B}[B", [key(.down)]),
        ("\u{1B}[1;99A\u{1B}[C", [key(.right)]),
        ("\u{FF}a\u{80}b", [char("a"), char("b")]),
        ("\u{1B}[" + String(repeating: "1", count: 500) + "Ac", [char("c")]),
        ("\u{1B}[12\u{3}", [char("c", .control)]),
        ("\u{1B}[1;5", []),
    ] as [(String, [InputEvent])])
    func dropsGarbageAndKeepsTheKeysAfterIt(_ input: String, _ expected: [InputEvent]) {
        // Latin-1 for the invalid UTF-8 cases: each scalar below 256 is one byte.
        let bytes = input.unicodeScalars.allSatisfy { $0.value < 256 } ? input.unicodeScalars.map { UInt8($0.value) } : Array(input.utf8)
        #expect(decodeAll(bytes) == expected)
    }

    @Test func aPasteWithoutItsEndIsDeliveredAtTheSizeLimit() {
        var decoder = InputDecoder(maxPasteLength: 8)
        let now = ContinuousClock.now
        let events = decoder.decode(Array("\u{1B}[200~0123456789abcdef".utf8), at: now)
        #expect(events == [.paste("01234567"), char("8"), char("9")] + "abcdef".map { char($0) })
        #expect(decoder.decode(Array("\u{1B}[A".utf8), at: now).contains(key(.up)))
    }

    /// Random streams of keys, text, mouse events, pastes and garbage, cut into random reads:
    /// the events are exactly the keys', in order, whatever the cuts and the garbage.
    @Test func decodesRandomStreamsCutAnywhere() {
        let seed = randomizedTestSeed()
        print("InputDecoderTests fuzz: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let valid = Self.table.filter { $0.0 != "\u{1B}" && $0.0 != "\u{1B}\u{1B}" && $0.0 != "\u{1B}[" }
        let garbage: [String] = ["\u{1B}[1;2", "\u{1B}[99z", "\u{1B}[<0;1M", "\u{1B}[1;99A", "\u{1B}[" + String(repeating: "7", count: 100) + "q"]
        for round in 0..<300 {
            var stream: [UInt8] = []
            var expected: [InputEvent] = []
            /// Where a lone Escape ends: the stream pauses there past the timeout.
            var pauses: Set<Int> = []
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0:
                    // Garbage must not run into what follows, so a key sequence follows it.
                    stream += Array(garbage.randomElement(using: &random)!.utf8) + Array("\u{1B}[A".utf8)
                    expected.append(key(.up))
                case 1:
                    stream.append(0x1B)
                    pauses.insert(stream.count)
                    expected.append(key(.escape))
                case 2:
                    let content = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                    guard !content.contains(0x1B) else { continue }
                    stream += Array("\u{1B}[200~".utf8) + content + Array("\u{1B}[201~".utf8)
                    expected.append(.paste(String(decoding: content, as: UTF8.self)))
                default:
                    let (input, events) = valid.randomElement(using: &random)!
                    stream += Array(input.utf8)
                    expected += events
                }
            }
            var decoder = InputDecoder()
            var now = ContinuousClock.now
            var events: [InputEvent] = []
            var index = 0
            while index < stream.count {
                var end = min(stream.count, index + Int.random(in: 1...12, using: &random))
                if let pause = pauses.filter({ $0 > index && $0 <= end }).min() { end = pause }
                events += decoder.decode(stream[index..<end], at: now)
                now += .milliseconds(1)
                if pauses.contains(end) {
                    now += .milliseconds(100)
                    events += decoder.flush(at: now)
                }
                index = end
            }
            events += decoder.flush(at: now + .seconds(1))
            guard Self.flattened(events) == Self.flattened(expected) else {
                Issue.record("seed \(seed), round \(round): decoded \(events), expected \(expected) from \(stream)")
                return
            }
        }
    }

    /// Random bytes, then the end of a paste and a key: the decoder never traps, never holds
    /// on to the soup, and the key after it comes through.
    @Test func recoversFromRandomBytes() {
        let seed = randomizedTestSeed()
        print("InputDecoderTests byte soup: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let alphabet: [UInt8] = Array("\u{1B}[O<;~0123456789ABCDHFPZIMmu$?c".utf8) + [0x00, 0x03, 0x7F, 0x80, 0xC3, 0xE6, 0xF0, 0xFF]
        for round in 0..<2_000 {
            let soup = (0..<Int.random(in: 0...60, using: &random)).map { _ in
                Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            var decoder = InputDecoder()
            let now = ContinuousClock.now
            var index = 0
            while index < soup.count {
                let end = min(soup.count, index + Int.random(in: 1...8, using: &random))
                _ = decoder.decode(soup[index..<end], at: now)
                index = end
            }
            _ = decoder.decode(Array("\u{1B}[201~".utf8), at: now)
            _ = decoder.flush(at: now + .seconds(1))
            let events = decoder.decode(Array("\u{1B}[Bx".utf8), at: now + .seconds(1))
            guard events.suffix(2) == [key(.down), char("x")] else {
                Issue.record("seed \(seed), round \(round): after \(soup) the decoder gave \(events)")
                return
            }
        }
    }

    @Test func capabilitiesComeFromTheReplies() {
        #expect(TerminalCapabilities(replies: decodeAll(Array("\u{1B}[?2026;2$y\u{1B}[6;20;10t\u{1B}[?62c".utf8)))
            == TerminalCapabilities(synchronizedOutput: true, cellPixelSize: CellPixelSize(width: 10, height: 20), answered: true))
        #expect(TerminalCapabilities(replies: decodeAll(Array("\u{1B}[?2026;0$y\u{1B}[?62c".utf8))) == TerminalCapabilities(answered: true))
        #expect(TerminalCapabilities(replies: [.deviceAttributes([62])]) == TerminalCapabilities(answered: true))
        #expect(TerminalCapabilities(replies: decodeAll(Array("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4;6c".utf8)))
            == TerminalCapabilities(sixel: true, terminalVersion: "XTerm(379)", answered: true))
        // The text area in pixels over the cells, when the terminal gives no cell size.
        #expect(TerminalCapabilities(replies: [.windowPixelSizeReport(width: 800, height: 480)], cells: (80, 24)).cellPixelSize
            == CellPixelSize(width: 10, height: 20))
        // A 4 in the first parameter is the terminal's class, not sixel.
        #expect(!TerminalCapabilities(replies: [.deviceAttributes([4])]).sixel)
        #expect(TerminalCapabilities(replies: [.kittyGraphicsReply("i=31;OK")]).kittyGraphics)
        #expect(!TerminalCapabilities(replies: [.kittyGraphicsReply("i=31;ENOTSUPPORTED:no")]).kittyGraphics)
    }

    @Test func throughTmuxTheAnswersAfterItsOwnAreTheTerminalsOutsideIt() {
        // What tmux 3.3a in kitty 0.26.5 answered query(throughTmux: true), recorded, with
        // allow-passthrough on and off.
        let on = "\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[6;18;9t\u{1B}[?62;c"
        let off = "\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c"
        let passed = TerminalCapabilities(replies: decodeAll(Array(on.utf8)), throughTmux: true)
        #expect(passed.terminalVersion == "tmux 3.3a" && !passed.kittyGraphics && passed.cellPixelSize == nil && passed.answered)
        #expect(passed.outer == .init(kittyGraphics: true, terminalVersion: "kitty(0.26.5)", cellPixelSize: CellPixelSize(width: 9, height: 18)))
        // kitty 0.26.5 has no placeholders, which a pane needs; a later kitty has.
        let (found, reason) = PictureProtocol.detect(passed, environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
        #expect(found == .blocks && reason.contains("kitty(0.26.5)") && reason.contains("Unicode placeholders"))
        var later = passed
        later.outer?.terminalVersion = "kitty(0.28.1)"
        #expect(PictureProtocol.detect(later, environment: ["TMUX": "/tmp/tmux-0/default,1,0"]).0 == .kitty)
        let stopped = TerminalCapabilities(replies: decodeAll(Array(off.utf8)), throughTmux: true)
        #expect(stopped.outer == nil)
        let (blocks, why) = PictureProtocol.detect(stopped, environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
        #expect(blocks == .blocks && why.contains("allow-passthrough"))
        // From a pane behind, the terminal outside is not asked, and the reason says so.
        let behind = TerminalCapabilities(replies: decodeAll(Array(off.utf8)), throughTmux: false)
        #expect(PictureProtocol.detect(behind, environment: ["TMUX": "/tmp/tmux-0/default,1,0"]).reason.contains("was not asked"))
        // Not through tmux, a second terminal's answers are not looked for.
        #expect(TerminalCapabilities(replies: decodeAll(Array(on.utf8))).outer == nil)
        #expect(TerminalCapabilities.answerCount(throughTmux: true) == 2)
        // The questions for the terminal outside reach it, through the passthrough.
        var outside = InMemoryTerminal(columns: 10, rows: 2)
        outside.apply(TerminalCapabilities.query(throughTmux: true))
        #expect(outside.queries.filter { $0 == "^[[c" }.count == 2 && outside.unsupported.isEmpty)
        // tmux takes a bare APC for the pane's title: the kitty query goes only wrapped, its
        // ESC doubled.
        let query = TerminalCapabilities.query(throughTmux: true)
        let apcs = query.indices.dropLast().filter { query[$0] == 0x1B && query[$0 + 1] == 0x5F }
        #expect(!apcs.isEmpty && apcs.allSatisfy { $0 > 0 && query[$0 - 1] == 0x1B })
        // Inside tmux but not asking outside it (a pane behind): tmux's own questions only.
        let own = TerminalCapabilities.query(throughTmux: false, insideTmux: true)
        #expect(!own.contains(0x5F) && !String(decoding: own, as: UTF8.self).contains("tmux;") && own.suffix(3) == Array("\u{1B}[c".utf8))
    }

    @Test func aPendingAltPIsAltPOnceTheDeadlinePasses() {
        var decoder = InputDecoder()
        let now = ContinuousClock.now
        #expect(decoder.decode(Array("\u{1B}P".utf8), at: now).isEmpty)
        #expect(decoder.flush(at: now + .seconds(1)) == [char("P", .alt)])
    }
}
