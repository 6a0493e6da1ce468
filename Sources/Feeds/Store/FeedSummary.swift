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
    /// Every feed with its entry and unread counts, in the order of ``feeds()``, now, then again
    /// after every committed change that alters them (an entry read, a refresh that adds entries
    /// or fails); see ``StoreObservation``.
    ///
    /// - Complexity: O(n + f log f) a read for n entries and f feeds: one pass over the entries.
    public func observeFeedSummaries() -> StoreObservation<[FeedSummary]> {
        observe(Self.readingSummaries)
    }

    /// The feeds' summaries and how many posts match each of `searches` (saved searches shown
    /// as feeds), now and again after every committed change that alters them.
    ///
    /// - Complexity: one read of ``observeFeedSummaries()`` and, per search, a count of its matches.
    public func observeFeedSummaries(searches: [SearchQuery]) -> StoreObservation<FeedOverview> {
        let counting = searches.map(Self.countingMatches)
        return observe { db in
            FeedOverview(feeds: try Self.readingSummaries(db), searches: try counting.map { try $0(db) })
        }
    }

    static func countingMatches(_ search: SearchQuery) -> @Sendable (Database) throws -> SearchCount {
        let (sql, arguments) = counting(EntryQuery(search: search, order: .date, limit: 1))
        return { db in
            let row = try Row.fetchOne(db, sql: sql, arguments: arguments)
            return SearchCount(total: row?[0] ?? 0, unread: row?[1] ?? 0)
        }
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

/// The feeds' summaries with the counts of the saved searches shown beside them: see
/// ``FeedStore/observeFeedSummaries(searches:)``.
public struct FeedOverview: Sendable, Equatable {
    /// Each feed's summary, by title.
    public var feeds: [FeedSummary]
    /// The counts of each search, in the order asked.
    public var searches: [SearchCount]

    public init(feeds: [FeedSummary], searches: [SearchCount]) {
        self.feeds = feeds
        self.searches = searches
    }
}

/// How many posts a search matches, and how many of them are unread.
public struct SearchCount: Sendable, Hashable {
    public var total: Int
    public var unread: Int

    public init(total: Int, unread: Int) {
        self.total = total
        self.unread = unread
    }
}
