import TerminalUI
import Testing

/// What the fuzz targets found in the terminal layer (`Scripts/fuzz.sh`), each with its input.
@Suite struct TerminalFuzzFindingTests {
    /// fuzz-input-decoder, whole against in pieces: a letter and the combining mark after it
    /// (`e` U+07F0) were one key when they arrived in one read and two when the mark came in the
    /// next. Text is now a key per Unicode scalar, however it arrives.
    @Test func aCombiningMarkIsAKeyOfItsOwnHoweverItArrives() {
        let bytes = Array("e\u{7F0}\tR👩‍💻".utf8)
        let now = ContinuousClock.Instant.now
        var whole = InputDecoder()
        let wholeEvents = whole.decode(bytes, at: now)
        #expect(wholeEvents.count == 7)
        #expect(wholeEvents.first == .key(KeyPress(.character("e"))))
        for cut in 1..<bytes.count {
            var decoder = InputDecoder()
            let events = decoder.decode(bytes[..<cut], at: now) + decoder.decode(bytes[cut...], at: now)
            #expect(events == wholeEvents, "cut after byte \(cut)")
        }
    }

    /// AddressSanitizer, replaying fuzz-input-decoder's corpus: a run of ESCs recursed once per
    /// ESC (each is Alt on what the next starts), and a long one overflowed the stack. A run is
    /// now read from its last ESC.
    @Test func aLongRunOfEscapesIsOneKeyWithAlt() {
        let now = ContinuousClock.Instant.now
        var decoder = InputDecoder()
        #expect(decoder.decode(Array(repeating: 0x1B, count: 200_000) + Array("a".utf8), at: now) == [.key(KeyPress(.character("a"), .alt))])
        let run = Array(repeating: UInt8(0x1B), count: 1_000)
        let cases: [([UInt8], [InputEvent])] = [
            (run + [0x1B, 0x5B, 0x41], [.key(KeyPress(.up, .alt))]),
            (run + [0x01, 0x02], [.key(KeyPress(.character("a"), [.control, .alt])), .key(KeyPress(.character("b"), .control))]),
            ([0x1B, 0x1B, 0x1B, 0x62], [.key(KeyPress(.character("b"), .alt))]),
        ]
        for (bytes, expected) in cases {
            var whole = InputDecoder()
            #expect(whole.decode(bytes, at: now) == expected)
            var pieces = InputDecoder()
            #expect(bytes.flatMap { pieces.decode([$0], at: now) } == expected, "a byte at a time")
        }
    }
}
