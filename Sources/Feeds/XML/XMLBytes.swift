import Foundation

/// Byte-level reading for ``UTF8XMLScanner``: classes of bytes, UTF-8 characters, names.
enum XMLBytes {
    /// Byte classes in text (and, for some, attribute values and CDATA).
    static var plain: UInt8 { 0 }
    static var multibyte: UInt8 { 1 }
    static var ampersand: UInt8 { 2 }
    static var carriageReturn: UInt8 { 4 }
    static var lineBreak: UInt8 { 8 }
    static var bracket: UInt8 { 16 }
    static var less: UInt8 { 32 }
    static var forbidden: UInt8 { 64 }

    /// Each byte's class in text: `<` is `less`, `]` a `bracket`, the controls XML forbids
    /// `forbidden`, `\t` and `\n` plain.
    nonisolated(unsafe) static let textClasses: UnsafePointer<UInt8> = table { byte in
        switch byte {
        case 0x09, 0x0A: plain
        case 0x0D: carriageReturn
        case 0..<0x20: forbidden
        case 0x26: ampersand
        case 0x3C: less
        case 0x5D: bracket
        case 0x80...: multibyte
        default: plain
        }
    }

    /// Each byte's class in an attribute value: flags for what reading the value needs, or
    /// `forbidden` (`<` and forbidden controls).
    nonisolated(unsafe) static let attributeClasses: UnsafePointer<UInt8> = table { byte in
        switch byte {
        case 0x09, 0x0A: lineBreak
        case 0x0D: carriageReturn
        case 0..<0x20, 0x3C: forbidden
        case 0x26: ampersand
        case 0x80...: multibyte
        default: plain
        }
    }

    /// The index of the first byte from `i` that is not plain ASCII text (`<`, `&`, `]`, a
    /// control character including `\r`, `\t` and `\n`, or a byte of 128 or more), or `n`.
    /// Eight bytes at a time, in a 64-bit word.
    @inline(__always)
    static func skipPlainText(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// High bits of the bytes of `word` that are zero (exactly whether there is one).
        @inline(__always) func zeros(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        var i = i
        let raw = UnsafeRawPointer(p)
        while i + 8 <= n {
            // The first byte in the lowest bits, whatever the machine's byte order.
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            // Bytes of 128 and above, bytes below 0x20 (exact once those are out), `<`, `&`, `]`.
            let special = (word & highs) | ((word &- 0x2020_2020_2020_2020) & ~word & highs)
                | zeros(word ^ 0x3C3C_3C3C_3C3C_3C3C) | zeros(word ^ 0x2626_2626_2626_2626) | zeros(word ^ 0x5D5D_5D5D_5D5D_5D5D)
            // A subtraction's borrow marks only bytes above a true mark, so the lowest mark
            // is the first special byte: no byte-by-byte walk to it.
            if special != 0 { return i + special.trailingZeroBitCount >> 3 }
            i += 8
        }
        let textClasses = XMLBytes.textClasses
        while i < n, p[i] >= 0x20, textClasses[Int(p[i])] == plain { i += 1 }
        return i
    }

    /// The index of the first byte of `bytes` from `start` that is `first` or `second`, or (if
    /// asked) 128 or above; `bytes.count` if none is: the input repair's skip, over whole
    /// pieces of a document. Sixteen bytes at a time, in SIMD registers.
    ///
    /// The scanner's text skip (``skipPlainText(_:_:_:)``) stops at more bytes over much
    /// shorter runs, between markup, and reads eight at a time in a 64-bit word. Each is the
    /// faster for its own use, measured with `bench feed`: the scanner through this skip
    /// parsed 8–10% slower; the repair through the scanner's, 5% slower on long articles.
    @inline(__always)
    static func skip(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, past first: UInt8, _ second: UInt8, stoppingAtHighBytes: Bool) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        let firsts = SIMD16<UInt8>(repeating: first), seconds = SIMD16<UInt8>(repeating: second)
        // Bytes of 128 and above, as signed bytes, are below zero.
        let limit = SIMD16<Int8>(repeating: stoppingAtHighBytes ? 0 : Int8.min)
        var index = start
        while index + 16 <= count {
            let vector = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            let signed = SIMD16<Int8>(truncatingIfNeeded: vector)
            let stops = (vector .== firsts) .| (vector .== seconds) .| (signed .< limit)
            if any(stops) {
                // The first stop, from the lanes as two words: no byte-by-byte walk to it.
                let lanes = unsafeBitCast(SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: stops), to: (UInt64, UInt64).self)
                let low = UInt64(littleEndian: lanes.0)
                if low != 0 { return index + low.trailingZeroBitCount >> 3 }
                return index + 8 + UInt64(littleEndian: lanes.1).trailingZeroBitCount >> 3
            }
            index += 16
        }
        while index < count {
            let byte = base[index]
            if byte == first || byte == second || (stoppingAtHighBytes && byte >= 0x80) { break }
            index += 1
        }
        return index
    }

    /// A table of 256 classes, made once for the process and never freed.
    private static func table(_ kind: (Int) -> UInt8) -> UnsafePointer<UInt8> {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0..<256 { table[byte] = kind(byte) }
        return UnsafePointer(table)
    }

    /// The length of the UTF-8 character at `p` (a byte of 128 or more), if it is one XML
    /// allows; 0 if the bytes end inside it; -1 if it is not UTF-8 or not an XML character
    /// (U+FFFE, U+FFFF).
    @inline(__always)
    static func characterLength(_ p: UnsafePointer<UInt8>, _ available: Int) -> Int {
        let length = utf8Length(p, available)
        if length == 3, p[0] == 0xEF, p[1] == 0xBF, p[2] >= 0xBE { return -1 }
        return length
    }

    /// The length of the UTF-8 sequence at `p` (a byte of 128 or more): no overlong forms,
    /// surrogates or code points past U+10FFFF; 0 if the bytes end inside it, all of them
    /// right so far; -1 if it is not one.
    @inline(__always)
    static func utf8Length(_ p: UnsafePointer<UInt8>, _ available: Int) -> Int {
        let lead = p[0]
        switch lead {
        case 0xC2...0xDF:
            guard available >= 2 else { return 0 }
            return p[1] & 0xC0 == 0x80 ? 2 : -1
        case 0xE0...0xEF:
            guard available >= 2 else { return 0 }
            let second = p[1]
            let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard second >= low, second <= high else { return -1 }
            guard available >= 3 else { return 0 }
            return p[2] & 0xC0 == 0x80 ? 3 : -1
        case 0xF0...0xF4:
            guard available >= 2 else { return 0 }
            let second = p[1]
            let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard second >= low, second <= high else { return -1 }
            guard available >= 3 else { return 0 }
            guard p[2] & 0xC0 == 0x80 else { return -1 }
            guard available >= 4 else { return 0 }
            return p[3] & 0xC0 == 0x80 ? 4 : -1
        default:
            return -1
        }
    }

    /// Whether an encoding's name (a declaration's or a charset hint) is UTF-8's, in any case.
    static func isUTF8(_ name: some Collection<UInt8>) -> Bool {
        // Only letters fold: `| 0x20` on every byte read `\r` (0x0D) as `-` and 0x18 as `8`.
        let folded = name.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        return folded.elementsEqual("utf-8".utf8) || folded.elementsEqual("utf8".utf8)
    }

    /// Whether `bytes` are UTF-8 of characters XML allows in an attribute value.
    static func isValidText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = bytes.baseAddress else { return true }
        var k = 0
        while k < bytes.count {
            if p[k] < 0x80 {
                k += 1
                continue
            }
            let length = characterLength(p + k, bytes.count - k)
            guard length > 0 else { return false }
            k += length
        }
        return true
    }

    /// Whether `bytes` are a URI that libxml2 reads without complaint, in the forms namespace
    /// names take: an absolute URI with a plain host (letters, digits, `.`, `-`, a port) or
    /// none, or a relative one without a `:`; no percent escapes, brackets or user names,
    /// which the scanner leaves to libxml2. Empty is the default namespace undeclared.
    static func isPlainURI(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var fragments = 0
        for byte in bytes {
            guard isLetter(byte) || isDigit(byte) || "-._~:/?#!$'()*+,;=".utf8.contains(byte) else { return false }
            if byte == UInt8(ascii: "#") { fragments += 1 }
        }
        guard fragments <= 1 else { return false }
        let end = bytes.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        // A relative reference without a scheme, but not one with a host (`//host`).
        guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")) else { return !bytes.starts(with: "//".utf8) }
        // A scheme, then a host if `//` follows.
        guard colon > 0, isLetter(bytes[0]),
              bytes[1..<colon].allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else { return false }
        let rest = bytes[(colon + 1)...]
        guard rest.starts(with: "//".utf8) else { return true }
        let authority = rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let host = authority.prefix { $0 != UInt8(ascii: ":") }
        guard !host.isEmpty, host.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) else { return false }
        // A port, if any, of at least one digit.
        let port = authority.dropFirst(host.count)
        return port.isEmpty || (port.count > 1 && port.dropFirst().allSatisfy(isDigit))
    }

    /// The character of a numeric reference's bytes after `#`: decimal digits, or `x` and hex
    /// digits (XML's forms: HTML also allows `X` and a sign); `nil` for anything else or a
    /// character XML forbids.
    static func characterReference(_ digits: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        let hexadecimal = digits.first == UInt8(ascii: "x")
        guard let value = HTMLEntities.codePoint(digits.dropFirst(hexadecimal ? 1 : 0), radix: hexadecimal ? 16 : 10) else { return nil }
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return Unicode.Scalar(value)
        default: return nil
        }
    }

    static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// ASCII letters and `_`: what may start a name the scanner reads. A subset of XML's rule
    /// (``isXMLNameStart(_:)``): the scanner hands any other name to libxml2.
    @inline(__always)
    static func isNameStart(_ byte: UInt8) -> Bool {
        let folded = byte | 0x20
        return (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
    }

    /// ASCII letters, digits, `_`, `-`, `.` and `:`.
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    /// XML 1.0's `NameStartChar` (fifth edition, production [4], which libxml2 follows): what
    /// may begin an element's, an attribute's or an entity's name, `:` included. Whether a `<`
    /// starts a tag or is text turns on it.
    static func isXMLNameStart(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF,
             0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            true
        default:
            false
        }
    }

    /// XML 1.0's `NameChar` (fifth edition, production [4a]): what may continue a name.
    static func isXMLNameCharacter(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: true
        default: isXMLNameStart(scalar)
        }
    }

    /// The scalar of the valid UTF-8 sequence of `length` bytes at `p` (``utf8Length(_:_:)``).
    @inline(__always)
    static func scalar(_ p: UnsafePointer<UInt8>, length: Int) -> UInt32 {
        switch length {
        case 1: UInt32(p[0])
        case 2: UInt32(p[0] & 0x1F) << 6 | UInt32(p[1] & 0x3F)
        case 3: UInt32(p[0] & 0x0F) << 12 | UInt32(p[1] & 0x3F) << 6 | UInt32(p[2] & 0x3F)
        default: UInt32(p[0] & 0x07) << 18 | UInt32(p[1] & 0x3F) << 12 | UInt32(p[2] & 0x3F) << 6 | UInt32(p[3] & 0x3F)
        }
    }

    static func starts(_ p: UnsafePointer<UInt8>, _ available: Int, with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard available >= count else { return false }
        let expected = text.utf8Start
        for k in 0..<count where p[k] != expected[k] { return false }
        return true
    }

    static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes { count &+= byte == 0x0A ? 1 : 0 }
        return count
    }

    static func lineFeeds(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { lineFeeds(in: $0) }
    }
}
