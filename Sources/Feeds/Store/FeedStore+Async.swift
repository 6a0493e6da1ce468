import Foundation

/// The suspending forms of every store operation, for callers on the cooperative thread pool:
/// they wait for SQLite on GRDB's own queues instead of blocking a pool thread. Each runs the
/// same transaction body as its blocking form; the contracts are stated there.
extension FeedStore {
    /// Subscribes to the feed at `url`; see the blocking ``addFeed(url:title:category:)``.
    public func addFeed(url: URL, title: String? = nil, category: String? = nil) async throws(FeedStoreError) -> StoredFeed {
        try await write(Self.adding(url: url, title: title, category: category))
    }

    /// Unsubscribes from a feed; see the blocking ``removeFeed(_:)``.
    public func removeFeed(_ feed: StoredFeed.ID) async throws(FeedStoreError) {
        try await write(Self.removing(feed))
    }

    /// Every stored feed, by title then URL; see the blocking ``feeds()``.
    public func feeds() async throws(FeedStoreError) -> [StoredFeed] {
        try await read(Self.readingFeeds)
    }

    /// The feed stored under `url`, if any; see the blocking ``feed(url:)``.
    public func feed(url: URL) async throws(FeedStoreError) -> StoredFeed? {
        try await read(Self.readingFeed(url: url))
    }

    /// The feed with identifier `id`, if any; see the blocking ``feed(id:)``.
    public func feed(id: StoredFeed.ID) async throws(FeedStoreError) -> StoredFeed? {
        try await read(Self.readingFeed(id: id))
    }

    /// Moves a feed to a new URL; see the blocking ``moveFeed(_:to:)``.
    public func moveFeed(_ feed: StoredFeed.ID, to url: URL) async throws(FeedStoreError) {
        try await write(Self.moving(feed, to: url))
    }

    /// Stores a batch of a feed's entries in one transaction, suspending until it is committed;
    /// see the blocking ``upsert(entries:feed:now:)`` for the contract.
    ///
    /// - Throws: ``FeedStoreError/unknownFeed(_:)`` when no feed has this identifier.
    /// - Complexity: O(b log n) for a batch of b among n stored entries.
    public func upsert(entries: [FeedEntry], feed: StoredFeed.ID, now: Date = Date()) async throws(FeedStoreError) -> [EntryChange] {
        try await write(Self.upserting(entries, into: feed, now: now))
    }

    /// Records a successful refresh; see the blocking ``recordRefresh(feed:etag:lastModified:info:at:)``.
    public func recordRefresh(feed: StoredFeed.ID, etag: String?, lastModified: String?, info: FeedInfo?,
                              at date: Date) async throws(FeedStoreError) {
        try await write(Self.recordingRefresh(feed: feed, etag: etag, lastModified: lastModified, info: info, at: date))
    }

    /// Records a failed refresh; see the blocking ``recordFailure(feed:message:at:)``.
    public func recordFailure(feed: StoredFeed.ID, message: String, at date: Date) async throws(FeedStoreError) {
        try await write(Self.recordingFailure(feed: feed, message: message, at: date))
    }

    /// Marks entries read or unread; see the blocking ``setRead(_:entries:)``.
    public func setRead(_ isRead: Bool, entries: [StoredEntry.ID]) async throws(FeedStoreError) {
        try await write(Self.settingFlag("read", to: isRead, entries: entries))
    }

    /// Stars or unstars entries; see the blocking ``setStarred(_:entries:)``.
    public func setStarred(_ isStarred: Bool, entries: [StoredEntry.ID]) async throws(FeedStoreError) {
        try await write(Self.settingFlag("starred", to: isStarred, entries: entries))
    }

    /// One page of entries, newest first, suspending until it is read; see the blocking
    /// ``entries(_:)`` for the contract.
    ///
    /// - Complexity: O((offset + limit) log n) for n entries.
    public func entries(_ query: EntryQuery) async throws(FeedStoreError) -> [StoredEntry] {
        try await read(Self.selecting(query))
    }

    /// The whole entry with identifier `id` (content included), for an article that opens;
    /// `nil` when it was deleted.
    /// - Complexity: O(log n).
    public func entry(id: StoredEntry.ID) async throws(FeedStoreError) -> StoredEntry? {
        try await read(Self.selectingEntry(id: id))
    }

    /// One page of list rows; see the blocking ``rows(_:)``.
    public func rows(_ query: EntryQuery) async throws(FeedStoreError) -> [EntryRow] {
        try await read(Self.selectingRows(query))
    }

    /// Deletes old entries by `policy`, suspending until done; see the blocking
    /// ``prune(_:feed:now:)`` for the contract.
    ///
    /// - Complexity: O(n log n) for the n entries considered.
    public func prune(_ policy: RetentionPolicy, feed: StoredFeed.ID? = nil, now: Date = Date()) async throws(FeedStoreError) -> Int {
        try await write(Self.pruning(policy, feed: feed, now: now))
    }
}
