import Feeds
import Foundation
import ListViewport
import ScrollworkTestSupport
import TerminalUI
import Testing
@testable import ScrollworkReader

@Suite struct PostListScreenTests {
    private let now = Date(timeIntervalSince1970: 1_790_000_000)

    private func post(_ id: Int64, title: String, read: Bool = false, starred: Bool = false, age: TimeInterval) -> EntryRow {
        EntryRow(id: id, feedID: 1, feedTitle: "Demo feed", title: title, date: now.addingTimeInterval(-age), isDated: true,
                 isRead: read, isStarred: starred, thumbnailAddress: nil, excerpt: "The start of post \(id).",
                 position: EntryPosition(sortDate: 0, id: id))
    }

    /// The text of `row` of `buffer`, trailing blanks removed.
    private func line(_ buffer: CellBuffer, _ row: Int) -> String {
        buffer.text(ofRow: row, trailingBlanks: false)
    }

    @Test func drawsEachPostWithItsMarksThumbnailBoxAndTexts() {
        let screen = PostListScreen(title: "Scrollwork demo — 2 posts", status: "q quit · ? help", now: now)
        let frame = ListViewport<PostListRow>.Frame(rows: [
            .init(item: .post(post(1, title: "First \u{1B}]0;x\u{7} post", age: 120)), top: 0, height: 5, opacity: 1, isLeaving: false),
            .init(item: .post(post(2, title: "Second", read: true, starred: true, age: 7_200)), top: 5, height: 5, opacity: 1, isLeaving: false),
        ], offset: 0, contentHeight: 10)
        var buffer = CellBuffer(columns: 60, rows: 12)
        screen.draw(frame, pictures: { $0.id == 1 ? .loading : .failed }, in: buffer.layout, into: &buffer)
        #expect(line(buffer, 0) == " Scrollwork demo — 2 posts")
        #expect(line(buffer, 1).hasPrefix("● ░░░░░░░░░░░░  First ^[]0;x^G post"))
        #expect(line(buffer, 2).hasSuffix("Demo feed · 2m"))
        #expect(line(buffer, 3).hasSuffix("The start of post 1."))
        #expect(line(buffer, 6).hasSuffix("Second"))
        #expect(!line(buffer, 6).hasPrefix("●"), "a read post has no unread mark")
        #expect(line(buffer, 7).hasSuffix("★ Demo feed · 2h"))
        #expect(line(buffer, 11) == " q quit · ? help")

        // Through the renderer into a terminal: the screen the person sees is the buffer.
        var renderer = FrameRenderer(options: .init(colorMode: .palette256))
        var terminal = InMemoryTerminal(columns: 60, rows: 12)
        terminal.apply(renderer.render(buffer))
        #expect(terminal.screen == buffer)
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func withPicturesOffNoThumbnailBoxIsDrawn() {
        // `image_mode = "none"`: the title starts after the unread mark.
        var screen = PostListScreen(title: "Header", status: "Status", now: now)
        screen.showsPictures = false
        let frame = ListViewport<PostListRow>.Frame(rows: [
            .init(item: .post(post(1, title: "First", age: 10)), top: 0, height: 5, opacity: 1, isLeaving: false),
        ], offset: 0, contentHeight: 5)
        var buffer = CellBuffer(columns: 40, rows: 8)
        screen.draw(frame, pictures: { _ in .loading }, in: buffer.layout, into: &buffer)
        #expect(line(buffer, 1) == "● First", "\(line(buffer, 1))")
        #expect(!(0..<buffer.rows).contains { line(buffer, $0).contains("░") })
    }

    @Test func aPostHalfScrolledOutNeverDrawsOverTheHeaderOrStatus() {
        let screen = PostListScreen(title: "Header", status: "Status", now: now)
        let frame = ListViewport<PostListRow>.Frame(rows: [
            .init(item: .post(post(1, title: "Above", age: 10)), top: -2, height: 5, opacity: 1, isLeaving: false),
            .init(item: .post(post(2, title: "Below", age: 10)), top: 6, height: 5, opacity: 1, isLeaving: false),
        ], offset: 2, contentHeight: 20)
        var buffer = CellBuffer(columns: 40, rows: 8)
        screen.draw(frame, pictures: { _ in .loading }, in: buffer.layout, into: &buffer)
        #expect(line(buffer, 0) == " Header")
        #expect(line(buffer, 1).hasSuffix("The start of post 1."))
        #expect(line(buffer, 7) == " Status")
    }

    @Test func theHelpBoxListsTheKeysOverTheList() {
        var screen = PostListScreen(title: "Header", status: "Status", now: now)
        screen.showsHelp = true
        var buffer = CellBuffer(columns: 80, rows: 24)
        screen.draw(.init(rows: [], offset: 0, contentHeight: 0), pictures: { _ in .loading }, in: buffer.layout, into: &buffer)
        let text = (0..<24).map { line(buffer, $0) }.joined(separator: "\n")
        for (keys, action) in PostListScreen.help(keys: .defaults) {
            #expect(text.contains(keys) && text.contains(action), "\(keys)")
        }
    }

    @Test func aSearchsWordsAreMarkedInTitlesAndExcerpts() {
        var screen = PostListScreen(title: "Search", status: "", now: now)
        screen.highlight = SearchHighlight(SearchQuery(parsing: "cafe sta", asYouType: true))
        let frame = ListViewport<PostListRow>.Frame(rows: [
            .init(item: .post(post(1, title: "Le Café du Commerce", age: 60)), top: 0, height: 5, opacity: 1, isLeaving: false),
        ], offset: 0, contentHeight: 5)
        var buffer = CellBuffer(columns: 60, rows: 8)
        screen.draw(frame, pictures: { _ in .loading }, in: buffer.layout, into: &buffer)
        let title = line(buffer, 1)
        let titleStart = title.distance(from: title.startIndex, to: title.range(of: "Café")!.lowerBound)
        let marked = (0..<60).filter { buffer[1, $0].style.attributes.contains(.reverse) }
        #expect(marked == Array(titleStart..<(titleStart + 4)), "only “Café” is marked: \(marked)")
        let excerpt = line(buffer, 3)
        let excerptStart = excerpt.distance(from: excerpt.startIndex, to: excerpt.range(of: "start")!.lowerBound)
        let markedExcerpt = (0..<60).filter { buffer[3, $0].style.attributes.contains(.reverse) }
        #expect(markedExcerpt == Array(excerptStart..<(excerptStart + 5)), "the word “sta” begins: \(markedExcerpt)")
    }

    @Test func theHelpBoxListsTheKeysTheSettingsBind() throws {
        var screen = PostListScreen(title: "Header", status: "Status", now: now)
        screen.showsHelp = true
        screen.keys = try KeyBindings(overriding: [.search: [KeyPress(.character("F"))]])
        var buffer = CellBuffer(columns: 80, rows: 30)
        screen.draw(.init(rows: [], offset: 0, contentHeight: 0), pictures: { _ in .loading }, in: buffer.layout, into: &buffer)
        let searchLine = (0..<30).map { line(buffer, $0) }.first { $0.contains("search as you type") }
        #expect(searchLine?.contains(" F / S ") == true, "\(searchLine ?? "no search line")")
        #expect(searchLine?.contains(" / / ") == false)
    }

    @Test func widePostTitlesAreCopiedWholeAndCachedStripsFollowChanges() {
        // Wide characters used to stop the copy of a post's cells into the screen.
        var screen = PostListScreen(title: "Header", status: "Status", now: now)
        let cache = PostListScreen.StripCache()
        screen.strips = cache
        var wide = post(1, title: "東京の雨 🌧️ and more", age: 60)
        let frame = { (item: EntryRow) in
            ListViewport<PostListRow>.Frame(rows: [.init(item: .post(item), top: 0, height: 5, opacity: 1, isLeaving: false)], offset: 0, contentHeight: 5)
        }
        var buffer = CellBuffer(columns: 50, rows: 8)
        screen.draw(frame(wide), pictures: { _ in .loading }, in: buffer.layout, into: &buffer)
        #expect(line(buffer, 1).hasSuffix("東京の雨 🌧️ and more"), "\(line(buffer, 1))")
        var uncached = CellBuffer(columns: 50, rows: 8)
        var plain = screen
        plain.strips = nil
        plain.draw(frame(wide), pictures: { _ in .loading }, in: uncached.layout, into: &uncached)
        #expect(uncached == buffer)

        // A change of the post, of the cursor or of the picture is drawn, not the cached cells.
        wide.isRead = true
        screen.draw(frame(wide), pictures: { _ in .loading }, in: buffer.layout, into: &buffer)
        #expect(!line(buffer, 1).hasPrefix("●"))
        screen.selectedID = 1
        screen.draw(frame(wide), pictures: { _ in .failed }, in: buffer.layout, into: &buffer)
        #expect(buffer[1, 20].style.background == ReaderColors.defaults.selectionBackground)
        #expect(line(buffer, 3).contains("✕"))
    }

    @Test func relativeDates() {
        #expect(PostListScreen.relative(now, now: now, isDated: true) == "just now")
        #expect(PostListScreen.relative(now.addingTimeInterval(-3 * 86_400), now: now, isDated: true) == "3d")
        #expect(PostListScreen.relative(now.addingTimeInterval(-300), now: now, isDated: false) == "seen 5m")
        #expect(PostListScreen.relative(now.addingTimeInterval(-90 * 86_400), now: now, isDated: true).count == 10)
    }
}

/// `scrollwork` with no command opens the reader, which needs a terminal.
@Suite struct ReadCommandTests {
    @Test func withoutATerminalTheReaderSaysWhatToDoAndCreatesNothing() throws {
        let scratch = ScratchDirectory("scrollwork-read")
        let result = try BuiltExecutable.run("scrollwork", [], environment: ["XDG_DATA_HOME": scratch.url.path, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 1)
        #expect(result.error.contains("the reader needs a terminal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }
}
