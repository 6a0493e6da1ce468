import Feeds
import Foundation
import TerminalUI

/// What the screens say, as views of the state: the list's heading, what an empty list says,
/// and the status line.
extension ReaderState {
    /// The list's heading: where its posts come from, how many, and what filters them.
    func heading(count: Int) -> String {
        var heading = title
        if let feed = filter.feed { heading += " › " + feed.feed.displayTitle }
        if let queryFeed = filter.queryFeed { heading += " › ⌕ " + queryFeed.name }
        // A search shows the matches stored last, up to its window: more may match.
        let more = (!filter.search.isEmpty || filter.queryFeed != nil) && count >= ListFilter.searchWindow ? "+" : ""
        heading += " — \(count)\(more)\(filter.unreadOnly ? " unread" : "") post\(count == 1 ? "" : "s")"
        if !filter.search.isEmpty { heading += " matching “\(filter.search)”" }
        if !filter.search.isEmpty || filter.queryFeed != nil { heading += filter.order == .date ? ", newest first" : ", most relevant first" }
        if !filter.unreadOnly && unreadCount > 0 { heading += ", \(unreadCount) unread" }
        return heading
    }

    /// The status line's hint on the post list, with the keys the settings bind.
    var listHint: String {
        let keys = options.keys
        return "\(keys.label(for: .help)) help · \(keys.label(for: .search)) search · \(keys.label(for: .feeds)) feeds · "
            + "\(keys.label(for: .refreshAll)) refresh · \(keys.label(for: .back)) quit"
    }

    /// The status line's hint in an article.
    var articleHint: String { "j/k scroll · space page · o open in browser · q back" }

    /// The status line's hint on the feed list.
    var feedsHint: String { "enter show · q back" }

    /// What an empty list says.
    var emptyText: String {
        if let searchProblem { return searchProblem + " Esc clears the search." }
        if !filter.search.isEmpty {
            return "No post matches “\(filter.search)”\(indexingNote.map { " yet (\($0))" } ?? ""). Esc clears the search."
        }
        if filter.unreadOnly { return "No unread posts. u shows all of them." }
        if refreshing != nil { return "Loading…" }
        return "No posts yet. r refreshes; scrollwork add URL subscribes to a feed."
    }

    /// What a search says while posts wait for the index: it does not find them yet.
    private var indexingNote: String? {
        postsWaitingForIndex > 0 ? "indexing \(postsWaitingForIndex) new post\(postsWaitingForIndex == 1 ? "" : "s")" : nil
    }

    /// The status line: the search being typed, a refresh under way, or the last message,
    /// else `hint`; then `figures` (the pictures' loading) at the right when they fit.
    func statusText(hint: String, figures: String) -> String {
        if case .search(let text, _) = screen {
            return "/" + text + "▏  " + (searchProblem.map { "left out: " + $0 } ?? (indexingNote.map { $0 + " · " } ?? "") + "enter search · esc cancel")
        }
        var left = message ?? hint
        if let refreshing, refreshing.isSync {
            let received = refreshing.sync.map { " · \($0.summary.received) received" } ?? ""
            left = "syncing" + (refreshing.sync.map { ": \($0.step)" } ?? "") + "…" + received
        } else if let refreshing {
            left = "refreshing \(refreshing.done)/\(refreshing.total) feed\(refreshing.total == 1 ? "" : "s")"
                + (refreshing.new > 0 ? " · \(refreshing.new) new" : "")
                + (refreshing.failed > 0 ? " · \(refreshing.failed) failed" : "")
        }
        let room = layout.columns - 2 - DisplayWidth.of(left)
        let figuresWidth = DisplayWidth.of(figures)
        guard !figures.isEmpty, room > figuresWidth + 2 else { return left }
        return left + String(repeating: " ", count: room - figuresWidth) + figures
    }
}
