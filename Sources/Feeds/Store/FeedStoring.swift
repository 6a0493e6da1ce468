import Foundation

/// Keeping feeds and their entries: what refreshing writes and what the list reads.
///
/// ``FeedStore`` is the SQLite implementation; tests of code that refreshes or lists can swap in
/// their own. Implementations are `Sendable` and their methods may block on disk I/O, so call them
/// off the main actor.
public protocol FeedStoring: Sendable {
    /// Subscribes to the feed at `url`.
    func addFeed(url: URL, title: String?, category: String?) throws(FeedStoreError) -> StoredFeed
    /// Unsubscribes from a feed and deletes its entries, starred ones included.
    func removeFeed(_ feed: StoredFeed.ID) throws(FeedStoreError)
    /// Every stored feed, by title then URL.
    func feeds() throws(FeedStoreError) -> [StoredFeed]
    /// The feed stored under `url`, if any.
    func feed(url: URL) throws(FeedStoreError) -> StoredFeed?
    /// The feed with identifier `id`, if any.
    func feed(id: StoredFeed.ID) throws(FeedStoreError) -> StoredFeed?
    /// Moves a feed to a new URL, after a permanent redirect, keeping its entries.
    func moveFeed(_ feed: StoredFeed.ID, to url: URL) throws(FeedStoreError)

    /// Stores a batch of entries of one feed, all or nothing, and says which were new, modified
    /// or unchanged.
    func upsert(entries: [FeedEntry], feed: StoredFeed.ID, now: Date) throws(FeedStoreError) -> [EntryChange]
    /// Records a successful refresh: the validators for the next conditional GET and what the
    /// feed says about itself; clears the last error.
    func recordRefresh(feed: StoredFeed.ID, etag: String?, lastModified: String?, info: FeedInfo?,
                       at date: Date) throws(FeedStoreError)
    /// Records a failed refresh; the feed's entries stay.
    func recordFailure(feed: StoredFeed.ID, message: String, at date: Date) throws(FeedStoreError)

    /// Marks entries read or unread.
    func setRead(_ isRead: Bool, entries: [StoredEntry.ID]) throws(FeedStoreError)
    /// Stars or unstars entries.
    func setStarred(_ isStarred: Bool, entries: [StoredEntry.ID]) throws(FeedStoreError)
    /// Deletes old entries by `policy`, in one feed or all; returns how many were deleted.
    func prune(_ policy: RetentionPolicy, feed: StoredFeed.ID?, now: Date) throws(FeedStoreError) -> Int
    /// One page of entries, newest first.
    func entries(_ query: EntryQuery) throws(FeedStoreError) -> [StoredEntry]

    /// ``upsert(entries:feed:now:)``, suspending instead of blocking the calling thread.
    func upsert(entries: [FeedEntry], feed: StoredFeed.ID, now: Date) async throws(FeedStoreError) -> [EntryChange]
    /// ``prune(_:feed:now:)``, suspending instead of blocking the calling thread.
    func prune(_ policy: RetentionPolicy, feed: StoredFeed.ID?, now: Date) async throws(FeedStoreError) -> Int
    /// ``entries(_:)``, suspending instead of blocking the calling thread.
    func entries(_ query: EntryQuery) async throws(FeedStoreError) -> [StoredEntry]
}
