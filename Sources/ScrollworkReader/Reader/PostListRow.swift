import Feeds
import Foundation

/// A row of the post list: a post, or, when the list is grouped by day, the heading of a
/// day's posts ("Today", "Yesterday", then dates). Headings are the list's section headers:
/// the viewport pins the top one over its posts, and the next pushes it out
/// (`ListViewport`'s `SectionHeaders`), and a refresh that starts a new day inserts one at the
/// top through the same diff as its posts.
package enum PostListRow: Identifiable, Hashable, Sendable {
    case post(EntryRow)
    case day(DayHeading)

    /// A post's is the store's identifier, which is positive; a heading's is negative
    /// (``DayHeading/id``). Both are plain integers, so the diff hashes them as its fastest
    /// identities do (`BitwiseIdentity`).
    package var id: Int64 {
        switch self {
        case .post(let post): post.id
        case .day(let heading): heading.id
        }
    }

    /// The post, unless the row is a heading.
    package var post: EntryRow? {
        if case .post(let post) = self { post } else { nil }
    }

    /// Whether the row is a day's heading.
    var isHeading: Bool {
        if case .day = self { true } else { false }
    }

    /// The rows of `posts` ungrouped.
    /// - Complexity: O(n).
    static func ungrouped(_ posts: [EntryRow]) -> [PostListRow] {
        posts.map(PostListRow.post)
    }

    /// `posts`, newest first, each day's under its heading: the day its date falls on in
    /// `calendar`, titled "Today", "Yesterday" or with its date as seen from `now`.
    ///
    /// A post out of date order (newer than the one above it, as a post dated in the future
    /// after a refresh) stays under the heading above it when its own day is already there:
    /// a day is never headed twice, so identities stay unique.
    /// - Complexity: O(n), with the calendar asked only at each new day.
    static func grouped(_ posts: [EntryRow], byDayIn calendar: Calendar, now: Date) -> [PostListRow] {
        var rows: [PostListRow] = []
        rows.reserveCapacity(posts.count + 8)
        var current: DateInterval?
        var headed: Set<Date> = []
        var titles = DayHeading.Titles(calendar: calendar, now: now)
        for post in posts {
            // The calendar is asked only when a post leaves the day above it: a date is
            // inside its day's half-open interval.
            if current.map({ !($0.start <= post.date && post.date < $0.end) }) ?? true,
               let day = calendar.dateInterval(of: .day, for: post.date) {
                current = day
                if headed.insert(day.start).inserted {
                    rows.append(.day(DayHeading(start: day.start, title: titles.title(ofDayStarting: day.start))))
                }
            }
            rows.append(.post(post))
        }
        return rows
    }
}

/// The heading of a day's posts in a list grouped by day.
package struct DayHeading: Hashable, Sendable {
    /// The day's first instant in the reader's calendar.
    package var start: Date
    /// "Today", "Yesterday", or the day's date ("Monday 23 November", with the year when it
    /// is not this year's). Part of the heading's equality: at midnight a snapshot retitles
    /// "Today" as "Yesterday", a reload of the row.
    package var title: String

    /// Negative, and one per day: its first instant's second, counted from -2⁶².
    package var id: Int64 { -(Int64(1) << 62) + Int64(start.timeIntervalSince1970.rounded()) }

    /// Titles of days, from one `now` in one calendar; the date formatter is made at the first
    /// day that needs it.
    struct Titles {
        let calendar: Calendar
        let today: Date
        let yesterday: Date
        let year: Int
        private var formatters: (thisYear: DateFormatter, otherYears: DateFormatter)?

        init(calendar: Calendar, now: Date) {
            self.calendar = calendar
            today = calendar.startOfDay(for: now)
            yesterday = calendar.date(byAdding: .day, value: -1, to: today).map(calendar.startOfDay(for:)) ?? today
            year = calendar.component(.year, from: now)
        }

        /// "Today", "Yesterday", "Monday 23 November", or "Monday 23 November 2025" for a day
        /// of another year than now's.
        mutating func title(ofDayStarting start: Date) -> String {
            if start == today { return "Today" }
            if start == yesterday { return "Yesterday" }
            let formatters = self.formatters ?? (Self.formatter("EEEE d MMMM", calendar), Self.formatter("EEEE d MMMM y", calendar))
            self.formatters = formatters
            return (calendar.component(.year, from: start) == year ? formatters.thisYear : formatters.otherYears).string(from: start)
        }

        private static func formatter(_ format: String, _ calendar: Calendar) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = calendar
            formatter.timeZone = calendar.timeZone
            formatter.dateFormat = format
            return formatter
        }
    }
}
