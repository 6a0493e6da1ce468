import Testing
import TerminalUI

@Suite struct TerminalSanitizerTests {
    /// Every scalar a terminal acts on: C0 but tab and line feed, DEL, C1.
    static let actedOn: [Unicode.Scalar] = {
        let values: [UInt32] = Array(0x00...0x08) + Array(0x0B...0x1F) + Array(0x7F...0x9F)
        return values.compactMap(Unicode.Scalar.init)
    }()

    @Test func showsEscapeSequencesInCaretNotationAndKeepsTheirWords() {
        let title = "Hello \u{1B}]0;PWNED\u{07} \u{1B}[2J world \u{9B}31m"
        #expect(TerminalSanitizer.sanitized(title) == "Hello ^[]0;PWNED^G ^[[2J world \u{FFFD}31m")
    }

    @Test func leavesNoScalarThatATerminalActsOn() {
        for scalar in Self.actedOn {
            let text = "a\(Character(scalar))b"
            let out = TerminalSanitizer.sanitized(text)
            #expect(!out.unicodeScalars.contains { Self.actedOn.contains($0) }, "U+\(String(scalar.value, radix: 16))")
            #expect(out.hasPrefix("a") && out.hasSuffix("b"))
            #expect(!TerminalSanitizer.isSafe(text))
        }
    }

    @Test func keepsTabAndLineFeedUnlessShowingThem() {
        #expect(TerminalSanitizer.sanitized("a\tb\nc") == "a\tb\nc")
        #expect(TerminalSanitizer.sanitized("a\tb\nc", lineBreaks: .shown) == "a^Ib^Jc")
        #expect(TerminalSanitizer.sanitized("a\r\nb") == "a^M\nb")
    }

    @Test func returnsSafeTextUnchanged() {
        let text = "Ünïcödé — 日本語 🇫🇷 \u{202E}bidi is not a terminal command"
        #expect(TerminalSanitizer.isSafe(text))
        #expect(TerminalSanitizer.sanitized(text) == text)
        // U+00C2 followed by an ordinary character is not a C1 control.
        #expect(TerminalSanitizer.isSafe("Â¢"))
    }

    @Test func aFeedCannotDrawTheReadersPicturesWithKittyPlaceholders() {
        // A title that would be a placeholder of image 39, in the unread colour, in kitty.
        let title = "Look \u{10EEEE}\u{0305}\u{0305}\u{10EEEE}\u{0305}\u{030D} here"
        #expect(!TerminalSanitizer.isSafe(title))
        let shown = TerminalSanitizer.sanitized(title)
        #expect(!shown.unicodeScalars.contains("\u{10EEEE}") && shown.unicodeScalars.starts(with: "Look \u{FFFD}".unicodeScalars))
        // Its neighbours in plane 16 are ordinary private-use text.
        #expect(TerminalSanitizer.isSafe("\u{10EEED}\u{10EEEF}\u{10FFFD}"))
        // Drawn through the cell buffer, no cell is a placeholder.
        var buffer = CellBuffer(columns: 20, rows: 1)
        _ = buffer.write(TerminalSanitizer.sanitized(title), row: 0, column: 0, style: CellStyle(foreground: .indexed(39)))
        var terminal = InMemoryTerminal(columns: 20, rows: 1)
        var renderer = FrameRenderer()
        terminal.apply(renderer.render(buffer))
        #expect((0..<20).allSatisfy { terminal.kittyPlaceholder(atRow: 0, column: $0) == nil })
    }
}
