#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a document's bytes are read, decided once from its first bytes and the HTTP charset:
/// by the scanner as UTF-8, by libxml2 as it detects them, or decoded to UTF-8 first.
///
/// The encoding in force is, in order: a byte order mark, the `charset` hint, the XML
/// declaration, else UTF-8. Then:
/// - UTF-8 is read by ``UTF8XMLScanner``.
/// - UTF-16, UTF-32 and EBCDIC, which libxml2 detects from the first four bytes as XML 1.0's
///   appendix F describes, and every encoding libxml2 knows by name, are read by libxml2.
/// - A name libxml2 refuses (XML requires a letter first, so `437` and `850` are refused) or
///   does not know, but iconv knows, directly or through ``iconvAliases``, is decoded by iconv.
/// - A name nobody knows (`dbcs`, a misspelling) is read as windows-1252, as feedparser and
///   browsers read it, and the parse says so (``FeedParser/Completion/assumedEncoding``).
enum XMLEncoding: Equatable {
    case utf8
    case libxml2
    /// Decoded to UTF-8 in front of the scanner from `declared`, the name in force.
    case transcoded(declared: String, source: XMLTranscoder.Source)

    /// The reading of a document that starts with `firstBytes` (at least four bytes when it
    /// has them), with `charset` the HTTP charset hint.
    static func of(firstBytes: [UInt8], charset: String?) -> XMLEncoding {
        guard isASCIICompatible(firstBytes: firstBytes, charset: charset) else { return .libxml2 }
        // A UTF-8 byte order mark wins over any name.
        if firstBytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
        // libxml2 passes over a hint it does not know and reads the declaration; so do we,
        // over a name nobody knows.
        let names = [charset, declaredEncoding(firstBytes)].compactMap { $0?.isEmpty == false ? $0 : nil }
        for name in names {
            if XMLBytes.isUTF8(name.utf8) { return .utf8 }
            if libxml2Knows(name) { return .libxml2 }
            if let source = iconvReadable(name) { return .transcoded(declared: name, source: source) }
        }
        return names.first.map { .transcoded(declared: $0, source: .windows1252) } ?? .utf8
    }

    /// Whether `&`, `<` and the other ASCII characters are the bytes ASCII gives them: not in
    /// UTF-16 or UTF-32 (by byte order mark, by the pattern of the first bytes or by the hint),
    /// nor in EBCDIC (`<?xm` as `4C 6F A7 94`).
    static func isASCIICompatible(firstBytes: [UInt8], charset: String?) -> Bool {
        let hint = charset?.lowercased()
        let wide = firstBytes.starts(with: [0xFE, 0xFF]) || firstBytes.starts(with: [0xFF, 0xFE])
            || firstBytes.starts(with: [0x00, 0x3C]) || firstBytes.starts(with: [0x3C, 0x00])
            || firstBytes.starts(with: [0x00, 0x00]) || hint.map { $0.contains("16") || $0.contains("32") || $0.contains("ucs") } ?? false
        return !wide && !isEBCDIC(firstBytes)
    }

    /// Whether the document starts with `<?xm` in EBCDIC (XML 1.0, appendix F).
    static func isEBCDIC(_ firstBytes: [UInt8]) -> Bool {
        firstBytes.starts(with: [0x4C, 0x6F, 0xA7, 0x94])
    }

    /// The `encoding` of the XML declaration at the start of `bytes`, if any.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        declaredEncodingRange(bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// How far into a document its XML declaration is looked for: a parse waits for this many
    /// bytes before it decides how to read them, so that the declaration is found or not
    /// however the bytes arrive.
    static let declarationWindow = 256

    /// Where the value of the XML declaration's `encoding` is in `bytes` (between its quotes),
    /// within the first ``declarationWindow`` bytes.
    static func declaredEncodingRange(_ bytes: [UInt8]) -> Range<Int>? {
        let bytes = Array(bytes.prefix(declarationWindow))
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, XMLBytes.isSpace(bytes[start]) { start += 1 }
        guard bytes[start...].starts(with: "<?xml".utf8), let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = bytes[start..<end]
        guard let key = declaration.indices.first(where: { declaration[$0...].starts(with: "encoding".utf8) }) else { return nil }
        var index = key + 8
        while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "=") || XMLBytes.isSpace(bytes[index]) {
            index += 1
        }
        guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[index]
        guard let close = bytes[(index + 1)..<end].firstIndex(of: quote) else { return nil }
        return (index + 1)..<close
    }

    /// Whether libxml2 reads an encoding by this name: XML's rule for names (a letter, then
    /// letters, digits, `.`, `_` and `-`), and a handler libxml2 finds (its own, iconv's or
    /// ICU's).
    static func libxml2Knows(_ name: String) -> Bool {
        guard isEncodingName(name) else { return false }
        guard case .success(let library) = LibXML2.shared, let handler = library.findCharEncodingHandler(name) else { return false }
        _ = library.charEncCloseFunc(handler)
        return true
    }

    /// Whether `name` is an encoding name as XML 1.0 writes them (`EncName`).
    static func isEncodingName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else { return false }
        return bytes.allSatisfy { byte in
            ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// How iconv reads `name`: by the name itself or by its alias; `nil` if iconv knows neither.
    static func iconvReadable(_ name: String) -> XMLTranscoder.Source? {
        let lowered = name.lowercased()
        let candidates = [name, iconvAliases[lowered], lowered.hasPrefix("x-") ? String(name.dropFirst(2)) : nil].compactMap { $0 }
        return candidates.first(where: XMLTranscoder.iconvKnows).map { .iconv($0) }
    }

    /// Encodings that feeds declare under a name iconv spells differently: the Mac encodings
    /// by the names Python and browsers give them, and IBM code pages with a prefix iconv does
    /// not take.
    static let iconvAliases: [String: String] = [
        "maciceland": "MAC-IS", "mac-iceland": "MAC-IS", "x-mac-icelandic": "MAC-IS",
        "maclatin2": "MAC-CENTRALEUROPE", "mac-latin2": "MAC-CENTRALEUROPE", "maccentraleurope": "MAC-CENTRALEUROPE",
        "x-mac-ce": "MAC-CENTRALEUROPE", "x-mac-centraleurroman": "MAC-CENTRALEUROPE",
        "macroman": "MACINTOSH", "mac-roman": "MACINTOSH", "x-mac-roman": "MACINTOSH",
        "maccyrillic": "MAC-CYRILLIC", "x-mac-cyrillic": "MAC-CYRILLIC",
        "macukraine": "MAC-UK", "macukrainian": "MAC-UK", "x-mac-ukrainian": "MAC-UK",
        "ibm-437": "IBM437", "ibm-850": "IBM850", "ibm-852": "IBM852", "ibm-855": "IBM855", "ibm-857": "IBM857",
        "ibm-860": "IBM860", "ibm-861": "IBM861", "ibm-862": "IBM862", "ibm-863": "IBM863", "ibm-864": "IBM864",
        "ibm-865": "IBM865", "ibm-866": "IBM866",
        "windows-874": "CP874", "x-sjis": "SHIFT_JIS", "x-euc-jp": "EUC-JP",
    ]
}
