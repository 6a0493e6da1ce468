import Foundation

/// What a list shows of one entry, and nothing more: the light row a snapshot of thousands is
/// made of. Full content is read only when an article opens (``FeedStoring/entries(_:)``).
///
/// Identity (``id``) is the store's identifier, stable across refreshes. Equality compares
/// exactly what a row displays, so a diff of two snapshots reloads a row when, and only when,
/// its title, feed name, date, flags, thumbnail or excerpt changed; an edit to an article's
/// body that leaves its excerpt alone does not reload it.
public struct EntryRow: Sendable, Hashable, Identifiable {
    /// The store's identifier, stable across refreshes.
    public var id: StoredEntry.ID
    /// The feed the entry belongs to.
    public var feedID: StoredFeed.ID
    /// The feed's title, or its address when it has none.
    public var feedTitle: String
    /// The entry's title, plain text.
    public var title: String
    /// The date the list sorts by (``StoredEntry/sortDate``): published, else updated, else
    /// first seen.
    public var date: Date
    /// Whether ``date`` comes from the feed, rather than from when the store first saw it.
    public var isDated: Bool
    /// Whether the reader has read it.
    public var isRead: Bool
    /// Whether the reader starred it.
    public var isStarred: Bool
    /// The address of the image that represents the entry, if the feed gave one, as stored.
    ///
    /// Kept as text: parsing a URL costs more than reading the rest of the row, and a list
    /// needs the URL only of the few rows it loads (``thumbnail``).
    public var thumbnailAddress: String?

    /// The image that represents the entry, if the feed gave one.
    /// - Complexity: parses ``thumbnailAddress`` on each access.
    public var thumbnail: URL? { thumbnailAddress.flatMap(URL.init(string:)) }
    /// The start of the summary (else the content) as plain text, at most
    /// ``EntryRow/excerptLength`` characters.
    public var excerpt: String
    /// Where the row sits in the list's order, for keyset paging (``EntryQuery/after``).
    public var position: EntryPosition

    /// The longest excerpt stored, in characters: two lines of a wide terminal.
    public static let excerptLength = 240

    /// A row; the store makes them, tests and previews may too.
    public init(id: StoredEntry.ID, feedID: StoredFeed.ID, feedTitle: String, title: String, date: Date, isDated: Bool,
                isRead: Bool, isStarred: Bool, thumbnailAddress: String?, excerpt: String, position: EntryPosition) {
        self.id = id
        self.feedID = feedID
        self.feedTitle = feedTitle
        self.title = title
        self.date = date
        self.isDated = isDated
        self.isRead = isRead
        self.isStarred = isStarred
        self.thumbnailAddress = thumbnailAddress
        self.excerpt = excerpt
        self.position = position
    }
}

/// A place in the list's order (newest first, then the highest identifier first): a page that
/// starts ``EntryQuery/after`` a position holds exactly the rows that follow it, however many
/// rows were inserted above meanwhile.
public struct EntryPosition: Sendable, Hashable {
    /// The sort date as stored: seconds since 1970.
    public var sortDate: Double
    /// The entry's identifier, which breaks ties.
    public var id: StoredEntry.ID

    /// A position.
    public init(sortDate: Double, id: StoredEntry.ID) {
        self.sortDate = sortDate
        self.id = id
    }
}
