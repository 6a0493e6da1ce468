extension JSONReader {
    /// Reads a string.
    ///
    /// - Throws: ``JSONReaderError/Kind/typeMismatch`` for a value of another kind (unread),
    ///   else ``JSONReaderError/Kind/malformed`` (an unknown escape, a control character, no
    ///   closing quote).
    /// - Complexity: O(n) in the string's bytes. The closing quote or the next escape is found
    ///   eight bytes at a time; without escapes the string is made from the bytes in place, in
    ///   one copy.
    package mutating func string() throws(JSONReaderError) -> String {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw mismatch("a string") }
        return try readString()
    }

    /// Reads a string, or a number as it is written (`-1.50e3` stays so): what a server may
    /// send for an id or a count.
    ///
    /// - Throws: as ``string()``.
    package mutating func lenientString() throws(JSONReaderError) -> String {
        skipWhitespace()
        guard offset < bytes.count else { throw malformed("a string or a number") }
        if bytes[offset] == UInt8(ascii: "\"") { return try readString() }
        guard JSONValueKind(firstByte: bytes[offset]) == .number else { throw mismatch("a string or a number") }
        let end = try numberEnd()
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        offset = end
        return text
    }

    /// Reads the string whose opening quote is at the offset.
    ///
    /// Without escapes, the string is made from its bytes in place. With escapes, its
    /// characters are written into ``scratch`` in one pass (runs without escapes copied
    /// whole), and the string made from those.
    mutating func readString() throws(JSONReaderError) -> String {
        let start = offset + 1
        let special = Self.firstSpecialByte(in: bytes, from: start)
        if special < bytes.count, bytes[special] == UInt8(ascii: "\"") {
            offset = special + 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<special]), as: UTF8.self)
        }
        let input = bytes
        var index = start
        var written = 0
        while true {
            let step = scratch.withUnsafeMutableBufferPointer { output in
                Self.unescape(input, from: &index, into: output, written: &written)
            }
            switch step {
            case let .closed(quote):
                offset = quote + 1
                return String(decoding: scratch[..<written], as: UTF8.self)
            case let .needsRoom(count):
                scratch.append(contentsOf: repeatElement(0, count: max(count - scratch.count, scratch.count, 256)))
            case let .malformed(expected, position):
                throw malformed(expected, at: position)
            }
        }
    }

    /// How far ``unescape(_:from:into:written:)`` went.
    enum UnescapeStep {
        /// To the closing quote, at this index.
        case closed(Int)
        /// To where the output needs room for this many bytes.
        case needsRoom(Int)
        /// To something that is not JSON there.
        case malformed(String, at: Int)
    }

    /// Writes the characters of the string `input` holds from `index` into `output` from
    /// `written`, moving both on, until its closing quote, the end of the room, or a byte that
    /// may not be there. A `\u` surrogate pair is one character; a lone surrogate is U+FFFD;
    /// other bytes are copied as they are (the string's initializer repairs those that are not
    /// UTF-8).
    static func unescape(
        _ input: UnsafeBufferPointer<UInt8>, from start: inout Int,
        into output: UnsafeMutableBufferPointer<UInt8>, written count: inout Int
    ) -> UnescapeStep {
        // Locals rather than the `inout`s, which the loop would store at every turn.
        var index = start
        var written = count
        defer {
            start = index
            count = written
        }
        func put(_ byte: UInt8) {
            output[written] = byte
            written += 1
        }
        let source = UnsafeRawBufferPointer(input)
        let target = UnsafeMutableRawBufferPointer(output)
        while true {
            // Bytes up to the next special one, copied eight at a time as they are looked at
            // (a word's bytes past the special one are written over later), then one at a time.
            while index + 8 <= input.count {
                guard written + 8 <= output.count else { return .needsRoom(written + 8) }
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                target.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
                let flags = specialFlags(UInt64(littleEndian: word))
                let count = flags == 0 ? 8 : flags.trailingZeroBitCount >> 3
                index += count
                written += count
                if flags != 0 { break }
            }
            while index < input.count, !isSpecial(input[index]) {
                guard written < output.count else { return .needsRoom(written + 8) }
                put(input[index])
                index += 1
            }
            // Room for the longest character an escape writes.
            guard written + 4 <= output.count else { return .needsRoom(written + 4) }
            guard index < input.count else { return .malformed("'\"' closing the string", at: index) }
            switch input[index] {
            case UInt8(ascii: "\""):
                return .closed(index)
            case UInt8(ascii: "\\"):
                break
            default:
                return .malformed("no control character in a string (escape it)", at: index)
            }
            guard index + 1 < input.count else { return .malformed("an escape", at: index + 1) }
            let escape = input[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): put(escape)
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hexValue(input, at: index) else { return .malformed("four hex digits", at: index) }
                index += 4
                var scalar = unit
                if (0xD800...0xDBFF).contains(unit), index + 6 <= input.count, input[index] == UInt8(ascii: "\\"),
                   input[index + 1] == UInt8(ascii: "u"), let low = hexValue(input, at: index + 2), (0xDC00...0xDFFF).contains(low) {
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xD800...0xDFFF).contains(unit) {
                    scalar = 0xFFFD
                }
                func byte(_ value: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: value) }
                switch scalar {
                case ..<0x80:
                    put(byte(scalar))
                case ..<0x800:
                    put(byte(0xC0 | scalar >> 6))
                    put(byte(0x80 | scalar & 0x3F))
                case ..<0x10000:
                    put(byte(0xE0 | scalar >> 12))
                    put(byte(0x80 | scalar >> 6 & 0x3F))
                    put(byte(0x80 | scalar & 0x3F))
                default:
                    put(byte(0xF0 | scalar >> 18))
                    put(byte(0x80 | scalar >> 12 & 0x3F))
                    put(byte(0x80 | scalar >> 6 & 0x3F))
                    put(byte(0x80 | scalar & 0x3F))
                }
            default:
                return .malformed(#"an escape: \" \\ \/ \b \f \n \r \t or \u"#, at: index - 1)
            }
        }
    }

    /// Moves past the string whose opening quote is at the offset, checking it as
    /// ``readString()`` does, without making it.
    ///
    /// - Throws: ``JSONReaderError/Kind/malformed`` for an unknown escape, `\u` without four
    ///   hex digits, a control character, or no closing quote.
    mutating func skipString() throws(JSONReaderError) {
        var index = offset + 1
        while true {
            index = Self.firstSpecialByte(in: bytes, from: index)
            guard index < bytes.count else { throw malformed("'\"' closing the string", at: index) }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                offset = index + 1
                return
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { throw malformed("an escape", at: index + 1) }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard Self.hexValue(bytes, at: index + 2) != nil else { throw malformed("four hex digits", at: index + 2) }
                    index += 6
                default:
                    throw malformed(#"an escape: \" \\ \/ \b \f \n \r \t or \u"#, at: index + 1)
                }
            default:
                throw malformed("no control character in a string (escape it)", at: index)
            }
        }
    }

    /// The value of the four hex digits at `index`; nil when there are not four there.
    @inline(__always)
    static func hexValue(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index >= 0, index + 4 <= bytes.count,
              let first = hexDigit(bytes[index]), let second = hexDigit(bytes[index + 1]),
              let third = hexDigit(bytes[index + 2]), let fourth = hexDigit(bytes[index + 3]) else { return nil }
        return first << 12 | second << 8 | third << 4 | fourth
    }

    /// The value of the hex digit `byte`, either case; nil for another byte.
    @inline(__always)
    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return UInt32(digit) }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        return letter < 6 ? UInt32(letter) + 10 : nil
    }

    /// The index of the first byte from `start` that is a quote, a backslash or a control
    /// character (below 0x20), or `bytes.count` if none is.
    ///
    /// Eight bytes at a time (SWAR): in a word, a byte equal to `c` is a zero byte of
    /// `word ^ c`, flagged by `(x - 0x01…) & ~x & 0x80…`; a byte below 0x20 is flagged by
    /// `(word - 0x20…) & ~word & 0x80…`. A borrow can flag a byte above a flagged one, never
    /// below, so the lowest flag (the first byte, read little-endian) is always right.
    @inline(__always)
    static func firstSpecialByte(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = start
        while index + 8 <= bytes.count {
            let flags = specialFlags(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            if flags != 0 { return index + flags.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < bytes.count, !isSpecial(bytes[index]) { index += 1 }
        return index
    }

    /// The high bit of each byte of `word` (read little-endian) that is a quote, a backslash or
    /// a control character, and perhaps of bytes after such a one (``firstSpecialByte(in:from:)``).
    @inline(__always)
    static func specialFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        return ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) & ~word) & (ones &* 0x80)
    }

    /// Whether `byte` is a quote, a backslash or a control character.
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }
}
