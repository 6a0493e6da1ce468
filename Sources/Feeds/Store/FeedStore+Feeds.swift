import Foundation
import GRDB

/// Feeds: each operation is one transaction body (a static function), run on GRDB's queues while
/// the caller suspends.
extension FeedStore {
    /// Subscribes to the feed at `url`.
    ///
    /// - Throws: ``FeedStoreError/duplicateFeed(_:)`` when a feed with this URL is stored.
    /// - Complexity: O(log f) for f feeds.
    public func addFeed(url: URL, title: String? = nil, category: String? = nil) async throws(FeedStoreError) -> StoredFeed {
        try await write(Self.adding(url: url, title: title, category: category))
    }

    /// Unsubscribes from a feed; its entries go with it, starred ones included.
    ///
    /// - Throws: ``FeedStoreError/unknownFeed(_:)`` when no feed has this identifier.
    /// - Complexity: O(e log n) for e entries of the feed among n.
    public func removeFeed(_ feed: StoredFeed.ID) async throws(FeedStoreError) {
        try await write(Self.removing(feed))
    }

    /// Every stored feed, by title (case-insensitively), then URL.
    ///
    /// - Complexity: O(f log f) for f feeds.
    public func feeds() async throws(FeedStoreError) -> [StoredFeed] {
        try await read(Self.readingFeeds)
    }

    /// The feed stored under `url`, if any; URLs match exactly.
    ///
    /// - Complexity: O(log f) for f feeds.
    public func feed(url: URL) async throws(FeedStoreError) -> StoredFeed? {
        try await read(Self.readingFeed(url: url))
    }

    /// The feed with identifier `id`, if any.
    ///
    /// - Complexity: O(log f) for f feeds.
    public func feed(id: StoredFeed.ID) async throws(FeedStoreError) -> StoredFeed? {
        try await read(Self.readingFeed(id: id))
    }

    /// Records a successful refresh: the validators for the next conditional GET, and the title
    /// and link the feed gives, when it gives them. Clears the last error.
    ///
    /// - Throws: ``FeedStoreError/unknownFeed(_:)`` when no feed has this identifier.
    /// - Complexity: O(log f) for f feeds.
    public func recordRefresh(feed: StoredFeed.ID, etag: String?, lastModified: String?, info: FeedInfo?,
                              at date: Date) async throws(FeedStoreError) {
        try await write(Self.recordingRefresh(feed: feed, etag: etag, lastModified: lastModified, info: info, at: date))
    }

    /// Records a failed refresh with a message for the reader. The feed's entries and validators
    /// stay, so the list still shows what was fetched before.
    ///
    /// - Throws: ``FeedStoreError/unknownFeed(_:)`` when no feed has this identifier.
    /// - Complexity: O(log f) for f feeds.
    public func recordFailure(feed: StoredFeed.ID, message: String, at date: Date) async throws(FeedStoreError) {
        try await write(Self.recordingFailure(feed: feed, message: message, at: date))
    }

    /// Moves a feed to a new URL, after a permanent redirect; entries and reader state stay.
    ///
    /// - Throws: ``FeedStoreError/duplicateFeed(_:)`` when another feed has `url`,
    ///   ``FeedStoreError/unknownFeed(_:)`` when no feed has this identifier.
    /// - Complexity: O(log f) for f feeds.
    public func moveFeed(_ feed: StoredFeed.ID, to url: URL) async throws(FeedStoreError) {
        try await write(Self.moving(feed, to: url))
    }

    // MARK: Transactions

    static func adding(url: URL, title: String?, category: String?) -> @Sendable (Database) throws -> StoredFeed {
        { db in
            if try fetchFeed(db, url: url) != nil {
                throw FeedStoreError.duplicateFeed(url)
            }
            try db.execute(
                sql: "INSERT INTO feed (url, title, category) VALUES (?, ?, ?)",
                arguments: [url.absoluteString, title, category]
            )
            return StoredFeed(id: db.lastInsertedRowID, url: url, title: title, category: category)
        }
    }

    static func removing(_ feed: StoredFeed.ID) -> @Sendable (Database) throws -> Void {
        updatingFeed(feed, sql: "DELETE FROM feed WHERE id = ?", arguments: [feed])
    }

    static let readingFeeds: @Sendable (Database) throws -> [StoredFeed] = { db in
        try Row.fetchAll(db, sql: "SELECT * FROM feed ORDER BY title COLLATE NOCASE, url").map { try feed(from: $0) }
    }

    static func readingFeed(url: URL) -> @Sendable (Database) throws -> StoredFeed? {
        { db in try fetchFeed(db, url: url) }
    }

    static func readingFeed(id: StoredFeed.ID) -> @Sendable (Database) throws -> StoredFeed? {
        { db in try Row.fetchOne(db, sql: "SELECT * FROM feed WHERE id = ?", arguments: [id]).map { try feed(from: $0) } }
    }

    static func recordingRefresh(feed: StoredFeed.ID, etag: String?, lastModified: String?, info: FeedInfo?,
                                 at date: Date) -> @Sendable (Database) throws -> Void {
        updatingFeed(feed, sql: """
            UPDATE feed SET etag = ?, lastModified = ?, lastRefresh = ?, lastError = NULL,
                title = COALESCE(?, title), link = COALESCE(?, link)
            WHERE id = ?
            """, arguments: [etag, lastModified, date.timeIntervalSince1970, info?.title,
                             info?.link?.absoluteString, feed])
    }

    static func recordingFailure(feed: StoredFeed.ID, message: String, at date: Date) -> @Sendable (Database) throws -> Void {
        updatingFeed(feed, sql: "UPDATE feed SET lastError = ?, lastRefresh = ? WHERE id = ?",
                     arguments: [message, date.timeIntervalSince1970, feed])
    }

    static func moving(_ feed: StoredFeed.ID, to url: URL) -> @Sendable (Database) throws -> Void {
        { db in
            if let other = try fetchFeed(db, url: url), other.id != feed {
                throw FeedStoreError.duplicateFeed(url)
            }
            try updatingFeed(feed, sql: "UPDATE feed SET url = ? WHERE id = ?", arguments: [url.absoluteString, feed])(db)
        }
    }

    /// Runs `sql` on one feed; no row changed means there is no such feed.
    private static func updatingFeed(_ feed: StoredFeed.ID, sql: String, arguments: StatementArguments) -> @Sendable (Database) throws -> Void {
        { db in
            try db.execute(sql: sql, arguments: arguments)
            if db.changesCount == 0 {
                throw FeedStoreError.unknownFeed(feed)
            }
        }
    }

    static func fetchFeed(_ db: Database, url: URL) throws -> StoredFeed? {
        try Row.fetchOne(db, sql: "SELECT * FROM feed WHERE url = ?", arguments: [url.absoluteString])
            .map { try feed(from: $0) }
    }

    static func feed(from row: Row) throws -> StoredFeed {
        let id: StoredFeed.ID = row["id"]
        guard let url = EntryColumns.url(row["url"]) else {
            throw FeedStoreError.database(message: "feed \(id) has an invalid URL")
        }
        return StoredFeed(
            id: id,
            url: url,
            title: row["title"],
            link: EntryColumns.url(row["link"]),
            etag: row["etag"],
            lastModified: row["lastModified"],
            lastRefresh: EntryColumns.date(row["lastRefresh"]),
            lastError: row["lastError"],
            category: row["category"],
            remoteID: row["remoteId"]
        )
    }
}
