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
}
