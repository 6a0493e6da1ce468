import Foundation

/// Keeping feeds and their entries, for async code: what refreshing writes and what the list
/// reads and watches.
///
/// Every requirement suspends rather than blocks, so callers on the cooperative thread pool
/// never hold a pool thread while SQLite waits for a lock or the disk. ``FeedStore`` is the
/// SQLite implementation; tests of code that refreshes or lists can swap in their own.
public protocol FeedStoring: Sendable {
    /// Subscribes to the feed at `url`.
    func addFeed(url: URL, title: String?, category: String?) async throws(FeedStoreError) -> StoredFeed
    /// Unsubscribes from a feed and deletes its entries, starred ones included.
    func removeFeed(_ feed: StoredFeed.ID) async throws(FeedStoreError)
    /// Every stored feed, by title then URL.
    func feeds() async throws(FeedStoreError) -> [StoredFeed]
    /// The feed stored under `url`, if any.
    func feed(url: URL) async throws(FeedStoreError) -> StoredFeed?
    /// The feed with identifier `id`, if any.
    func feed(id: StoredFeed.ID) async throws(FeedStoreError) -> StoredFeed?
    /// Moves a feed to a new URL, after a permanent redirect, keeping its entries.
    func moveFeed(_ feed: StoredFeed.ID, to url: URL) async throws(FeedStoreError)

    /// Stores a batch of entries of one feed, all or nothing, and says which were new, modified
    /// or unchanged.
    func upsert(entries: [FeedEntry], feed: StoredFeed.ID, now: Date) async throws(FeedStoreError) -> [EntryChange]
    /// Records a successful refresh: the validators for the next conditional GET and what the
    /// feed says about itself; clears the last error.
    func recordRefresh(feed: StoredFeed.ID, etag: String?, lastModified: String?, info: FeedInfo?,
                       at date: Date) async throws(FeedStoreError)
    /// Records a failed refresh; the feed's entries stay.
    func recordFailure(feed: StoredFeed.ID, message: String, at date: Date) async throws(FeedStoreError)

    /// Marks entries read or unread.
    func setRead(_ isRead: Bool, entries: [StoredEntry.ID]) async throws(FeedStoreError)
    /// Stars or unstars entries.
    func setStarred(_ isStarred: Bool, entries: [StoredEntry.ID]) async throws(FeedStoreError)
    /// Deletes old entries by `policy`, in one feed or all; returns how many were deleted.
    func prune(_ policy: RetentionPolicy, feed: StoredFeed.ID?, now: Date) async throws(FeedStoreError) -> Int
    /// One page of whole entries (content included), newest first: for an article that opens.
    func entries(_ query: EntryQuery) async throws(FeedStoreError) -> [StoredEntry]
    /// The whole entry with identifier `id`, for an article that opens; `nil` when deleted.
    func entry(id: StoredEntry.ID) async throws(FeedStoreError) -> StoredEntry?
    /// One page of the light rows a list shows, in the order of ``entries(_:)``.
    func rows(_ query: EntryQuery) async throws(FeedStoreError) -> [EntryRow]
    /// The rows of `query` now, then again after every committed change that alters them.
    func observeRows(_ query: EntryQuery) -> EntryRowsObservation
}
