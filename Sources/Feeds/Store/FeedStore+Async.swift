import Foundation

/// The suspending forms of the store's heavy operations, for callers on the cooperative thread
/// pool: they wait for SQLite on GRDB's own queues instead of blocking a pool thread.
extension FeedStore {
    /// Stores a batch of a feed's entries in one transaction, suspending until it is committed;
    /// see the blocking ``upsert(entries:feed:now:)`` for the contract.
    ///
    /// - Throws: ``FeedStoreError/unknownFeed(_:)`` when no feed has this identifier.
    /// - Complexity: O(b log n) for a batch of b among n stored entries.
    public func upsert(entries: [FeedEntry], feed: StoredFeed.ID, now: Date = Date()) async throws(FeedStoreError) -> [EntryChange] {
        try await write(Self.upserting(entries, into: feed, now: now))
    }

    /// One page of entries, newest first, suspending until it is read; see the blocking
    /// ``entries(_:)`` for the contract.
    ///
    /// - Complexity: O((offset + limit) log n) for n entries.
    public func entries(_ query: EntryQuery) async throws(FeedStoreError) -> [StoredEntry] {
        try await read(Self.selecting(query))
    }

    /// Deletes old entries by `policy`, suspending until done; see the blocking
    /// ``prune(_:feed:now:)`` for the contract.
    ///
    /// - Complexity: O(n log n) for the n entries considered.
    public func prune(_ policy: RetentionPolicy, feed: StoredFeed.ID? = nil, now: Date = Date()) async throws(FeedStoreError) -> Int {
        try await write(Self.pruning(policy, feed: feed, now: now))
    }
}
