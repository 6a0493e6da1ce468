import Feeds
import Foundation
import SeededRandom
import Testing
@testable import ScrollworkReader

/// Grouping the post list by day: the headings, their titles and identities, and what a post
/// out of order does.
@Suite struct PostListRowTests {
    /// Thursday 26 November 2026, 15:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_705_200)

    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    static func post(_ id: Int64, hoursAgo: Double) -> EntryRow {
        EntryRow(id: id, feedID: 1, feedTitle: "News", title: "Post \(id)", date: now.addingTimeInterval(-hoursAgo * 3_600),
                 isDated: true, isRead: false, isStarred: false, thumbnailAddress: nil, excerpt: "",
                 position: EntryPosition(sortDate: 0, id: id))
    }

    /// The titles of headings and posts, in order: "# Today", "Post 1", ...
    static func outline(_ rows: [PostListRow]) -> [String] {
        rows.map { row in
            switch row {
            case .day(let heading): "# " + heading.title
            case .post(let post): post.title
            }
        }
    }

    @Test func postsGoUnderTodayYesterdayAndTheirDates() {
        let posts = [
            Self.post(1, hoursAgo: 1), Self.post(2, hoursAgo: 14), Self.post(3, hoursAgo: 16), Self.post(4, hoursAgo: 39),
            Self.post(5, hoursAgo: 60), Self.post(6, hoursAgo: 24 * 400),
        ]
        let rows = PostListRow.grouped(posts, byDayIn: Self.calendar("UTC"), now: Self.now)
        #expect(Self.outline(rows) == [
            "# Today", "Post 1", "Post 2", "# Yesterday", "Post 3", "Post 4", "# Tuesday 24 November", "Post 5",
            "# Wednesday 22 October 2025", "Post 6",
        ])
        // Days fall where the reader's clock says: in Tokyo (UTC+9) it is Friday already, and
        // the first three posts are yesterday's.
        let tokyo = PostListRow.grouped(posts, byDayIn: Self.calendar("Asia/Tokyo"), now: Self.now)
        #expect(Self.outline(tokyo).prefix(6) == ["# Yesterday", "Post 1", "Post 2", "Post 3", "# Wednesday 25 November", "Post 4"])
        #expect(PostListRow.ungrouped(posts).map(\.id) == posts.map(\.id))
        #expect(PostListRow.grouped([], byDayIn: Self.calendar("UTC"), now: Self.now).isEmpty)
    }

    @Test func aPostOutOfOrderStaysUnderTheHeadingAboveItsDayIsNeverHeadedTwice() {
        // A post dated tomorrow, stored after today's (a list ordered by when posts arrived),
        // and one of today's again after yesterday's.
        let posts = [Self.post(1, hoursAgo: 1), Self.post(2, hoursAgo: -20), Self.post(3, hoursAgo: 20), Self.post(4, hoursAgo: 2)]
        let rows = PostListRow.grouped(posts, byDayIn: Self.calendar("UTC"), now: Self.now)
        #expect(Self.outline(rows) == ["# Today", "Post 1", "# Friday 27 November", "Post 2", "# Yesterday", "Post 3", "Post 4"])
        #expect(Set(rows.map(\.id)).count == rows.count)
    }

    @Test func headingIdentitiesAreNegativeOnePerDayAndKeepTheirDayAcrossRetitling() {
        let calendar = Self.calendar("UTC")
        let today = PostListRow.grouped([Self.post(1, hoursAgo: 1)], byDayIn: calendar, now: Self.now)
        let tomorrow = PostListRow.grouped([Self.post(1, hoursAgo: 1)], byDayIn: calendar, now: Self.now.addingTimeInterval(86_400))
        // At midnight "Today" becomes "Yesterday": the same heading (a reload), not another.
        #expect(today[0].id == tomorrow[0].id && today[0].id < 0)
        #expect(today[0] != tomorrow[0])
        #expect(Self.outline(tomorrow) == ["# Yesterday", "Post 1"])
    }

    /// Random lists, newest first, in random time zones (with their summer time): under
    /// every heading only posts of its day, each day headed once, in order, and the posts in
    /// their order.
    @Test func randomListsAreGroupedExactlyByTheirDays() {
        let seed = randomizedTestSeed()
        print("PostListRowTests seed \(seed) (SCROLLWORK_SEED replays it)")
        var random = SeededGenerator(seed: seed)
        let zones = ["UTC", "Europe/London", "America/New_York", "Australia/Lord_Howe", "Pacific/Kiritimati", "Asia/Kathmandu"]
        for round in 0..<200 {
            let calendar = Self.calendar(zones.randomElement(using: &random)!)
            var age = Double.random(in: -30...30, using: &random)
            let posts = (0..<Int.random(in: 0...60, using: &random)).map { index -> EntryRow in
                age += [0, 0.01, 0.5, 3, 30, 500].randomElement(using: &random)!
                return Self.post(Int64(index + 1), hoursAgo: age)
            }
            let rows = PostListRow.grouped(posts, byDayIn: calendar, now: Self.now)
            #expect(rows.compactMap(\.post) == posts, "seed \(seed), round \(round)")
            var day: DayHeading?
            var starts: [Date] = []
            for row in rows {
                switch row {
                case .day(let heading):
                    day = heading
                    starts.append(heading.start)
                case .post(let post):
                    let start = calendar.startOfDay(for: post.date)
                    #expect(day?.start == start, "seed \(seed), round \(round): \(post.title) under \(String(describing: day))")
                }
            }
            #expect(starts == starts.sorted(by: >) && Set(starts).count == starts.count, "seed \(seed), round \(round)")
        }
    }
}
