/// Makes untrusted text safe to write to a terminal: the last gate before bytes reach it.
///
/// A terminal acts on control characters: `ESC ] 0 ;` retitles the window, `ESC ] 52 ;`
/// writes the clipboard, `ESC [ 2 J` clears the screen, and a C1 `CSI` (U+009B) starts a
/// command on terminals that honour 8-bit controls. Text from a feed, a server reply or a
/// database another program wrote must never carry one to the terminal. Every string the
/// commands print for people, and every string the reader draws, passes through
/// ``sanitized(_:lineBreaks:)``.
///
/// Rather than dropping what it neutralises, the sanitiser shows it, so a person sees that
/// something was there and the text around it keeps its shape:
/// - C0 controls (U+0000–U+001F) in caret notation: ESC as `^[`, BEL as `^G`, CR as `^M`;
/// - DEL (U+007F) as `^?`;
/// - C1 controls (U+0080–U+009F), however they were encoded, as U+FFFD (`�`);
/// - kitty's image placeholder U+10EEEE, as U+FFFD: in a kitty terminal, text holding it with
///   the right colour and diacritics would show a picture the reader placed, anywhere a feed
///   likes. Only ``KittyGraphics/placeholders(id:columns:rows:)`` makes those cells.
///
/// Tab and line feed are kept when ``LineBreaks/kept`` (the default, for multi-line output),
/// since they only move the cursor within what is being printed; ``LineBreaks/shown`` turns
/// them visible too, for a single row of a screen.
///
/// Bidirectional overrides are not terminal commands and pass through; the feed layer
/// removes them from titles, where they are used to spoof.
public enum TerminalSanitizer {
    /// What happens to tab and line feed.
    public enum LineBreaks: Sendable {
        /// Tab and line feed pass through: text of several lines.
        case kept
        /// Tab and line feed are shown as `^I` and `^J`: one row of a screen.
        case shown
    }

    /// `text` with every control character a terminal would act on made visible and inert.
    ///
    /// Text without such characters is returned as it is, after one pass over its bytes.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public static func sanitized(_ text: String, lineBreaks: LineBreaks = .kept) -> String {
        guard !isSafe(text, lineBreaks: lineBreaks) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09 where lineBreaks == .kept, 0x0A where lineBreaks == .kept:
                out.append(scalar)
            case 0x00...0x1F:
                out.append("^")
                out.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F:
                out.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F, 0x10EEEE:
                out.append("\u{FFFD}")
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `text` holds no character that ``sanitized(_:lineBreaks:)`` would change.
    ///
    /// Checks the UTF-8 bytes directly: a C0 control or DEL is a byte of its own, a C1
    /// control is `0xC2` followed by `0x80`–`0x9F`, and U+10EEEE is `F4 8E BB AE`.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public static func isSafe(_ text: String, lineBreaks: LineBreaks = .kept) -> Bool {
        let keepsBreaks = lineBreaks == .kept
        // The last three bytes, the latest lowest.
        var recent: UInt32 = 0
        for byte in text.utf8 {
            if byte < 0x20 {
                guard keepsBreaks, byte == 0x09 || byte == 0x0A else { return false }
            } else if byte == 0x7F || (recent & 0xFF == 0xC2 && byte <= 0x9F && byte >= 0x80) {
                return false
            } else if byte == 0xAE && recent & 0xFF_FFFF == 0xF4_8EBB {
                return false
            }
            recent = recent << 8 | UInt32(byte)
        }
        return true
    }
}
