/// How many columns of a terminal a piece of text takes.
///
/// A terminal lays text out in cells: most characters take one, East Asian wide and fullwidth
/// characters and emoji shown as pictures take two, and combining marks take none (they sit
/// on the character before them). Widths are measured per grapheme cluster, the unit people
/// see as one character, so a flag, a family emoji joined with zero-width joiners or a letter
/// with its accents is measured, and later drawn, as one unit.
///
/// Terminals do not agree on clusters. Those that measure whole clusters (kitty, WezTerm,
/// Ghostty, iTerm2) give an emoji sequence two columns. Those that measure code point by code
/// point with the C library's `wcwidth` (xterm, VTE, and tmux 3.3a, which also joins a wide
/// character that follows a zero-width joiner into the cell before it) give `👍🏽` four
/// columns, `🏳️‍🌈`, `❤️` and `1️⃣` one, a spacing vowel sign such as the one in `का` a column
/// of its own, and `👨‍👩‍👧‍👦` two (tmux) or eight (xterm). So a cluster is given:
/// - 0 if it starts with a control character or an invisible format character (zero-width
///   space, joiner, byte-order mark): it is not drawn;
/// - otherwise the wider of the two readings, at most 2: the cluster's (2 for a first scalar
///   that is East Asian Wide or Fullwidth or has emoji presentation by default, or for the
///   emoji presentation selector U+FE0F; 1 otherwise, ambiguous-width characters included, as
///   terminals outside CJK locales show them) and tmux's.
///
/// A cluster whose readings differ is *unsettled* (``columnsTerminalsMayUse(_:)``), and
/// ``FrameRenderer`` draws it so that whatever a terminal makes of it, nothing else on the
/// screen moves or stays behind. Some clusters are drawn changed (``drawn(_:)``), so that no
/// terminal measures one by what came before it or lets it change what comes after.
///
/// The East Asian width table is generated from Unicode 14 (Python's `unicodedata`), merged
/// across unassigned code points; newer emoji are caught by the standard library's
/// `isEmojiPresentation`.
public enum DisplayWidth {
    /// The columns `character` takes, as ``CellBuffer`` draws it: 0, 1 or 2.
    ///
    /// - Complexity: O(1) for ASCII; otherwise O(s log r) for a cluster of s scalars and the r
    ///   ranges of the wide table.
    public static func of(_ character: Character) -> Int {
        drawn(character).width
    }

    /// The columns `text` takes: the sum of its clusters' widths.
    ///
    /// - Complexity: O(n) in the length of `text`.
    public static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The range of columns terminals may give `grapheme`, a cluster as ``CellBuffer`` holds
    /// it: from the narrowest to the widest of the readings of terminals that measure clusters,
    /// of tmux and of terminals that add up code points. A single width for almost every
    /// cluster; a range for an unsettled one.
    ///
    /// - Complexity: O(1) for ASCII; otherwise O(s log r), as ``of(_:)-(Character)``.
    public static func columnsTerminalsMayUse(_ grapheme: Character) -> ClosedRange<Int> {
        if grapheme.isASCII { return 1...1 }
        let reading = readings(grapheme.unicodeScalars)
        return min(reading.cluster, reading.joined, reading.summed)...max(reading.cluster, reading.joined, reading.summed)
    }

    /// `character` as ``CellBuffer`` draws it, and the columns it is given.
    ///
    /// Two kinds of cluster are drawn changed:
    /// - one that starts with a scalar of no width of its own, which a terminal would put on
    ///   the cell before, is drawn on a base: a combining mark on a dotted circle, as text
    ///   renderers do; a lone Hangul vowel or final consonant on fillers, as Korean text does;
    /// - a zero-width joiner is kept only before a wide character. tmux 3.3a keeps a joiner
    ///   waiting until the next wide character anywhere on the screen and pulls that into the
    ///   joiner's cell. Without the joiners the rest is kept if it is still one cluster (the
    ///   half forms of Indic scripts become conjuncts), else only what came before the first
    ///   (`🏃‍♂️`, a runner and a sign, becomes the runner).
    static func drawn(_ character: Character) -> (grapheme: Character, width: Int) {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        let isSingle = scalars.index(after: scalars.startIndex) == scalars.endIndex
        // Latin, Greek and the rest below the combining marks: no table needed.
        if first.value < 0x300 && isSingle {
            return (character, first.value < 0x20 || (first.value >= 0x7F && first.value < 0xA0) || first.value == 0xAD ? 0 : 1)
        }
        let category = first.properties.generalCategory
        switch category {
        case .control, .format, .lineSeparator, .paragraphSeparator:
            return (character, 0)
        default:
            break
        }
        let needsBase = category == .nonspacingMark || category == .enclosingMark || category == .spacingMark || joinsSyllableBefore(first)
        if isSingle && !needsBase { return (character, isWide(first) || first.properties.isEmojiPresentation ? 2 : 1) }
        var grapheme = character
        if needsBase {
            let based = base(for: first) + String(character)
            grapheme = based.count == 1 ? Character(based) : "\u{FFFD}"
        }
        if scalars.contains("\u{200D}") { grapheme = withoutStrayJoiners(grapheme) }
        let reading = readings(grapheme.unicodeScalars)
        return (grapheme, min(2, max(reading.cluster, reading.joined)))
    }

    /// What a cluster that starts with `scalar`, which has no width of its own, is drawn on: a
    /// dotted circle for a combining mark; for a Hangul vowel or final consonant, the fillers
    /// that make a syllable of it, as Korean text writes a lone one.
    private static func base(for scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1160...0x11A7, 0xD7B0...0xD7C6: "\u{115F}"
        case 0x11A8...0x11FF, 0xD7CB...0xD7FF: "\u{115F}\u{1160}"
        default: "\u{25CC}"
        }
    }

    /// `grapheme` without the zero-width joiners that no wide character follows; see
    /// ``drawn(_:)``.
    private static func withoutStrayJoiners(_ grapheme: Character) -> Character {
        let scalars = Array(grapheme.unicodeScalars)
        var kept = String.UnicodeScalarView()
        var firstDropped: Int?
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\u{200D}" && !(index + 1 < scalars.count && codePointWidth(scalars[index + 1]) == 2) {
                firstDropped = firstDropped ?? index
                continue
            }
            kept.append(scalar)
        }
        guard let firstDropped else { return grapheme }
        let joined = String(kept)
        if joined.count == 1 { return Character(joined) }
        // What comes before a joiner of a cluster is one cluster too: the rules that keep
        // scalars together look back, never ahead. The first scalar alone is the fallback.
        let before = String(String.UnicodeScalarView(scalars[..<firstDropped]))
        return before.count == 1 ? Character(before) : Character(scalars[0])
    }

    /// How terminals read a cluster: as a cluster (wide if its first scalar is, or with the
    /// emoji presentation selector); as tmux 3.3a does, code point by code point with a wide
    /// one after a joiner taking no column; and as the sum of its code points.
    private static func readings(_ scalars: Character.UnicodeScalarView) -> (cluster: Int, joined: Int, summed: Int) {
        let first = scalars.first!
        var cluster = isWide(first) || first.properties.isEmojiPresentation ? 2 : 1
        var joined = 0
        var summed = 0
        var afterJoiner = false
        for scalar in scalars {
            let width = codePointWidth(scalar)
            summed += width
            if !(afterJoiner && width == 2) { joined += width }
            afterJoiner = scalar == "\u{200D}"
            if scalar == "\u{FE0F}" { cluster = 2 }
        }
        return (cluster, joined, summed)
    }

    /// The columns a terminal that measures code point by code point gives `scalar`, as the C
    /// library's `wcwidth` does: 0 for combining marks, format characters and Hangul vowels
    /// and final consonants (which join the syllable before them), 2 for East Asian Wide and
    /// Fullwidth ones and emoji shown as pictures (regional indicators excepted), 1 otherwise.
    static func codePointWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (value >= 0x7F && value < 0xA0) ? 0 : 1 }
        if joinsSyllableBefore(scalar) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if isWide(scalar) { return 2 }
        if (0x1F1E6...0x1F1FF).contains(value) { return 1 }
        return scalar.properties.isEmojiPresentation ? 2 : 1
    }

    /// Whether `scalar` is a Hangul vowel or final consonant, which joins the syllable before.
    private static func joinsSyllableBefore(_ scalar: Unicode.Scalar) -> Bool {
        (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value)
    }

    /// Whether `scalar` is East Asian Wide or Fullwidth.
    ///
    /// - Complexity: O(log r) for the r ranges of the table.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count
        while low < high {
            let middle = (low + high) / 2
            if wideRanges[middle].upperBound < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < wideRanges.count && wideRanges[low].contains(value)
    }

    /// East Asian Wide (W) and Fullwidth (F) code points, sorted.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAD9,
        0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F320,
        0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596,
        0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2,
        0x1F6D5...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0, 0x1F90C...0x1F93A,
        0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAF6, 0x20000...0x3134A
    ]
}
