/// Something a key does in the reader.
///
/// The raw value is the action's name in the `[keys]` table of the settings file
/// (`page_down = ["space", "pagedown"]`). Ctrl-C (quit) and Ctrl-Z (suspend) are not actions:
/// they always work, whatever the bindings, so a bad binding can never trap anyone in the
/// reader.
enum ReaderAction: String, CaseIterable, Sendable {
    /// Move the cursor, or the article, one row down.
    case down
    /// Move the cursor, or the article, one row up.
    case up
    /// Scroll down a screen.
    case pageDown = "page_down"
    /// Scroll up a screen.
    case pageUp = "page_up"
    /// Go to the first post, or the top of the article.
    case top
    /// Go to the last post, or the end of the article.
    case bottom
    /// Open the post under the cursor (or the feed, in the feed list).
    case open
    /// Close the article, the help or the feed list; on the post list, quit.
    case back
    /// Quit the reader from any screen.
    case quit
    /// Open the post's link in the browser (`$BROWSER`, else `xdg-open`).
    case openLink = "open_link"
    /// Refresh the feed of the post under the cursor (the open feed, in the feed list).
    case refresh
    /// Refresh every feed.
    case refreshAll = "refresh_all"
    /// Show only unread posts, or all posts again.
    case unreadOnly = "unread_only"
    /// Star or unstar the post.
    case star
    /// Mark the post read, or unread again.
    case toggleRead = "toggle_read"
    /// Mark every post shown read.
    case markAllRead = "mark_all_read"
    /// Search the posts.
    case search
    /// Save the search on screen as a feed of its own (`[query_feeds]` in the settings file).
    case saveSearch = "save_search"
    /// Order a search's results by relevance, or newest first.
    case searchOrder = "search_order"
    /// Group the post list by day, or not.
    case groupByDay = "group_by_day"
    /// Show the feed list, with unread counts and last errors.
    case feeds
    /// Show the keys.
    case help
    /// Draw the whole screen again.
    case redraw

    /// What the action does, in a few words, for the help overlay and the example settings.
    var summary: String {
        switch self {
        case .down: "down one row"
        case .up: "up one row"
        case .pageDown: "down a screen"
        case .pageUp: "up a screen"
        case .top: "to the top"
        case .bottom: "to the bottom"
        case .open: "open the post"
        case .back: "close the article, help or feed list; on the post list, quit"
        case .quit: "quit from any screen"
        case .openLink: "open the post's link in the browser"
        case .refresh: "refresh this feed"
        case .refreshAll: "refresh every feed"
        case .unreadOnly: "show unread posts only, or all"
        case .star: "star or unstar the post"
        case .toggleRead: "mark the post read or unread"
        case .markAllRead: "mark every post shown read"
        case .search: "search the posts"
        case .saveSearch: "save the search shown as a feed"
        case .searchOrder: "order a search by relevance or by date"
        case .groupByDay: "group the posts by day, or not"
        case .feeds: "show the feed list"
        case .help: "show the keys"
        case .redraw: "draw the screen again"
        }
    }
}
