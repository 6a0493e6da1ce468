import Feeds

/// How a Google Reader reply's numbers read, as they read when Foundation's JSONDecoder
/// decoded the replies (swift-foundation 6.x), including its quirks, so that a reply gives
/// the same values and the same errors as it did.
enum GoogleReaderNumber {
    /// The `Double` JSONDecoder read from `number`; nil where it refused it, which made the
    /// reply invalid JSON: beyond `Double`'s range, or zero where its check that the number is
    /// truly zero fails (``isTrueZero(_:)``).
    static func double(of number: JSONNumber) -> Double? {
        if let value = number.double, value != 0 { return value }
        guard let value = Double(number.text), value.isFinite else { return nil }
        return isTrueZero(Array(number.text.utf8)) ? value : nil
    }

    /// The text `LenientString` made of `number` where a string was expected (a continuation,
    /// an id, an enclosure's length): the digits of the `Int64` JSONDecoder read, where it read
    /// one, else the description of its `Double` (`1.5`, `1e+20`); nil where it refused that.
    ///
    /// JSONDecoder read an `Int64` from an integer it holds, exactly; from another number,
    /// through its `Double` (`strtod`'s) when that is a whole number `Int64` holds: below 2^53
    /// that `Double`'s value (so `1.0000000000000001` reads as 1, and `1e-400` as 0), from 2^53
    /// on the number's `Decimal` without its fraction (``decimalInt64(_:)``).
    static func lenientText(of number: JSONNumber) -> String? {
        if number.isInteger, let value = number.int64 { return String(value) }
        if let value = Double(number.text), let whole = Int64(exactly: value) {
            if value.magnitude < 0x1p53 { return String(whole) }
            if let exact = decimalInt64(number.text) { return String(exact) }
        }
        return double(of: number).map { String($0) }
    }

    /// JSONDecoder's check that a number `strtod` read as zero is zero, rather than one too
    /// small for a `Double`: no digit 1 to 9 before the exponent. It looks at the bytes four at
    /// a time from the start, then at the last one to three from the end backwards, so that
    /// there it may meet an exponent's digit first: `0e1` fails it, `0e10` passes.
    static func isTrueZero(_ bytes: [UInt8]) -> Bool {
        func check(_ byte: UInt8) -> Bool? {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): true
            default: nil
            }
        }
        let whole = bytes.count - bytes.count % 4
        for byte in bytes[..<whole] {
            if let result = check(byte) { return result }
        }
        for byte in bytes[whole...].reversed() {
            if let result = check(byte) { return result }
        }
        return true
    }

    /// `text` (a JSON number) as JSONDecoder read it into an `Int64` through `Decimal`: digits
    /// gathered into a 128-bit mantissa until one more would not fit (later ones dropped; a
    /// dropped digit before the point raises the exponent), trailing zeros then removed; the
    /// mantissa must then fit 64 bits, and the value, its fraction dropped, `Int64` (-2^63 does
    /// not: the magnitude must).
    static func decimalInt64(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        let exponentStart = bytes.firstIndex { $0 | 0x20 == UInt8(ascii: "e") } ?? bytes.count
        var exponent = 0
        if exponentStart < bytes.count {
            guard let written = Int(String(decoding: bytes[(exponentStart + 1)...], as: UTF8.self)) else { return nil }
            exponent = written
        }
        var mantissa = (high: UInt64(0), low: UInt64(0))
        var full = false
        var inFraction = false
        for byte in bytes[..<exponentStart] {
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { continue }
            if !full, let next = timesTenPlus(mantissa, UInt64(byte - UInt8(ascii: "0"))) {
                mantissa = next
                if inFraction { exponent -= 1 }
            } else {
                full = true
                if !inFraction { exponent += 1 }
            }
        }
        while mantissa.high != 0 || mantissa.low != 0 {
            let (quotient, remainder) = dividedByTen(mantissa)
            guard remainder == 0 else { break }
            mantissa = quotient
            exponent += 1
        }
        guard mantissa.high == 0 else { return nil }
        var magnitude = mantissa.low
        if exponent < 0 {
            for _ in 0..<min(-exponent, 20) { magnitude /= 10 }
        } else if magnitude != 0 {
            for _ in 0..<min(exponent, 20) {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                magnitude = product
            }
        }
        guard let value = Int64(exactly: magnitude) else { return nil }
        return bytes.first == UInt8(ascii: "-") ? -value : value
    }

    /// `value` × 10 + `digit` in 128 bits; nil when it does not fit.
    private static func timesTenPlus(_ value: (high: UInt64, low: UInt64), _ digit: UInt64) -> (high: UInt64, low: UInt64)? {
        let (carried, low) = value.low.multipliedFullWidth(by: 10)
        let (sum, carry) = low.addingReportingOverflow(digit)
        let (high, overflow) = value.high.multipliedReportingOverflow(by: 10)
        let (total, overflowAgain) = high.addingReportingOverflow(carried + (carry ? 1 : 0))
        guard !overflow, !overflowAgain else { return nil }
        return (total, sum)
    }

    /// `value` divided by 10 in 128 bits, and the remainder.
    private static func dividedByTen(_ value: (high: UInt64, low: UInt64)) -> ((high: UInt64, low: UInt64), UInt64) {
        let (high, rest) = value.high.quotientAndRemainder(dividingBy: 10)
        let (low, remainder) = UInt64(10).dividingFullWidth((rest, value.low))
        return ((high, low), remainder)
    }
}
