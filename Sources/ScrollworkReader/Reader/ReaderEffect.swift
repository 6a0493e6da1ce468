import Feeds
import FeedSync
import Foundation
import ListViewport
import TerminalUI

/// How the state moves the list.
enum ListMotion: Equatable, Sendable {
    /// Scrolls to an offset, gliding or at once.
    case scroll(to: Double, animated: Bool)
    /// Glides with a fling's momentum, to rest at an offset.
    case glide(landingAt: Double)
    /// Flings at a velocity, in rows per second.
    case fling(velocity: Double)
}

/// What the state asks the runtime to do. ``Reader`` performs them in order.
enum ReaderEffect: Equatable {
    /// Draw the screen once this event is handled.
    case draw
    /// Draw with the next frame: data that may arrive many times a frame.
    case drawNextFrame
    /// Forget what the terminal shows and draw everything.
    case repaint
    /// Stop the reader.
    case quit
    /// Give the terminal back and stop the process (Ctrl-Z).
    case suspend
    /// The terminal has this layout now.
    case resize(ScreenLayout)
    case moveList(ListMotion)
    /// A snapshot for the list, its posts grouped by day or not; `animated` false when it is
    /// another query's list.
    case submit([PostListRow], animated: Bool)
    /// Follow the store's rows for a query, dropping snapshots of any earlier generation.
    case follow(ReaderState.ListFilter, generation: Int)
    /// Follow the feeds' counts, or stop.
    case followFeeds(Bool)
    /// Add a saved search to the settings file; ``ReaderEvent/queryFeedSaved(_:failure:)`` says how it went.
    case saveQueryFeed(QueryFeed)
    /// Read a post and parse its text, for ``ReaderEvent/articleLoaded(_:_:)``.
    case loadArticle(EntryRow.ID)
    /// Look up a post's link, for ``ReaderEvent/linkFound(_:)``.
    case findLink(EntryRow.ID)
    /// Open a link in the browser, the terminal given back meanwhile.
    case openLink(URL)
    case write(StoreWrite)
    /// Refresh a feed, or every feed.
    case refresh(StoredFeed?)
    /// Sync with the account's server, which fetches the feeds.
    case sync
    /// Index the posts that wait for the search index, a batch at a time, until none waits:
    /// the posts a refresh or a sync stored (``FeedStore/indexWaitingPosts(limit:)``).
    case indexWaitingPosts
    /// Send ``ReaderEvent/timer(_:)`` after a delay, on the frame clock.
    case wake(ReaderTimer, after: Duration)
    /// The open article's pictures, to load; or none.
    case showFigures([ArticleScreen.Figure])
    /// Draw pictures this way from now on: loaded again at the size it needs.
    case drawPictures(PictureMode)
    /// The terminal may have lost the pictures it showed: send them all again with the next
    /// frame.
    case resendPictures
    /// Write these bytes to the terminal (a question to it).
    case writeTerminal([UInt8])
    /// The reader is at rest (``ReaderState/idle()``): the app may tidy up off the frames' path.
    case atRest
}
