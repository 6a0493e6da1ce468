import Foundation

/// RFC 822 / RFC 2822 dates as RSS feeds write them, corruptions included: a missing or
/// long day name, no comma, a full month name, two-digit years (below 50 are 20xx), Perl's
/// years since 1900 (`106`), hyphenated `02-Jan-2006`, ctime order (`Mon Jan 2 15:04:05
/// 2006`), minutes without seconds, no time at all, named US zones, military letters, `GMT+2`
/// style and `+05:30` offsets, a missing zone. A missing or unknown zone is taken as UTC,
/// as RFC 2822 prescribes for `-0000`.
enum RFC822Date {
    /// The instant `text` names, or `nil` when it has no recognizable day, month and year or
    /// a field is out of range.
    static func parse(_ text: String) -> Date? {
        let tokens = lowercasedTokens(text).flatMap(splitHyphenatedDate)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (hour: Int, minute: Int, second: Int)?
        var offset: Int?
        for token in tokens {
            if token.utf8.allSatisfy(FeedDate.isDigit), let number = Int(token) {
                if day == nil, token.count <= 2, year == nil || month != nil {
                    day = number
                } else if year == nil {
                    year = expandYear(number, digits: token.count)
                } else {
                    return nil
                }
            } else if let value = months[String(token.prefix(3))], token.count >= 3, month == nil, monthNames.contains(String(token)) {
                month = value
            } else if time == nil, token.utf8.contains(UInt8(ascii: ":")), let parsed = parseTime(token) {
                time = parsed.time
                if let zone = parsed.zone { offset = zone }
            } else if time != nil || year != nil, offset == nil, let zone = parseZone(token) {
                offset = zone
            } else if weekdays.contains(String(token)) {
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

    /// The words of `text`, ASCII-lowercased, split at spaces and commas. Works on bytes:
    /// `lowercased()` and `split` on characters cost more than the rest of the parse.
    private static func lowercasedTokens(_ text: String) -> [Substring] {
        var tokens: [Substring] = []
        var current: [UInt8] = []
        func flush() {
            guard !current.isEmpty else { return }
            tokens.append(Substring(String(decoding: current, as: UTF8.self)))
            current.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            switch byte {
            case 0x20, 0x2C, 0x09, 0x0A, 0x0D: flush()
            case 0x41...0x5A: current.append(byte + 0x20)
            default: current.append(byte)
            }
        }
        flush()
        return tokens
    }

    private static func splitHyphenatedDate(_ token: Substring) -> [Substring] {
        guard token.utf8.first != UInt8(ascii: "-"), token.utf8.contains(UInt8(ascii: "-")) else { return [token] }
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }), months[String(parts[1].prefix(3))] != nil else { return [token] }
        return parts
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
    private static func parseTime(_ token: Substring) -> (time: (Int, Int, Int), zone: Int?)? {
        var clock = token
        var zone: Int?
        if let signIndex = token.firstIndex(where: { $0 == "+" || $0 == "-" || $0 == "z" }) {
            guard let parsed = parseZone(token[signIndex...]) else { return nil }
            zone = parsed
            clock = token[..<signIndex]
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].utf8.count), parts[1].utf8.count == 2,
              let hour = number(parts[0]), let minute = number(parts[1]) else { return nil }
        var second = 0
        if parts.count == 3 {
            let whole = parts[2].prefix { $0 != "." }
            guard whole.utf8.count == 2, let value = number(whole) else { return nil }
            second = value
        }
        return ((hour, minute, second), zone)
    }

    /// The value of a run of ASCII digits, or `nil` if anything else is in it (`Int` would
    /// accept a sign).
    private static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.utf8.allSatisfy(FeedDate.isDigit) else { return nil }
        return Int(digits)
    }

    /// Seconds east of UTC for a zone token, or `nil` if it is not one.
    private static func parseZone(_ token: Substring) -> Int? {
        if let sign = token.utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            return numericOffset(token, hoursOnly: false)
        }
        if let named = namedZones[String(token)] { return named * 3600 }
        for prefix in ["gmt", "utc", "ut"] where token.hasPrefix(prefix) {
            let rest = token.dropFirst(prefix.count)
            guard rest.first == "+" || rest.first == "-" else { continue }
            return numericOffset(rest, hoursOnly: true)
        }
        if token.count == 1, let letter = token.unicodeScalars.first, let military = militaryOffset(letter) {
            return military * 3600
        }
        guard token.first == "+" || token.first == "-" else { return nil }
        return numericOffset(token, hoursOnly: false)
    }

    /// `+0100`, `+01:00`, `+1`, `-05`; with `hoursOnly`, also `+2` after GMT.
    private static func numericOffset(_ token: Substring, hoursOnly: Bool) -> Int? {
        let sign = token.utf8.first == UInt8(ascii: "-") ? -1 : 1
        var value = 0
        var count = 0
        for byte in token.utf8.dropFirst() where byte != UInt8(ascii: ":") {
            guard FeedDate.isDigit(byte) else { return nil }
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
    private static func militaryOffset(_ letter: Unicode.Scalar) -> Int? {
        let value = Int(letter.value)
        switch letter {
        case "z": return 0
        case "a"..."i": return value - 0x60
        case "k"..."m": return value - 0x61
        case "n"..."y": return -(value - 0x6D)
        default: return nil
        }
    }

    private static let months: [String: Int] = [
        "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
        "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
    ]

    private static let monthNames: Set<String> = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "january", "february", "march", "april", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    private static let weekdays: Set<String> = [
        "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]

    /// Hours east of UTC for the zone names RFC 822 defines and a few more that feeds use.
    private static let namedZones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
        "cet": 1, "cest": 2, "bst": 1, "eet": 2, "eest": 3, "jst": 9,
    ]
}
