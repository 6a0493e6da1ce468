import Feeds
import Foundation
import ListViewport
import TerminalUI

/// The reader's screen as a function of values: its state, the list as the viewport last laid
/// it out, what the thumbnail shelf holds of each picture, and the time. ``Reader`` draws
/// through it; a test can draw any state without a runtime.
struct ReaderView {
    var state: ReaderState
    /// The list's last frame.
    var frame: ListViewport<PostListRow>.Frame
    /// How many posts the list holds.
    var count: Int
    /// What a post's thumbnail shows now.
    var thumbnail: (EntryRow) -> PictureState
    /// What an article's picture shows now.
    var figure: (URL) -> PictureState
    /// The pictures' loading, for the status line; empty when pictures are off.
    var figures: String
    /// The wall clock's time, which relative dates count from.
    var now: Date

    /// Draws the screen in front into `buffer`: the open article, the feed list, or the post
    /// list (with the help over it). `strips` keeps the posts' cells from frame to frame.
    func draw(into buffer: inout CellBuffer, strips: PostListScreen.StripCache) {
        let layout = state.layout
        switch state.screen {
        case .article(let article, let scroll):
            article.draw(scroll: scroll, status: state.articleHint, pictures: figure, accent: state.options.colors.accent, in: layout, into: &buffer)
        case .feeds(var feeds):
            feeds.now = now
            feeds.draw(status: state.statusText(hint: state.feedsHint, figures: figures), in: layout, into: &buffer)
        case .list, .help, .search:
            var screen = PostListScreen(title: state.heading(count: count), status: state.statusText(hint: state.listHint, figures: figures), now: now)
            screen.selectedID = state.selectedID
            if case .help = state.screen { screen.showsHelp = true }
            screen.strips = strips
            screen.colors = state.options.colors
            screen.keys = state.options.keys
            screen.showsPictures = state.options.showsPictures
            screen.highlight = state.searchHighlight
            if count == 0 { screen.emptyText = state.emptyText }
            screen.draw(frame, pictures: thumbnail, in: layout, into: &buffer)
        }
    }
}
