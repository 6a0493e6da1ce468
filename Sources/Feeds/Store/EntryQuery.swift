/// Which entries a list shows, and which page of them: ``FeedStoring/entries(_:)`` returns them
/// newest first (by published date, else updated, else first seen).
public struct EntryQuery: Sendable, Hashable {
    /// Only this feed's entries; `nil` for all feeds.
    public var feed: StoredFeed.ID?
    /// Only entries not yet read.
    public var unreadOnly: Bool
    /// Only starred entries.
    public var starredOnly: Bool
    /// Only entries whose title contains this text, ignoring ASCII case; `%` and `_` match
    /// themselves. `nil` or empty for no filter.
    public var titleContains: String?
    /// Only entries whose title or excerpt (the start of the text a list shows) contains this
    /// text, ignoring ASCII case, found by reading every entry. `nil` or empty for no filter.
    /// ``search`` finds words anywhere in a post through the index, ranked.
    public var textContains: String?
    /// Only entries that match this search, through the full-text index; `nil` for no search.
    public var search: SearchQuery?
    /// How entries that match a ``search`` with words are ordered.
    public var order: Order
    /// With a ``search`` with words, only this many matches are read, those stored last
    /// (newest first as posts arrive), and only they are ordered and paged: a bound on the
    /// work of a keystroke in a large store, where a word's first letters match most posts.
    /// A query that matches fewer is answered whole. `nil` reads every match.
    public var matchWindow: Int?
    /// At most this many entries.
    public var limit: Int
    /// Skip this many entries first, for paging.
    public var offset: Int
    /// Only entries after this position in the list's order: keyset paging, which costs
    /// O(limit log n) at any depth and never skips or repeats a row when entries arrive above.
    public var after: EntryPosition?

    /// The orders of a search's results.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Most relevant first: BM25's saturated, length-normalised term frequency, a word in
        /// the title counting as ten in the text, every word of the query weighted alike (no
        /// inverse document frequency, whose count reads every post that holds a word, which
        /// for a word's first letters is most posts). Newest first among equals; within a
        /// ``matchWindow``, stored last first. Without words to rank by, it is ``date``.
        /// Paging is by ``offset`` only.
        case relevance
        /// Newest first, as every list.
        case date
    }

    /// A query; by default the first 100 entries of all feeds.
    ///
    /// - Precondition: `limit` and `offset` are not negative; `after` is not given with a
    ///   search ordered by relevance.
    public init(feed: StoredFeed.ID? = nil, unreadOnly: Bool = false, starredOnly: Bool = false,
                titleContains: String? = nil, textContains: String? = nil, search: SearchQuery? = nil, order: Order = .relevance,
                matchWindow: Int? = nil, limit: Int = 100, offset: Int = 0, after: EntryPosition? = nil) {
        precondition(limit >= 0 && offset >= 0, "EntryQuery: limit and offset must not be negative")
        precondition(after == nil || search?.hasWords != true || order == .date,
                     "EntryQuery: a search ordered by relevance pages by offset")
        self.search = search
        self.order = order
        self.matchWindow = matchWindow
        self.feed = feed
        self.unreadOnly = unreadOnly
        self.starredOnly = starredOnly
        self.titleContains = titleContains
        self.textContains = textContains
        self.limit = limit
        self.offset = offset
        self.after = after
    }
}
