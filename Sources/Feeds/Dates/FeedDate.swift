import Foundation

/// Dates as feeds write them: RFC 822 (RSS) with its common corruptions, and RFC 3339 /
/// ISO 8601 (Atom, JSON Feed, Dublin Core) with its variants.
///
/// Hand-written rather than a list of `DateFormatter` patterns tried in turn: faster, the same
/// on every platform and locale, and explicit about what is accepted. Text that is not a date
/// gives `nil`, never "now", so a broken date cannot push an old post to the top.
public enum FeedDate {
    /// The date `seconds` after 1970 when it is one a feed's date may name (years 1 to 9999,
    /// ``CivilDate/instants``), else `nil`: for dates servers send as numbers.
    package static func date(secondsSince1970 seconds: Double) -> Date? {
        guard seconds.isFinite, seconds >= Double(CivilDate.instants.lowerBound), seconds <= Double(CivilDate.instants.upperBound) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The instant `text` names, trying RFC 3339 / ISO 8601 when it starts with a four-digit
    /// year and RFC 822 otherwise; `nil` when it is neither.
    ///
    /// - Complexity: O(n) in the length of `text`.
    public static func parse(_ text: String) -> Date? {
        var trimmed = text.trimmedWhitespace
        let date = trimmed.withUTF8 { bytes in
            bytes.count >= 8 && bytes.prefix(4).allSatisfy(isDigit) ? ISO8601Date.parse(bytes) : RFC822Date.parseUsual(bytes)
        }
        return date ?? RFC822Date.parse(trimmed)
    }

    /// `date` as RFC 3339 in UTC with whole seconds, such as `2024-03-01T09:30:00Z`.
    public static func rfc3339(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = CivilDate.fromDays(days)
        let secondOfDay = Int(seconds - days * 86_400)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

/// Converting between calendar dates and days since 1970-01-01 in the proleptic Gregorian
/// calendar (Howard Hinnant's algorithms), so no `Calendar` or time zone database is needed.
enum CivilDate {
    /// Days from 1970-01-01 to `year`-`month`-`day`.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date `days` after 1970-01-01.
    static func fromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }

    /// The instant for a validated local date and time at `offsetSeconds` east of UTC, or
    /// `nil` when a field is out of range (February 30th, 25 o'clock) or the instant is outside
    /// ``instants``. A leap second (:60)
    /// counts as :59, since `Date` cannot represent it.
    static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                     fraction: Double = 0, offsetSeconds: Int) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              (0...23).contains(hour) || (hour == 24 && minute == 0 && second == 0),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds)
        guard instants.contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The instants a feed's date may name, in seconds since 1970: years 1 to 9999, UTC, what
    /// RFC 3339 (``FeedDate/rfc3339(_:)``) can write. Year 0 and the years past 9999 are a
    /// typo's or a fuzzer's.
    static let instants: ClosedRange<Int64> = -62_135_596_800 ... 253_402_300_799

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
