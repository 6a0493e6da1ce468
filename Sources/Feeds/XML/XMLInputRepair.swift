/// Mends, on the bytes and before libxml2 sees them, the breakage real feeds have most often,
/// which libxml2's recovery would otherwise mend by dropping text:
///
/// - a bare `&` (`Fish & Chips`, `?a=1&utm_medium=rss`) becomes `&amp;`, and a `<` that can
///   start no markup (`<3`, `a < b`) becomes `&lt;`; recovery dropped them and the words
///   around them. Character and entity references, tags, CDATA sections, comments and
///   processing instructions pass untouched.
/// - whitespace before the XML declaration is dropped (a blank line before `<?xml`).
/// - in a document read as UTF-8 (no byte order mark, no other charset declared) whose first
///   non-ASCII bytes are not UTF-8, every byte that is not part of valid UTF-8 is read as
///   windows-1252, as browsers and feedparser read undeclared legacy text: a Latin-1 feed
///   without a declaration loses nothing.
///
/// Works on pieces as they arrive, holding back the few bytes at a piece's end that the next
/// piece decides. A piece that needs no repair passes through uncopied.
package struct XMLInputRepair {
    private enum State: Equatable {
        /// Before the first markup: whitespace here may precede an XML declaration.
        case start
        case text
        case cdata
        case comment
        case instruction
    }

    /// Whether `&` and `<` are repaired: off for UTF-16 and UTF-32, where those bytes are
    /// halves of other characters.
    private let repairsMarkup: Bool
    /// Whether bytes of 128 and above are still checked: until the first non-ASCII sequence
    /// of a document read as UTF-8 shows whether it is (then nothing more is checked, as a
    /// browser settles a page's encoding once), and for good once one was not.
    private(set) var repairsUTF8: Bool
    /// Whether libxml2 reads the document as UTF-8: it has no byte order mark of another
    /// encoding, and the charset hint, or else its declaration, names UTF-8 or nothing.
    let readsAsUTF8: Bool
    /// Whether a byte was found that is not UTF-8: every one after it is checked too, and
    /// read as windows-1252.
    package private(set) var isLegacy = false
    private var state = State.start
    /// Bytes from the end of the last piece that the next one decides.
    private var held: [UInt8] = []
    /// The most whitespace before the XML declaration held back to see whether the
    /// declaration follows it.
    static var maxHeldSpace: Int { 4096 }
    /// How many repairs were made.
    package private(set) var repairs = 0

    /// A repair that repairs nothing, for bytes repaired before.
    static var none: XMLInputRepair { XMLInputRepair(repairsMarkup: false, repairsUTF8: false) }

    /// A repair of `&` and `<` if `repairsMarkup`, and of bytes that are not UTF-8 if
    /// `repairsUTF8`.
    init(repairsMarkup: Bool, repairsUTF8: Bool) {
        self.repairsMarkup = repairsMarkup
        self.repairsUTF8 = repairsUTF8
        readsAsUTF8 = repairsUTF8
    }

    /// A repair for a document that starts with `firstBytes`, whose encoding libxml2 will take
    /// from `charset` (an HTTP charset hint, which overrides the declaration) or else from the
    /// document. After a UTF-8 byte order mark, libxml2 reads UTF-8 unless the declaration
    /// names an encoding it knows, even a name that is not UTF-8's (`\rutf-8`); there, a byte
    /// that is not UTF-8 would turn it to Latin-1 for the rest of the document.
    package init(firstBytes: [UInt8], charset: String?) {
        let compatible = XMLEncoding.isASCIICompatible(firstBytes: firstBytes, charset: charset)
        let declared = XMLEncoding.declaredEncoding(firstBytes)
        let isUTF8 = { (name: String?) in name.map { XMLBytes.isUTF8($0.utf8) } ?? true }
        let markedUTF8 = firstBytes.starts(with: [0xEF, 0xBB, 0xBF]) && !(declared.map(XMLEncoding.libxml2Knows) ?? false)
        self.init(repairsMarkup: compatible,
                  repairsUTF8: compatible && isUTF8(charset) && (charset != nil || markedUTF8 || isUTF8(declared)))
    }

    /// `piece` repaired, or `nil` when it passes as it is; with `final`, nothing is held back.
    package mutating func repair(_ piece: UnsafeBufferPointer<UInt8>, final: Bool) -> [UInt8]? {
        guard repairsMarkup || repairsUTF8 else { return nil }
        if held.isEmpty {
            return scan(piece, final: final)
        }
        let joined = held + Array(piece)
        held = []
        return joined.withUnsafeBufferPointer { scan($0, final: final) } ?? joined
    }

    /// Scans `bytes`; returns the repaired bytes, or `nil` if they pass unchanged.
    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> [UInt8]? {
        var out: [UInt8]? = nil
        // Bytes before `copied` are in `out` already (once it exists).
        var copied = 0
        var index = 0
        let count = bytes.count

        func replace(_ range: Range<Int>, with replacement: some Collection<UInt8>) {
            if out == nil {
                out = []
                out!.reserveCapacity(count + 64)
            }
            out!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
            out!.append(contentsOf: replacement)
            copied = range.upperBound
            repairs += 1
        }
        /// Keeps `bytes[from...]` for the next piece and ends the scan.
        func hold(from start: Int) -> [UInt8]? {
            held = Array(bytes[start...])
            if out == nil {
                return Array(UnsafeBufferPointer(rebasing: bytes[..<start]))
            }
            out!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
            return out
        }

        while index < count {
            switch state {
            case .start:
                if index == 0, bytes.first == 0xEF {
                    if count < 3 && !final { return hold(from: 0) }
                    if count >= 3, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
                }
                var end = index
                while end < count, XMLBytes.isSpace(bytes[end]) { end += 1 }
                if end == count && !final {
                    // Held whitespace is joined to every piece after it: past a page of it,
                    // it stays (and libxml2 reports a declaration after it).
                    guard end - index <= Self.maxHeldSpace else {
                        index = end
                        state = .text
                        continue
                    }
                    return hold(from: index)
                }
                if end > index, count - end < 5 && !final { return hold(from: index) }
                let declaration: [UInt8] = Array("<?xml".utf8)
                if end > index, count - end >= 5, (0..<5).allSatisfy({ bytes[end + $0] == declaration[$0] }) {
                    replace(index..<end, with: EmptyCollection())
                }
                index = end
                state = .text
            case .cdata, .comment, .instruction:
                let closing: [UInt8] = state == .cdata ? [0x5D, 0x5D, 0x3E] : state == .comment ? [0x2D, 0x2D, 0x3E] : [0x3F, 0x3E]
                while index < count {
                    index = XMLBytes.skip(bytes, from: index, past: closing[0], closing[0], stoppingAtHighBytes: repairsUTF8)
                    guard index < count else { break }
                    if bytes[index] == closing[0] {
                        if count - index < closing.count {
                            // At the end, what follows is no closing but still read: a byte
                            // of legacy text in it is repaired like any other.
                            guard final else { return hold(from: index) }
                            index += 1
                            continue
                        }
                        if (1..<closing.count).allSatisfy({ bytes[index + $0] == closing[$0] }) {
                            index += closing.count
                            state = .text
                            break
                        }
                    } else if repairsUTF8, bytes[index] >= 0x80 {
                        switch utf8Length(bytes, at: index, final: final) {
                        case nil: return hold(from: index)
                        case 0:
                            replace(index..<index + 1, with: Self.windows1252(bytes[index]))
                            index += 1
                            continue
                        case let length?:
                            index += length
                            continue
                        }
                    }
                    index += 1
                }
            case .text:
                // The common stops handled here, without a round through the state: a tag's
                // `<`, a well-formed reference, a valid UTF-8 sequence.
                while true {
                    index = XMLBytes.skip(bytes, from: index, past: UInt8(ascii: "&"), UInt8(ascii: "<"), stoppingAtHighBytes: repairsUTF8)
                    guard index + 1 < count else { break }
                    let next = bytes[index + 1]
                    switch bytes[index] {
                    case UInt8(ascii: "<") where next == UInt8(ascii: "/") || (next < 0x80 && XMLBytes.isXMLNameStart(UInt32(next))):
                        index += 1
                        continue
                    case UInt8(ascii: "&"):
                        if let end = referenceEnd(bytes, at: index), end > 0 {
                            index = end
                            continue
                        }
                    case let lead where lead >= 0x80:
                        if let length = utf8Length(bytes, at: index, final: final), length > 0 {
                            index += length
                            continue
                        }
                    default:
                        break
                    }
                    break
                }
                guard index < count else { break }
                let byte = bytes[index]
                if byte == UInt8(ascii: "&") {
                    guard repairsMarkup else {
                        index += 1
                        continue
                    }
                    switch referenceEnd(bytes, at: index) {
                    case nil where !final: return hold(from: index)
                    case let end? where end > 0: index = end
                    default:
                        replace(index..<index + 1, with: "&amp;".utf8)
                        index += 1
                    }
                } else if byte == UInt8(ascii: "<") {
                    if index + 1 >= count {
                        if !final { return hold(from: index) }
                        if repairsMarkup { replace(index..<index + 1, with: "&lt;".utf8) }
                        index += 1
                        continue
                    }
                    let next = bytes[index + 1]
                    if next == UInt8(ascii: "!") {
                        if count - index < 9 && !final { return hold(from: index) }
                        if Self.starts(bytes, at: index, with: "<![CDATA[") {
                            state = .cdata
                            index += 9
                        } else if Self.starts(bytes, at: index, with: "<!--") {
                            state = .comment
                            index += 4
                        } else {
                            index += 2
                        }
                    } else if next == UInt8(ascii: "?") {
                        state = .instruction
                        index += 2
                    } else if next == UInt8(ascii: "/") {
                        index += 1
                    } else if let starts = startsName(bytes, at: index + 1, final: final), starts {
                        index += 1
                    } else if startsName(bytes, at: index + 1, final: final) == nil {
                        return hold(from: index)
                    } else if repairsMarkup {
                        replace(index..<index + 1, with: "&lt;".utf8)
                        index += 1
                    } else {
                        index += 1
                    }
                } else if repairsUTF8, byte >= 0x80 {
                    switch utf8Length(bytes, at: index, final: final) {
                    case nil: return hold(from: index)
                    case 0:
                        replace(index..<index + 1, with: Self.windows1252(byte))
                        index += 1
                    case let length?:
                        index += length
                    }
                } else {
                    index += 1
                }
            }
        }
        guard var repaired = out else { return nil }
        repaired.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        return repaired
    }

    /// Where a reference starting with the `&` at `index` ends (just past its `;`); 0 when it
    /// is no reference; `nil` when the bytes end before that is known.
    private func referenceEnd(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        var position = index + 1
        guard position < bytes.count else { return nil }
        if bytes[position] == UInt8(ascii: "#") {
            position += 1
            guard position < bytes.count else { return nil }
            let hex = bytes[position] | 0x20 == UInt8(ascii: "x")
            if hex { position += 1 }
            let first = position
            while position < bytes.count, position - first < Self.maxReferenceDigits {
                let byte = bytes[position]
                let isDigit = byte >= 0x30 && byte <= 0x39
                let isHex = hex && (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f")
                guard isDigit || isHex else { break }
                position += 1
            }
            // As for a name: at the limit, the `;` that may follow decides, in this piece or the next.
            guard position < bytes.count else { return nil }
            return position > first && bytes[position] == UInt8(ascii: ";") ? position + 1 : 0
        }
        // The predefined entities, nearly every reference a feed holds (an escaped HTML
        // description is one every few words), without reading a name character by character.
        if bytes.count - position >= 5 {
            let word = UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt32.self)
            switch UInt32(littleEndian: word) & 0x00FF_FFFF {
            case 0x3B_74_6C, 0x3B_74_67: return position + 3 // `lt;`, `gt;`
            default: break
            }
            switch UInt32(littleEndian: word) {
            case 0x3B_70_6D_61: return position + 4 // `amp;`
            case 0x74_6F_75_71, 0x73_6F_70_61: // `quot`, `apos`
                if bytes[position + 4] == UInt8(ascii: ";") { return position + 5 }
            default: break
            }
        }
        let first = position
        while position < bytes.count, position - first < Self.maxReferenceName {
            // A character of the name by XML's rule; a byte that is not UTF-8 makes no name,
            // and is left to the text's repair (it was passed over unread).
            switch nameCharacter(bytes, at: position, final: false) {
            case nil: return nil
            case .invalid: return 0
            case .character(let scalar, let length):
                guard position == first ? XMLBytes.isXMLNameStart(scalar) : XMLBytes.isXMLNameCharacter(scalar) else { break }
                position += length
                continue
            }
            break
        }
        guard position > first else { return position < bytes.count ? 0 : nil }
        // A name that reached the limit is a reference only if its `;` follows: whether it
        // does, when the bytes end there, the next piece tells.
        guard position < bytes.count else { return nil }
        return bytes[position] == UInt8(ascii: ";") ? position + 1 : 0
    }

    /// The longest name of a reference the repair leaves alone; an `&` before a longer one is
    /// text. Names of real entities are a few letters.
    private static var maxReferenceName: Int { 64 }
    /// The most digits of a character reference the repair leaves alone (`&#x10FFFF;` has
    /// six; leading zeros take the rest).
    private static var maxReferenceDigits: Int { 9 }

    /// The length of the valid UTF-8 sequence at `index`; 0 if the byte there starts none;
    /// `nil` if the bytes end in the middle of one (and more may come). The first answer
    /// settles whether the document is UTF-8.
    private mutating func utf8Length(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, final: Bool) -> Int? {
        let length = Self.utf8Length(bytes, at: index, final: final)
        if length == 0 {
            isLegacy = true
        } else if length != nil, !isLegacy {
            repairsUTF8 = false
        }
        return length
    }

    private static func utf8Length(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, final: Bool) -> Int? {
        let length = XMLBytes.utf8Length(bytes.baseAddress! + index, bytes.count - index)
        if length != 0 { return max(length, 0) }
        return final ? 0 : nil
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, with text: StaticString) -> Bool {
        XMLBytes.starts(bytes.baseAddress! + index, bytes.count - index, with: text)
    }

    /// A character where a name may be, as XML's name rules see it.
    private enum NameCharacter {
        /// The character and its length in bytes.
        case character(UInt32, length: Int)
        /// Bytes that are not UTF-8 in a document still checked for it: no name.
        case invalid
    }

    /// The character at `index`, for XML's name rules (``XMLBytes/isXMLNameStart(_:)``); `nil`
    /// when the bytes end inside it and more may come.
    ///
    /// In a document libxml2 decodes from another encoding, a byte of 128 or above is taken
    /// for a letter: the repair cannot read it.
    private func nameCharacter(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, final: Bool) -> NameCharacter? {
        let byte = bytes[index]
        guard byte >= 0x80 else { return .character(UInt32(byte), length: 1) }
        guard readsAsUTF8 else { return .character(0xC0, length: 1) }
        let length = XMLBytes.utf8Length(bytes.baseAddress! + index, bytes.count - index)
        if length > 0 { return .character(XMLBytes.scalar(bytes.baseAddress! + index, length: length), length: length) }
        return length == 0 && !final ? nil : .invalid
    }

    /// Whether the character at `index`, just after a `<`, may begin a name, so that the `<`
    /// starts a tag; `nil` when the bytes end inside it and more may come.
    private func startsName(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, final: Bool) -> Bool? {
        switch nameCharacter(bytes, at: index, final: final) {
        case nil: nil
        // A byte that is not UTF-8 is read as windows-1252 where the text's repair reads it
        // so; elsewhere libxml2 stops at it whatever the `<` is.
        case .invalid: repairsUTF8 && XMLBytes.isXMLNameStart(UInt32(XMLTranscoder.windows1252Scalar(bytes[index])))
        case .character(let scalar, _): XMLBytes.isXMLNameStart(scalar)
        }
    }

    /// A windows-1252 byte as UTF-8.
    static func windows1252(_ byte: UInt8) -> [UInt8] {
        guard byte >= 0x80 else { return [byte] }
        var bytes: [UInt8] = []
        XMLTranscoder.appendWindows1252(byte, to: &bytes)
        return bytes
    }
}
