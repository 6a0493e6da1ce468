import Foundation

/// RFC 3339 and the ISO 8601 variants feeds use: `2024-03-01T09:30:00Z`, fractional seconds,
/// `+01:00`, `+0100` or `+01` offsets, a space or lowercase `t` between date and time,
/// minutes without seconds, the basic form `20240301T093000Z`, and a date alone (midnight
/// UTC). A time without an offset is taken as UTC.
enum ISO8601Date {
    /// The instant `bytes` (ASCII) name, or `nil` when they do not follow the grammar above.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(digits: 4) else { return nil }
        let extended = reader.skip("-")
        guard let month = reader.number(digits: 2) else { return nil }
        if extended, !reader.skip("-") { return nil }
        guard let day = reader.number(digits: 2) else { return nil }
        var (hour, minute, second, fraction, offset) = (0, 0, 0, 0.0, 0)
        if reader.skip("T") || reader.skip("t") || reader.skip(" ") {
            guard let h = reader.number(digits: 2) else { return nil }
            let colons = reader.skip(":")
            guard let m = reader.number(digits: 2) else { return nil }
            (hour, minute) = (h, m)
            if colons ? reader.skip(":") : reader.peekDigit {
                guard let s = reader.number(digits: 2) else { return nil }
                second = s
                if reader.skip(".") || reader.skip(",") {
                    guard let value = reader.fraction() else { return nil }
                    fraction = value
                }
            }
            reader.skipSpaces()
            guard let zone = reader.zoneOffset() else { return nil }
            offset = zone
        }
        reader.skipSpaces()
        guard reader.atEnd else { return nil }
        return CivilDate.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                              fraction: fraction, offsetSeconds: offset)
    }
}

/// A cursor over ASCII bytes for the date grammars.
struct DigitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index == bytes.count }
    var peekDigit: Bool { index < bytes.count && FeedDate.isDigit(bytes[index]) }

    /// Consumes `character` if it is next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
    }

    /// Exactly `digits` decimal digits as a number.
    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard FeedDate.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += digits
        return value
    }

    /// The digits after a decimal point, as a fraction of one.
    mutating func fraction() -> Double? {
        var value = 0.0
        var scale = 0.1
        let start = index
        while peekDigit {
            value += Double(bytes[index] - 0x30) * scale
            scale /= 10
            index += 1
        }
        return index > start ? value : nil
    }

    /// A zone at the end: nothing (UTC), `Z`, `UTC`/`GMT`, or `±HH`, `±HHMM`, `±HH:MM`; in
    /// seconds east of UTC.
    mutating func zoneOffset() -> Int? {
        if atEnd { return 0 }
        if skip("Z") || skip("z") { return 0 }
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        if rest == "UTC" || rest == "GMT" || rest == "UT" {
            index = bytes.count
            return 0
        }
        let sign: Int
        if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
        guard let hours = number(digits: 2), hours <= 23 else { return nil }
        var minutes = 0
        if skip(":") || peekDigit {
            guard let value = number(digits: 2), value <= 59 else { return nil }
            minutes = value
        }
        return sign * (hours * 3600 + minutes * 60)
    }
}
