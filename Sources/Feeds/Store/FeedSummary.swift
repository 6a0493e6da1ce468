import Foundation
import GRDB

/// A subscription with its counts, as a feed list shows it: how many entries it holds, how
/// many are unread, and the last refresh's error, if it failed.
public struct FeedSummary: Sendable, Hashable, Identifiable {
    /// The feed, with its last refresh time and error.
    public var feed: StoredFeed
    /// Entries stored for the feed.
    public var total: Int
    /// Entries of the feed not marked read.
    public var unread: Int

    public var id: StoredFeed.ID { feed.id }

    public init(feed: StoredFeed, total: Int, unread: Int) {
        self.feed = feed
        self.total = total
        self.unread = unread
    }
}

extension FeedStore {
    /// Every feed with its entry and unread counts, in the order of ``feeds()``.
    ///
    /// - Complexity: O(n + f log f) for n entries and f feeds: one pass over the entries.
    public func feedSummaries() async throws(FeedStoreError) -> [FeedSummary] {
        try await read(Self.readingSummaries)
    }

    /// The feeds' summaries now, then again after every committed change that alters them (an
    /// entry read, a refresh that adds entries or fails); see ``StoreObservation``.
    public func observeFeedSummaries() -> StoreObservation<[FeedSummary]> {
        observe(Self.readingSummaries)
    }

    static let readingSummaries: @Sendable (Database) throws -> [FeedSummary] = { db in
        let rows = try Row.fetchAll(db, sql: """
            SELECT feed.*, COUNT(entry.id) AS total, COALESCE(SUM(entry.read = 0), 0) AS unread
            FROM feed LEFT JOIN entry ON entry.feedId = feed.id
            GROUP BY feed.id
            ORDER BY feed.title COLLATE NOCASE, feed.url
            """)
        return try rows.map { row in
            FeedSummary(feed: try feed(from: row), total: row["total"], unread: row["unread"])
        }
    }
}
