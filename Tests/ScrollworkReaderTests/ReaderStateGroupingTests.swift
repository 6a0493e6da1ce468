import Feeds
import Foundation
import ListViewport
import TerminalUI
import Testing
@testable import ScrollworkReader

/// The post list grouped by day, in the state: what the setting and its key submit, and the
/// cursor, the keys and the mouse over days' headings and under the pinned one.
@MainActor
@Suite struct ReaderStateGroupingTests {
    typealias Fixture = ReaderStateTests

    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// Posts 1... `hoursAgo` before the snapshot's time, newest first.
    static func posts(hoursAgo: [Double]) -> [EntryRow] {
        hoursAgo.enumerated().map { index, hours in
            var post = Fixture.row(Int64(index + 1))
            post.date = Fixture.epoch.addingTimeInterval(-hours * 3_600)
            return post
        }
    }

    static func options(grouped: Bool) -> ReaderOptions {
        var options = ReaderOptions()
        options.groupsByDay = grouped
        options.calendar = utc
        return options
    }

    /// A state grouping by day showing `posts`, and its list as the viewport lays it out.
    static func grouped(_ posts: [EntryRow], offset: Double = 0) -> (ReaderState, ReaderList) {
        let items = PostListRow.grouped(posts, byDayIn: utc, now: Fixture.epoch)
        let list = Fixture.list(items, offset: offset)
        var state = ReaderState(title: "Test", options: options(grouped: true), layout: ScreenLayout(columns: 80, rows: 27))
        _ = state.start()
        let effects = state.update(Fixture.snapshot(posts), list: list, now: .zero)
        #expect(effects == [.submit(items, animated: false), .wake(.newDay(1), after: untilMidnight)], "the first snapshot, grouped")
        return (state, list)
    }

    /// From the epoch (14:13:20 UTC) to midnight.
    static let untilMidnight = Duration.seconds(9 * 3_600 + 46 * 60 + 40)

    /// At midnight the days are titled again, from the wall clock moved on as the frame clock
    /// has: "Today" becomes "Yesterday", through the diff (a reload of the heading).
    @Test func atMidnightTheDaysAreTitledAgain() {
        var (state, list) = Self.grouped(Self.twoDays)
        // Another snapshot the same day asks for no other wake-up.
        #expect(state.update(Fixture.snapshot(Self.twoDays), list: list, now: .seconds(60))
            == [.submit(PostListRow.grouped(Self.twoDays, byDayIn: Self.utc, now: Fixture.epoch), animated: true)])
        let effects = state.update(.timer(.newDay(1)), list: list, now: Self.untilMidnight + .seconds(60))
        let tomorrow = Fixture.epoch.addingTimeInterval(TimeInterval(Self.untilMidnight.components.seconds))
        let regrouped = PostListRow.grouped(Self.twoDays, byDayIn: Self.utc, now: tomorrow)
        #expect(effects == [.submit(regrouped, animated: true), .drawNextFrame, .wake(.newDay(2), after: .seconds(86_400))])
        #expect(regrouped.compactMap { if case .day(let day) = $0 { day.title } else { nil } } == ["Yesterday", "Sunday 20 September"])
        #expect(state.update(.timer(.newDay(1)), list: list, now: .seconds(86_400)).isEmpty, "a wake-up replaced is ignored")
        // Ungrouped, midnight changes nothing.
        _ = state.update(Fixture.key("D"), list: list, now: .seconds(86_400))
        list = Fixture.list(0, rows: Self.twoDays)
        #expect(state.update(.timer(.newDay(2)), list: list, now: .seconds(2 * 86_400)).isEmpty)
    }

    /// Grouping turned on long after the last snapshot titles the days from the wall clock
    /// now, and wakes at the midnight after now; before any snapshot, it asks for no wake-up.
    @Test func groupingTurnedOnLateTitlesTheDaysFromNow() {
        var state = ReaderState(title: "Test", options: Self.options(grouped: false), layout: ScreenLayout(columns: 80, rows: 27))
        _ = state.start()
        let list = Fixture.list(0, rows: Self.twoDays)
        #expect(state.update(Fixture.key("D"), list: list, now: .zero) == [.submit([], animated: true), .draw], "no snapshot, no wake-up")
        _ = state.update(Fixture.key("D"), list: list, now: .zero)
        _ = state.update(Fixture.snapshot(Self.twoDays), list: list, now: .seconds(10))
        // Eleven hours on, past midnight (01:13 the next day), with no new snapshot.
        let later = Duration.seconds(10 + 11 * 3_600)
        let regrouped = PostListRow.grouped(Self.twoDays, byDayIn: Self.utc, now: Fixture.epoch.addingTimeInterval(11 * 3_600))
        #expect(regrouped.first.map { if case .day(let day) = $0 { day.title } else { "" } } == "Yesterday")
        #expect(state.update(Fixture.key("D"), list: list, now: later)
            == [.submit(regrouped, animated: true), .draw, .wake(.newDay(1), after: .seconds(24 * 3_600 - 3_600 - 13 * 60 - 20))])
    }

    /// Two days of posts: today 1 and 2, yesterday 3 to 12 (the epoch is 14:13 UTC).
    static let twoDays = posts(hoursAgo: [1, 2] + (0..<10).map { 22 + Double($0) })

    @Test func theKeyGroupsTheSameSnapshotAnimatedAndASearchByRelevanceIsNotGrouped() {
        let posts = Self.twoDays
        let list = Fixture.list(0, rows: posts)
        var state = ReaderState(title: "Test", options: Self.options(grouped: false), layout: ScreenLayout(columns: 80, rows: 27))
        _ = state.start()
        #expect(state.update(Fixture.snapshot(posts), list: list, now: .zero) == [.submit(PostListRow.ungrouped(posts), animated: false)])
        let grouped = PostListRow.grouped(posts, byDayIn: Self.utc, now: Fixture.epoch)
        #expect(grouped.filter(\.isHeading).count == 2)
        // D: the same posts under their days, the headings animating in; D again takes them out.
        #expect(state.update(Fixture.key("D"), list: list, now: .zero)
            == [.submit(grouped, animated: true), .draw, .wake(.newDay(1), after: Self.untilMidnight)])
        #expect(state.message == "grouped by day · D ungroups")
        #expect(state.update(Fixture.key("D"), list: list, now: .zero) == [.submit(PostListRow.ungrouped(posts), animated: true), .draw])
        _ = state.update(Fixture.key("D"), list: list, now: .zero)

        // A search ranked by relevance has no days; ordered by date (d) it has them again.
        _ = state.update(Fixture.key("/"), list: list, now: .zero)
        _ = state.update(Fixture.key("p"), list: list, now: .zero)
        let found = Array(posts.prefix(3))
        #expect(state.update(Fixture.snapshot(found, generation: 2), list: list, now: .zero)
            == [.submit(PostListRow.ungrouped(found), animated: true)])
        _ = state.update(.input(.key(KeyPress(.enter))), list: list, now: .zero)
        _ = state.update(Fixture.key("d"), list: list, now: .zero)
        #expect(state.update(Fixture.snapshot(found, generation: 3), list: list, now: .zero)
            == [.submit(PostListRow.grouped(found, byDayIn: Self.utc, now: Fixture.epoch), animated: false)], "the wake-up is pending")
        // Turned off during a search by relevance, then on: said to apply when ordered by date.
        _ = state.update(Fixture.key("d"), list: list, now: .zero)
        _ = state.update(Fixture.key("D"), list: list, now: .zero)
        _ = state.update(Fixture.key("D"), list: list, now: .zero)
        #expect(state.message == "grouped by day when ordered by date · D turns it off")
    }

    @Test func theCursorStepsOverHeadingsAndGoesToTheFirstAndLastPost() {
        var (state, list) = Self.grouped(Self.twoDays)
        // Rows: today's heading, posts 1 and 2, yesterday's heading, posts 3 to 12.
        #expect(list.items.map(\.id).prefix(5).map { $0 < 0 } == [true, false, false, true, false])
        // The first j takes the first post, below the heading pinned at the top.
        _ = state.update(Fixture.key("j"), list: list, now: .zero)
        #expect(state.selectedID == 1)
        _ = state.update(Fixture.key("j"), list: list, now: .seconds(1))
        #expect(state.update(Fixture.key("j"), list: list, now: .seconds(2)) == [.draw], "post 3 is on screen")
        #expect(state.selectedID == 3, "over yesterday's heading")
        _ = state.update(Fixture.key("k"), list: list, now: .seconds(3))
        #expect(state.selectedID == 2)
        _ = state.update(Fixture.key("G"), list: list, now: .seconds(4))
        #expect(state.selectedID == 12)
        _ = state.update(Fixture.key("g"), list: list, now: .seconds(5))
        #expect(state.selectedID == 1, "the first post, not today's heading")
        _ = state.update(Fixture.key("k"), list: list, now: .seconds(6))
        #expect(state.selectedID == 1, "nothing above the first post")
        // Mark all read writes posts only.
        #expect(state.update(Fixture.key("A"), list: list, now: .seconds(7)).contains(.write(.setRead(true, Array(1...12)))))
    }

    /// A page leaves the cursor on a post wholly below the pinned heading: the page is a
    /// screen less a post and the heading's line.
    @Test func aPageKeepsTheCursorBelowThePinnedHeading() {
        let items = PostListRow.grouped(Self.twoDays, byDayIn: Self.utc, now: Fixture.epoch)
        // 27 rows tall: a page of 21. Post 5 starts at 22, the line below the heading.
        let list = Fixture.list(items, height: 27)
        var state = ReaderState(title: "Test", options: Self.options(grouped: true), layout: ScreenLayout(columns: 80, rows: 29))
        _ = state.start()
        _ = state.update(Fixture.snapshot(Self.twoDays), list: list, now: .zero)
        _ = state.update(Fixture.key("j"), list: list, now: .zero)
        #expect(state.selectedID == 1)
        #expect(state.update(Fixture.key(" "), list: list, now: .seconds(1)) == [.moveList(.scroll(to: 21, animated: true))])
        #expect(state.selectedID == 5, "post 5, at 22, wholly below the heading's line at 21")
        // At the top, b goes to the first post, not today's heading.
        _ = state.update(Fixture.key("b"), list: list, now: .seconds(2))
        #expect(state.selectedID == 1)
    }

    /// Pictures drawn over the cells stay below the pinned heading, as the posts' cells do.
    @Test func picturesStayBelowThePinnedHeading() {
        let (_, list) = Self.grouped(Self.twoDays, offset: 12)
        #expect(PostListScreen.pictureRows(in: 1..<26, of: list.frame) == 2..<26)
        #expect(PostListScreen.pictureRows(in: 1..<26, of: .init(rows: list.frame.rows, offset: 12, contentHeight: 62)) == 1..<26)
        // A heading pushed out by the next leaves its line to pictures.
        let pushed = ListViewport<PostListRow>.Row(item: list.items[0], top: -1, height: 1, opacity: 1, isLeaving: false)
        #expect(PostListScreen.pictureRows(in: 1..<26, of: .init(rows: [], offset: 12, contentHeight: 62, pinnedHeader: pushed)) == 1..<26)
    }

    @Test func aPostIsRevealedBelowThePinnedHeadingWhichNeitherCountsNorOpens() {
        // Scrolled to post 3, yesterday's first: its heading is pinned over its first line,
        // so the first post fully on screen is post 4.
        let offset = 12.0
        var (state, list) = Self.grouped(Self.twoDays, offset: offset)
        #expect(list.frame.pinnedHeader?.item.id == list.items[3].id && list.frame.pinnedHeader?.top == 0)
        #expect(list.coveredTop == 1)
        #expect(list.items[list.topRow].id == 4)
        _ = state.update(Fixture.key("j"), list: list, now: .zero)
        #expect(state.selectedID == 4)
        // k to post 3: the list moves a line down, so that it shows whole under its heading.
        #expect(state.update(Fixture.key("k"), list: list, now: .seconds(1)) == [.moveList(.scroll(to: offset - 1, animated: true))])
        // Up to post 2, of the day before: its own top less the heading's line.
        _ = state.update(Fixture.key("k"), list: list, now: .seconds(2))
        #expect(state.selectedID == 2)
        // A click on the pinned heading (the body's first line) opens nothing; below it, post 3's
        // byline opens post 3.
        #expect(state.update(.input(.mouse(MouseEvent(.press(.left), column: 20, row: 1))), list: list, now: .seconds(3)).isEmpty)
        #expect(state.update(.input(.mouse(MouseEvent(.press(.left), column: 20, row: 2))), list: list, now: .seconds(3))
            .contains(.loadArticle(3)))
    }
}
