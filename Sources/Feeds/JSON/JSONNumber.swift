/// A JSON number as it is written, with its readings as a `Double` and as an `Int64`.
package struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The number as written: `-1.50e3`.
    package let text: String

    /// A number already checked to be one.
    init(validated text: String) {
        self.text = text
    }

    /// The number `text` holds; nil unless `text` is exactly one JSON number (no white space).
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        let valid = JSONReader.read(bytes) { reader in
            guard let first = bytes.first, JSONValueKind(firstByte: first) == .number else { return false }
            return (try? reader.numberEnd()) == bytes.count
        }
        guard valid else { return nil }
        self.text = text
    }

    /// The text.
    package var description: String { text }

    /// The nearest `Double`; nil beyond `Double`'s range, or for a number that is not zero but
    /// rounds to zero.
    package var double: Double? {
        var text = text
        return text.withUTF8 { Self.double($0) }
    }

    /// The number's value when it is a whole number that `Int64` holds (`1.0`, `1e3` and `-0`
    /// are), else nil.
    package var int64: Int64? {
        var text = text
        guard case .value(let value) = text.withUTF8({ Self.integer($0) }) else { return nil }
        return value
    }

    /// Whether the number is written as an integer: no fraction, no exponent.
    package var isInteger: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
    }

    // MARK: - Reading the text

    /// The nearest `Double` to the number `bytes` (checked to be one), as ``double`` says.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = negative ? 1 : 0
        // Up to 15 digits, an integer is below 2^53: exact as an Int64 and as a Double.
        if bytes.count - digits <= 15, !bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            var magnitude: Int64 = 0
            for byte in bytes[digits...] { magnitude = magnitude &* 10 &+ Int64(byte &- UInt8(ascii: "0")) }
            return negative ? -Double(magnitude) : Double(magnitude)
        }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value != 0 || isZero(bytes) ? value : nil
    }

    /// Whether every digit of the number `bytes` before its exponent is 0.
    static func isZero(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            default: continue
            }
        }
        return true
    }

    /// What the number `bytes` (checked to be one) is as an integer.
    enum IntegerReading: Equatable {
        /// A whole number that `Int64` holds.
        case value(Int64)
        /// A number with a fraction.
        case fraction
        /// A whole number beyond `Int64`.
        case outOfRange
    }

    /// The number `bytes` (checked to be one) as an `Int64`, exactly: its digits without
    /// leading or trailing zeros, times the power of ten its point and exponent make.
    ///
    /// - Complexity: O(n) in the number's bytes.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> IntegerReading {
        let negative = bytes.first == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        let integerStart = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        let integerEnd = index
        var fractionStart = index
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        }
        let fractionEnd = index
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            let negativeExponent = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            // Beyond a million, an exponent makes any number but zero out of range or a fraction.
            for byte in bytes[index...] { exponent = min(exponent * 10 + Int(byte &- UInt8(ascii: "0")), 1_000_000) }
            if negativeExponent { exponent = -exponent }
        }
        // The digits, integer part then fraction, as one sequence.
        let integerCount = integerEnd - integerStart
        let digitCount = integerCount + fractionEnd - fractionStart
        func digit(_ position: Int) -> UInt8 {
            bytes[position < integerCount ? integerStart + position : fractionStart + position - integerCount] &- UInt8(ascii: "0")
        }
        guard let first = (0..<digitCount).first(where: { digit($0) != 0 }),
              let last = (0..<digitCount).last(where: { digit($0) != 0 }) else { return .value(0) }
        // The value is digits first...last times 10^scale.
        let scale = exponent - (fractionEnd - fractionStart) + (digitCount - 1 - last)
        guard scale >= 0 else { return .fraction }
        guard last - first + 1 + scale <= 19 else { return .outOfRange }
        var magnitude: UInt64 = 0
        for position in first...last { magnitude = magnitude * 10 + UInt64(digit(position)) }
        for _ in 0..<scale {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return .outOfRange }
            magnitude = product
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return .outOfRange }
            return .value(Int64(truncatingIfNeeded: 0 &- magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return .outOfRange }
        return .value(Int64(magnitude))
    }
}
