import Foundation

/// RFC 822 / RFC 2822 dates as RSS feeds write them, corruptions included: a missing or
/// long day name, no comma, a full month name, two-digit years (below 50 are 20xx), Perl's
/// years since 1900 (`106`), hyphenated `02-Jan-2006`, ctime order (`Mon Jan 2 15:04:05
/// 2006`), minutes without seconds, a 12-hour clock (`8:19 pm`), year-first `2020/1/10`, no
/// time at all, named US zones, military letters, `GMT+2` style and `+05:30` offsets, a
/// missing zone. A missing or unknown zone is taken as UTC,
/// as RFC 2822 prescribes for `-0000`.
///
/// Works on ASCII-lowercased bytes without making a string per word: every RSS entry has a
/// date or two, and strings made the date the costliest field of an entry.
enum RFC822Date {
    typealias Token = ArraySlice<UInt8>

    /// The instant `text` names, or `nil` when it has no recognizable day, month and year or
    /// a field is out of range.
    static func parse(_ text: String) -> Date? {
        let bytes = text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (hour: Int, minute: Int, second: Int)?
        var offset: Int?
        for token in tokens(bytes) {
            if let number = number(token) {
                if day == nil, token.count <= 2, year == nil || month != nil {
                    day = number
                } else if year == nil {
                    year = expandYear(number, digits: token.count)
                } else {
                    return nil
                }
            } else if month == nil, let value = monthNumber(token) {
                month = value
            } else if time == nil, token.contains(UInt8(ascii: ":")), let parsed = parseTime(token) {
                time = parsed.time
                if let zone = parsed.zone { offset = zone }
            } else if let clock = time, let afternoon = meridiem(token) {
                // "8:19 pm".
                guard let hours = twentyFourHour(clock.hour, afternoon: afternoon) else { return nil }
                time = (hours, clock.minute, clock.second)
            } else if time != nil || year != nil, offset == nil, let zone = parseZone(token) {
                offset = zone
            } else if isWeekday(token) {
                continue
            } else if time == nil || offset != nil {
                return nil
            }
        }
        guard let day, let month, let year else { return nil }
        let clock = time ?? (0, 0, 0)
        return CivilDate.date(year: year, month: month, day: day, hour: clock.hour, minute: clock.minute,
                              second: clock.second, offsetSeconds: offset ?? 0)
    }

    /// The instant of a date in the form nearly every feed writes, `Mon, 02 Jan 2006 15:04:05
    /// +0000` (the weekday optional, the day one or two digits, the zone a numeric offset or
    /// `GMT`, `UT`, `UTC` or `Z`, letters in any case), read in one pass over the bytes; `nil`
    /// for any other text, which ``parse(_:)`` reads. Where both read a date, it is the same.
    static func parseUsual(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let count = bytes.count
        var index = 0
        func digit(_ at: Int) -> Int? {
            at < count && FeedDate.isDigit(bytes[at]) ? Int(bytes[at] &- 0x30) : nil
        }
        func digits(_ length: Int) -> Int? {
            var value = 0
            for offset in 0..<length {
                guard let digit = digit(index + offset) else { return nil }
                value = value * 10 + digit
            }
            index += length
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        /// The three letters at `index`, lowercased, as one number.
        func word() -> UInt32? {
            guard index + 3 <= count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<3 {
                let byte = bytes[index + offset] | 0x20
                guard byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") else { return nil }
                value = value << 8 | UInt32(byte)
            }
            index += 3
            return value
        }
        if count > 0, !FeedDate.isDigit(bytes[0]) {
            guard let weekday = word(), usualWeekdays.contains(weekday), skip(UInt8(ascii: ",")), skip(0x20) else { return nil }
        }
        guard var day = digit(index) else { return nil }
        index += 1
        if let second = digit(index) {
            day = day * 10 + second
            index += 1
        }
        guard skip(0x20), let name = word(), let month = usualMonths.firstIndex(of: name), skip(0x20),
              let year = digits(4), skip(0x20),
              let hour = digits(2), skip(UInt8(ascii: ":")), let minute = digits(2), skip(UInt8(ascii: ":")), let second = digits(2),
              skip(0x20), index < count else { return nil }
        var offset = 0
        let sign = bytes[index]
        if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            index += 1
            guard count - index == 4, let hours = digits(2), let minutes = digits(2), hours <= 14, minutes <= 59 else { return nil }
            offset = (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        } else {
            var zone: [UInt8] = []
            while index < count, zone.count < 4 { zone.append(bytes[index] | 0x20); index += 1 }
            guard index == count, ["gmt", "ut", "utc", "z"].contains(where: { zone.elementsEqual($0.utf8) }) else { return nil }
        }
        return CivilDate.date(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
    }

    private static func threeLetters(_ name: String) -> UInt32 {
        name.utf8.prefix(3).reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static let usualWeekdays: [UInt32] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map(threeLetters)
    private static let usualMonths: [UInt32] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map(threeLetters)

    /// A 12-hour clock's hour (1...12) on a 24-hour clock; `nil` for any other hour.
    private static func twentyFourHour(_ hour: Int, afternoon: Bool) -> Int? {
        (1...12).contains(hour) ? hour % 12 + (afternoon ? 12 : 0) : nil
    }

    /// `am` or `pm` (with or without dots): whether it is the afternoon.
    private static func meridiem(_ token: Token) -> Bool? {
        let letters = token.filter { $0 != UInt8(ascii: ".") }
        if letters.elementsEqual("am".utf8) { return false }
        if letters.elementsEqual("pm".utf8) { return true }
        return nil
    }

    /// The words of `bytes`, split at spaces and commas, with `02-jan-2006` split in three, and
    /// `2020/1/10` (year first: the only order that is not ambiguous) as `10 jan 2020`.
    private static func tokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var start = 0
        func flush(_ end: Int) {
            guard end > start else { return }
            let token = bytes[start..<end]
            let parts = token.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
            let slashed = token.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            if slashed.count == 3, slashed[0].count == 4, let month = number(slashed[1]), (1...12).contains(month),
               (1...2).contains(slashed[2].count), number(slashed[0]) != nil, number(slashed[2]) != nil {
                tokens += [slashed[2], monthNames[month - 1][...], slashed[0]]
            } else if token.first != UInt8(ascii: "-"), parts.count == 3, parts.allSatisfy({ !$0.isEmpty }), monthNumber(parts[1]) != nil {
                tokens += parts
            } else {
                tokens.append(token)
            }
        }
        for (index, byte) in bytes.enumerated() where byte == 0x20 || byte == 0x2C || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            flush(index)
            start = index + 1
        }
        flush(bytes.count)
        return tokens
    }

    /// The value of a run of ASCII digits, or `nil` if anything else is in it.
    private static func number(_ digits: Token) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for byte in digits {
            guard FeedDate.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func expandYear(_ year: Int, digits: Int) -> Int? {
        switch digits {
        case 1, 2: year < 50 ? 2000 + year : 1900 + year
        case 3: 1900 + year
        case 4: year
        default: nil
        }
    }

    /// `15:04`, `15:04:05` or `15:04:05.123`, maybe glued to an offset (`15:04:05+0100`).
    private static func parseTime(_ token: Token) -> (time: (Int, Int, Int), zone: Int?)? {
        if token.count > 2, let afternoon = meridiem(token.suffix(2)), let parsed = parseClock(token.dropLast(2)), parsed.zone == nil {
            // "8:19pm": one meridiem, on a clock without a zone (read without recursion: a
            // token of thousands of "am"s overflowed the stack, one call for each).
            guard let hours = twentyFourHour(parsed.time.0, afternoon: afternoon) else { return nil }
            return ((hours, parsed.time.1, parsed.time.2), nil)
        }
        return parseClock(token)
    }

    /// `15:04`, `15:04:05` or `15:04:05.999`, and a zone after it (`+0100`, `Z`).
    private static func parseClock(_ token: Token) -> (time: (Int, Int, Int), zone: Int?)? {
        var clock = token
        var zone: Int?
        if let signIndex = token.firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "z") }) {
            guard let parsed = parseZone(token[signIndex...]) else { return nil }
            zone = parsed
            clock = token[..<signIndex]
        }
        let parts = clock.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = number(parts[0]), let minute = number(parts[1]) else { return nil }
        var second = 0
        if parts.count == 3 {
            let whole = parts[2].prefix { $0 != UInt8(ascii: ".") }
            guard whole.count == 2, let value = number(whole) else { return nil }
            second = value
        }
        return ((hour, minute, second), zone)
    }

    /// Seconds east of UTC for a zone token, or `nil` if it is not one.
    private static func parseZone(_ token: Token) -> Int? {
        guard let first = token.first else { return nil }
        if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { return numericOffset(token, hoursOnly: false) }
        for prefix in ["gmt", "utc", "ut"] where token.starts(with: prefix.utf8) {
            let rest = token.dropFirst(prefix.utf8.count)
            guard let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { continue }
            return numericOffset(rest, hoursOnly: true)
        }
        if token.count == 1, let military = militaryOffset(first) { return military * 3600 }
        guard token.count <= 4, token.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return nil }
        return namedZones[String(decoding: token, as: UTF8.self)].map { $0 * 3600 }
    }

    /// `+0100`, `+01:00`, `+1`, `-05`; with `hoursOnly`, also `+2` after GMT.
    private static func numericOffset(_ token: Token, hoursOnly: Bool) -> Int? {
        let sign = token.first == UInt8(ascii: "-") ? -1 : 1
        var value = 0
        var count = 0
        for byte in token.dropFirst() where byte != UInt8(ascii: ":") {
            // Four digits at most: a longer run is no offset (and twenty would overflow).
            guard FeedDate.isDigit(byte), count < 4 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            count += 1
        }
        let (hours, minutes): (Int, Int)
        switch count {
        case 1, 2: (hours, minutes) = (value, 0)
        case 3 where !hoursOnly, 4: (hours, minutes) = (value / 100, value % 100)
        default: return nil
        }
        guard hours <= 14, minutes <= 59 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// Military zone letters as the military uses them (A is UTC+1, N is UTC-1, Z is UTC;
    /// J is unused). RFC 822 printed the signs the wrong way round; writers follow the
    /// military meaning.
    private static func militaryOffset(_ letter: UInt8) -> Int? {
        let value = Int(letter)
        switch letter {
        case UInt8(ascii: "z"): return 0
        case UInt8(ascii: "a")...UInt8(ascii: "i"): return value - 0x60
        case UInt8(ascii: "k")...UInt8(ascii: "m"): return value - 0x61
        case UInt8(ascii: "n")...UInt8(ascii: "y"): return -(value - 0x6D)
        default: return nil
        }
    }

    /// 1 to 12 for a month's name or its abbreviation (`sep` and `sept` both), else `nil`.
    private static func monthNumber(_ token: Token) -> Int? {
        guard token.count >= 3, let index = monthNames.firstIndex(where: { token.starts(with: $0.prefix(3)) }) else { return nil }
        let name = monthNames[index]
        let matches = token.count == 3 || token.elementsEqual(name) || (index == 8 && token.elementsEqual("sept".utf8))
        return matches ? index + 1 : nil
    }

    private static func isWeekday(_ token: Token) -> Bool {
        guard token.count >= 3, let name = weekdayNames.first(where: { token.starts(with: $0.prefix(3)) }) else { return false }
        // Abbreviations of any length from three letters on: "tue", "tues", "thur", "thurs".
        return token.count <= name.count && name.starts(with: token)
    }

    private static let monthNames: [[UInt8]] = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ].map { Array($0.utf8) }

    private static let weekdayNames: [[UInt8]] = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ].map { Array($0.utf8) }

    /// Hours east of UTC for the zone names RFC 822 defines and a few more that feeds use.
    private static let namedZones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
        "cet": 1, "cest": 2, "bst": 1, "eet": 2, "eest": 3, "jst": 9,
    ]
}
