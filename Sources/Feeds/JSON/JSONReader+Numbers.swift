extension JSONReader {
    /// Reads a number as the nearest `Double` (correctly rounded, as `strtod` reads it).
    ///
    /// - Throws: ``JSONReaderError/Kind/typeMismatch`` for a value of another kind,
    ///   ``JSONReaderError/Kind/numberOutOfRange`` for a number beyond `Double`'s range or one
    ///   that is not zero but rounds to zero (both as `JSONDecoder` refuses them; the number is
    ///   left unread), else ``JSONReaderError/Kind/malformed``.
    /// - Complexity: O(n) in the number's bytes; an integer of at most 15 digits is read
    ///   without making a string.
    package mutating func double() throws(JSONReaderError) -> Double {
        let end = try numberEndAfterWhitespace()
        guard let value = JSONNumber.double(UnsafeBufferPointer(rebasing: bytes[offset..<end])) else {
            throw JSONReaderError(.numberOutOfRange, at: offset, expected: "a number within a Double's range")
        }
        offset = end
        return value
    }

    /// Reads a number whose value is a whole number that `Int64` holds: `-12`, `1.0`, `1e3`
    /// and `-0` are read, exactly.
    ///
    /// - Throws: ``JSONReaderError/Kind/typeMismatch`` for a value of another kind or a number
    ///   with a fraction, ``JSONReaderError/Kind/numberOutOfRange`` for a whole number beyond
    ///   `Int64` (both unread), else ``JSONReaderError/Kind/malformed``.
    package mutating func int64() throws(JSONReaderError) -> Int64 {
        let end = try numberEndAfterWhitespace()
        switch JSONNumber.integer(UnsafeBufferPointer(rebasing: bytes[offset..<end])) {
        case .value(let value):
            offset = end
            return value
        case .fraction:
            throw JSONReaderError(.typeMismatch, at: offset, expected: "a whole number")
        case .outOfRange:
            throw JSONReaderError(.numberOutOfRange, at: offset, expected: "a whole number within Int64's range")
        }
    }

    /// Reads a number as it is written, for a caller that wants its text or several readings
    /// of it.
    ///
    /// - Throws: as ``double()``, but never out of range.
    package mutating func number() throws(JSONReaderError) -> JSONNumber {
        let end = try numberEndAfterWhitespace()
        let number = JSONNumber(validated: String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self))
        offset = end
        return number
    }

    /// Skips white space and returns the end of the number that starts there.
    private mutating func numberEndAfterWhitespace() throws(JSONReaderError) -> Int {
        skipWhitespace()
        guard offset < bytes.count, JSONValueKind(firstByte: bytes[offset]) == .number else { throw mismatch("a number") }
        return try numberEnd()
    }

    /// The end of the number at the offset, whose form it checks:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. What follows it is for the next
    /// read to check (`01` is the number `0`, then a `1` that no read accepts).
    func numberEnd() throws(JSONReaderError) -> Int {
        var index = offset
        func isDigit(_ index: Int) -> Bool { index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) }
        func digits(after index: inout Int) throws(JSONReaderError) {
            guard isDigit(index) else { throw malformed("a digit", at: index) }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits(after: &index)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try digits(after: &index)
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try digits(after: &index)
        }
        return index
    }
}
