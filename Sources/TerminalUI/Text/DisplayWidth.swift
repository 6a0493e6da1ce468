/// How many columns of a terminal a piece of text takes.
///
/// A terminal lays text out in cells: most characters take one, East Asian wide and fullwidth
/// characters and emoji shown as pictures take two, and combining marks take none (they sit
/// on the character before them). Widths are measured per grapheme cluster, the unit people
/// see as one character, so a flag, a family emoji joined with zero-width joiners or a letter
/// with its accents is measured, and later drawn, as one unit.
///
/// The rules, in order, for a cluster:
/// - it starts with a control character or an invisible format character (zero-width space,
///   joiner, byte-order mark): 0;
/// - it starts with a combining mark (nothing before it to sit on): 1, as ``CellBuffer`` draws
///   it on a dotted circle;
/// - it holds the emoji presentation selector U+FE0F: 2;
/// - its first scalar is East Asian Wide or Fullwidth, or has emoji presentation by default: 2;
/// - otherwise 1. Ambiguous-width characters count as 1, as terminals outside CJK locales
///   show them.
///
/// The East Asian width table is generated from Unicode 14 (Python's `unicodedata`), merged
/// across unassigned code points; newer emoji are caught by the standard library's
/// `isEmojiPresentation`.
public enum DisplayWidth {
    /// The columns `character` takes: 0, 1 or 2.
    ///
    /// - Complexity: O(1) for ASCII; otherwise O(s + log r) for a cluster of s scalars and the
    ///   r ranges of the wide table.
    public static func of(_ character: Character) -> Int {
        measure(character).width
    }

    /// The width of `character`, and whether it starts with a combining mark (and so needs a
    /// base to be drawn on), from one look at its first scalar.
    static func measure(_ character: Character) -> (width: Int, startsWithMark: Bool) {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        let value = first.value
        let isCluster = scalars.index(after: scalars.startIndex) != scalars.endIndex
        // Latin, Greek and the rest below the combining marks: no table needed.
        if value < 0x300 {
            if value < 0x20 || (value >= 0x7F && value < 0xA0) || value == 0xAD { return (0, false) }
            return (isCluster && scalars.contains("\u{FE0F}") ? 2 : 1, false)
        }
        switch first.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator:
            return (0, false)
        case .nonspacingMark, .enclosingMark, .spacingMark:
            return (1, true)
        default:
            break
        }
        if isWide(first) || first.properties.isEmojiPresentation { return (2, false) }
        return (isCluster && scalars.contains("\u{FE0F}") ? 2 : 1, false)
    }

    /// The columns `text` takes: the sum of its clusters' widths.
    ///
    /// - Complexity: O(n) in the length of `text`.
    public static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
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
