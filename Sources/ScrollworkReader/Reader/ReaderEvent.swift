import Feeds
import FeedSync
import Foundation
import ListViewport
import TerminalUI

/// Something that happened to the reader: a key, a snapshot of the store, a refresh's
/// progress, a timer. ``ReaderState/update(_:list:now:)`` turns each into state and effects.
package enum ReaderEvent: Sendable {
    case input(InputEvent)
    /// A snapshot of the list of query `generation`, with its rows by identity (made off the
    /// main actor), read at `date` on the wall clock (which says what "today" is in a list
    /// grouped by day). Snapshots of an earlier query are dropped.
    case rows([EntryRow], [EntryRow.ID: EntryRow], unread: Int, generation: Int, date: Date)
    /// The feeds with their counts, for the feed list.
    case feeds(FeedOverview)
    case refreshProgress(FeedRefreshProgress)
    case refreshFinished([FeedRefreshOutcome])
    /// A sync with the account's server is at a step.
    case syncProgress(SyncRuntime.Progress)
    case syncFinished(SyncRuntime.Outcome)
    /// A batch of the posts waiting for the search index was indexed; `waiting` still wait.
    case postsIndexed(waiting: Int)
    /// A message for the status line.
    case message(String)
    /// A saved search is in the settings file, or could not be put there (`failure`).
    case queryFeedSaved(QueryFeed, failure: String?)
    /// Pictures arrived; they are delivered with the next frame.
    case thumbnailsArrived
    /// A post to show, with its text parsed off the main actor.
    case articleLoaded(StoredEntry, ArticleDocument)
    /// The link of the post `o` was pressed on; `nil` when it has none.
    case linkFound(URL?)
    /// A wake-up the state asked for is due.
    case timer(ReaderTimer)
    /// A store write finished, with why it failed if it did.
    case written(StoreWrite, failure: String?)
    /// A frame went by: the list may have moved.
    case frameTick
    /// The terminal answered what it draws: pictures are drawn this way from now on, and
    /// `notice` says what could not be honoured.
    case pictures(PictureMode, notice: String?)
    /// The kernel says the terminal's cells are this many pixels now (with a resize): a new
    /// font size.
    case kernelCellPixels(CellPixelSize)
}

/// The wake-ups the state asks for, at most one of each pending.
package enum ReaderTimer: Hashable, Sendable {
    /// Refresh every feed, on the settings' interval.
    case autoRefresh
    /// Look again at which posts have been on screen long enough to count as read.
    case markReadCheck
    /// The first screen of posts has not come out in time: the refresh held for it starts.
    case firstScreenDeadline
    /// Midnight: a list grouped by day titles its days again ("Today" becomes "Yesterday").
    /// Only the newest one asked for counts (``ReaderState`` numbers them).
    case newDay(Int)
    /// The reader may be at rest: it is if no event came after the first `n` (``ReaderState/idle()``).
    case rest(Int)
}

/// A change the reader makes to the store. Writes are performed one after another, in the
/// order the state asked for them.
package enum StoreWrite: Equatable, Sendable {
    case setRead(Bool, [EntryRow.ID])
    case setStarred(Bool, [EntryRow.ID])

    /// The posts it changes.
    var ids: [EntryRow.ID] {
        switch self {
        case .setRead(_, let ids), .setStarred(_, let ids): ids
        }
    }
}
