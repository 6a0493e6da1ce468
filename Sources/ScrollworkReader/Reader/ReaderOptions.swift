import Feeds
import FeedSync
import Foundation
import ListViewport
import TerminalUI

/// The reader's options, from the settings file.
package struct ReaderOptions {
    /// Refresh every feed this often; `nil` never.
    package var refreshInterval: Duration? = .seconds(30 * 60)
    /// Whether a refresh is a sync with the account's server, which fetches the feeds.
    package var syncs = false
    /// Mark a post read once it has been fully visible this long while the list moved slowly
    /// enough to read it; `nil` to mark posts read only by opening them.
    var markReadAfter: Duration?
    package var colorMode: ColorMode = .palette256
    /// What each key does.
    var keys = KeyBindings.defaults
    var colors = ReaderColors.defaults
    /// How thumbnails and article pictures are drawn.
    package var pictures = PictureMode.blocks
    /// Whether pictures sent to the terminal whole (kitty's) go compressed: over a network,
    /// where bytes cost more than the time to compress them.
    package var compressesPictures = false
    /// Saved searches, shown as feeds in the feed list.
    package var queryFeeds: [QueryFeed] = []
    /// The settings file, where a saved search goes; `nil` when searches cannot be saved.
    package var settingsFile: URL?
    /// Whether the post list is grouped by day, under headings pinned as it scrolls
    /// (`group_by_day`; a key toggles it).
    package var groupsByDay = false
    /// The calendar whose days group the list; `nil` for the user's, with their time zone,
    /// read only when a list is grouped (a launch that never groups never loads it).
    package var calendar: Calendar?

    /// Whether thumbnails and article pictures are drawn at all (`image_mode = "none"` turns
    /// them off, with their boxes).
    var showsPictures: Bool { pictures != .none }

    package init() {}

    /// The options the settings file asks for, in a terminal of `colorMode` that draws
    /// `pictures` (by default, half blocks unless the settings turn pictures off).
    package init(settings: ReaderSettings, colorMode: ColorMode, pictures: PictureMode? = nil) {
        refreshInterval = settings.refreshInterval
        markReadAfter = settings.markReadOnScroll ? settings.markReadAfter : nil
        queryFeeds = settings.queryFeeds
        groupsByDay = settings.groupByDay
        self.colorMode = colorMode
        keys = settings.keys
        colors = settings.colors
        self.pictures = pictures ?? (settings.imageMode == .always(.none) ? .none : settings.imageMode == .always(.sextants) ? .sextants : .blocks)
    }
}
