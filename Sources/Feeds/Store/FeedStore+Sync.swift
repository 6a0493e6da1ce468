import Foundation
import GRDB

/// A change of an entry's read or starred state: what the sync queue keeps, absolute, so that
/// pushing it twice is pushing it once.
public enum StateChange: String, Sendable, Hashable, Codable, CaseIterable {
    case read, unread, starred, unstarred

    /// Whether the change is of the read state (else of the starred state).
    public var isReadState: Bool { self == .read || self == .unread }
}

/// A local state change waiting in the store for the next sync to push it.
public struct QueuedStateChange: Sendable, Hashable {
    /// The queue's key, increasing in the order the changes were made.
    public var sequence: Int64
    /// The entry's id in its feed (for a synced feed, the server's item id).
    public var entryID: String
    /// What was done to it.
    public var change: StateChange

    /// A queued change.
    public init(sequence: Int64, entryID: String, change: StateChange) {
        self.sequence = sequence
        self.entryID = entryID
        self.change = change
    }
}

/// A feed that the account's server follows, as the store files it.
public struct SyncedFeed: Sendable, Hashable {
    /// The server's identifier for the feed (its stream id).
    public var remoteID: String
    /// The feed's own address.
    public var url: URL
    public var title: String?
    /// The site the feed belongs to.
    public var link: URL?
    /// The folder the server files it under.
    public var category: String?

    /// A synced feed.
    public init(remoteID: String, url: URL, title: String? = nil, link: URL? = nil, category: String? = nil) {
        self.remoteID = remoteID
        self.url = url
        self.title = title
        self.link = link
        self.category = category
    }
}

/// An entry as a feed server has it, with its read and starred states.
public struct SyncedEntryState: Sendable, Hashable {
    public var entry: FeedEntry
    public var isRead: Bool
    public var isStarred: Bool

    /// An entry and the server's states of it.
    public init(entry: FeedEntry, isRead: Bool, isStarred: Bool) {
        self.entry = entry
        self.isRead = isRead
        self.isStarred = isStarred
    }
}

/// Synced entries with their columns worked out (their excerpts, their JSON), ready for
/// ``FeedStore/upsertSynced(_:remoteFeedID:now:)-(SyncedEntryBatch,_,_)``: made before the
/// write, it can be made while another write holds the store, so that a sync's pages are
/// prepared on one core while the last one is written on the other.
public struct SyncedEntryBatch: Sendable {
    /// The entries and their states.
    public let entries: [SyncedEntryState]
    let columns: FeedStore.PreparedColumns

    /// `entries`, prepared.
    ///
    /// - Complexity: O(n) in the entries' text.
    public init(_ entries: [SyncedEntryState]) {
        self.entries = entries
        columns = FeedStore.PreparedColumns(entries.map(\.entry))
    }
}

/// What a sync's write changed in the store.
public struct SyncedStateCounts: Sendable, Hashable {
    public var new = 0
    public var markedRead = 0
    public var markedUnread = 0
    public var starred = 0
    public var unstarred = 0

    /// No changes.
    public init() {}

    /// The sum of two counts.
    public static func + (lhs: Self, rhs: Self) -> Self {
        var sum = lhs
        sum.new += rhs.new
        sum.markedRead += rhs.markedRead
        sum.markedUnread += rhs.markedUnread
        sum.starred += rhs.starred
        sum.unstarred += rhs.unstarred
        return sum
    }
}

/// Where the last sync got to.
public struct SyncMarks: Sendable, Hashable {
    /// The server's time up to which items were pulled.
    public var itemsPulledUpTo: Date?
    /// When the subscription list was last fetched.
    public var subscriptionsFetched: Date?

    /// Marks; `nil` for what never happened.
    public init(itemsPulledUpTo: Date? = nil, subscriptionsFetched: Date? = nil) {
        self.itemsPulledUpTo = itemsPulledUpTo
        self.subscriptionsFetched = subscriptionsFetched
    }
}

/// A set of ids that a server says is complete: every synced entry in it has the state, every
/// other one has not.
public enum ServerStateSet: Sendable, Hashable {
    /// The unread entries.
    case unread
    /// The starred entries.
    case starred
}

/// The store's side of syncing with a feed server: the feeds it follows (``StoredFeed/remoteID``),
/// the entries and states it sends, the queue of local state changes (filled by
/// ``FeedStore/setRead(_:entries:)`` and ``FeedStore/setStarred(_:entries:)`` for the entries of
/// those feeds, in the same transaction) and the marks of the last sync.
///
/// **The conflict rule, on the store's side:** a state with a change in the queue is
/// protected: nothing a server sends changes it, until the change is pushed and dequeued.
extension FeedStore {
    /// The queue of local state changes, oldest first.
    public func queuedStateChanges() async throws(FeedStoreError) -> [QueuedStateChange] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT sequence, itemId, action FROM sync_queue ORDER BY sequence").compactMap { row in
                guard let change = StateChange(rawValue: row["action"]) else { return nil }
                return QueuedStateChange(sequence: row["sequence"], entryID: row["itemId"], change: change)
            }
        }
    }

    /// Removes changes from the queue: the server has them.
    public func dequeueStateChanges(_ sequences: [Int64]) async throws(FeedStoreError) {
        try await write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM sync_queue WHERE sequence = ?")
            for sequence in sequences { try statement.execute(arguments: [sequence]) }
        }
    }

    /// Where the last sync got to.
    public func syncMarks() async throws(FeedStoreError) -> SyncMarks {
        try await read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM sync_mark")
            var marks = SyncMarks()
            for row in rows {
                let date = Date(timeIntervalSince1970: row["value"])
                switch row["key"] as String {
                case "itemsPulledUpTo": marks.itemsPulledUpTo = date
                case "subscriptionsFetched": marks.subscriptionsFetched = date
                default: break
                }
            }
            return marks
        }
    }

    /// Whether the store holds any entry of a synced feed.
    ///
    /// - Complexity: O(f log n) for f synced feeds among n entries.
    public func holdsSyncedEntries() async throws(FeedStoreError) -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM entry WHERE feedId IN (SELECT id FROM feed WHERE remoteId IS NOT NULL))") ?? false
        }
    }

    /// Records the marks given; a `nil` one stays as it was.
    public func recordSyncMarks(_ marks: SyncMarks) async throws(FeedStoreError) {
        try await write { db in
            let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_mark (key, value) VALUES (?, ?)")
            if let date = marks.itemsPulledUpTo { try statement.execute(arguments: ["itemsPulledUpTo", date.timeIntervalSince1970]) }
            if let date = marks.subscriptionsFetched { try statement.execute(arguments: ["subscriptionsFetched", date.timeIntervalSince1970]) }
        }
    }

    /// Makes the synced feeds the server's list: adds the new ones, updates the others, and
    /// removes, with their entries, the synced feeds not in it. A feed subscribed here before
    /// (same URL) is taken over: its entries are replaced by the server's, which come with
    /// the server's ids and states. Returns how many feeds were added and removed.
    public func replaceSyncedFeeds(_ feeds: [SyncedFeed]) async throws(FeedStoreError) -> (added: Int, removed: Int) {
        try await write { db in
            var added = 0
            let byRemote = try db.cachedStatement(sql: "SELECT id FROM feed WHERE remoteId = ?")
            let byURL = try db.cachedStatement(sql: "SELECT id FROM feed WHERE url = ?")
            for feed in feeds {
                let values: [DatabaseValueConvertible?] = [feed.url.absoluteString, feed.title, feed.link?.absoluteString, feed.category, feed.remoteID]
                if let id = try Int64.fetchOne(byRemote, arguments: [feed.remoteID]) {
                    // Another synced feed with the new URL gives it up first (the server merged two).
                    try db.execute(sql: "DELETE FROM feed WHERE url = ? AND id != ?", arguments: [feed.url.absoluteString, id])
                    try db.execute(sql: "UPDATE feed SET url = ?, title = COALESCE(?, title), link = COALESCE(?, link), category = ?, remoteId = ? WHERE id = ?",
                                   arguments: StatementArguments(values + [id]))
                } else if let id = try Int64.fetchOne(byURL, arguments: [feed.url.absoluteString]) {
                    try db.execute(sql: "DELETE FROM entry WHERE feedId = ?", arguments: [id])
                    try db.execute(sql: "UPDATE feed SET url = ?, title = COALESCE(?, title), link = COALESCE(?, link), category = ?, remoteId = ?, etag = NULL, lastModified = NULL WHERE id = ?",
                                   arguments: StatementArguments(values + [id]))
                } else {
                    try db.execute(sql: "INSERT INTO feed (url, title, link, category, remoteId) VALUES (?, ?, ?, ?, ?)", arguments: StatementArguments(values))
                    added += 1
                }
            }
            try Self.fillIDs(db, Set(feeds.map(\.remoteID)))
            try db.execute(sql: "DELETE FROM feed WHERE remoteId IS NOT NULL AND remoteId NOT IN (SELECT id FROM temp.sync_ids)")
            return (added, db.changesCount)
        }
    }

    /// Stores a page of a synced feed's entries with their states, in one transaction: new
    /// entries are added, changed ones updated, and each state set to the server's unless a
    /// queued change protects it.
    ///
    /// - Throws: ``FeedStoreError/database(message:)`` when no synced feed has `remoteFeedID`.
    public func upsertSynced(_ entries: [SyncedEntryState], remoteFeedID: String, now: Date = Date()) async throws(FeedStoreError) -> SyncedStateCounts {
        try await upsertSynced(SyncedEntryBatch(entries), remoteFeedID: remoteFeedID, now: now)
    }

    /// ``upsertSynced(_:remoteFeedID:now:)`` of a batch prepared ahead (``SyncedEntryBatch``):
    /// the transaction only compares and writes.
    public func upsertSynced(_ batch: SyncedEntryBatch, remoteFeedID: String, now: Date = Date()) async throws(FeedStoreError) -> SyncedStateCounts {
        try await upsertSynced([(remoteFeedID, batch)], now: now)
    }

    /// ``upsertSynced(_:remoteFeedID:now:)`` of several feeds' batches, prepared ahead, in one
    /// transaction: a page of a server's items holds a few of each feed's, and a transaction
    /// per feed wrote the pages of every index it touched again at each commit (a first sync
    /// of 10,000 posts in 20 feeds made 400 transactions).
    ///
    /// With `mostlyNew` (a first sync into a store that held none of the account's entries),
    /// the stored entries are not looked up ahead: each entry costs its insert alone, and one
    /// stored after all (a page that repeats an item of an earlier one) meets the insert's
    /// conflict and is compared then, as without it. The result is the same either way; the
    /// lookup (a statement per feed of a page, over its ids as JSON) was a fortieth of a first
    /// sync's CPU: 393 ms against 383 (medians of ten alternating `account add`s).
    ///
    /// - Throws: ``FeedStoreError/database(message:)`` when no synced feed has one of the
    ///   `remoteFeedID`s; then nothing is stored.
    public func upsertSynced(_ batches: [(remoteFeedID: String, batch: SyncedEntryBatch)], now: Date = Date(),
                             mostlyNew: Bool = false) async throws(FeedStoreError) -> SyncedStateCounts {
        let indexing = indexesText
        return try await write { db in
            try batches.reduce(SyncedStateCounts()) { counts, item in
                counts + (try Self.upsertSynced(item.batch, remoteFeedID: item.remoteFeedID, now: now, indexing: indexing,
                                                mostlyNew: mostlyNew, in: db))
            }
        }
    }

    /// One feed's batch of ``upsertSynced(_:now:mostlyNew:)``, in its transaction.
    private static func upsertSynced(_ batch: SyncedEntryBatch, remoteFeedID: String, now: Date, indexing: Bool,
                                     mostlyNew: Bool, in db: Database) throws -> SyncedStateCounts {
        let entries = batch.entries
        guard let feed = try Int64.fetchOne(db, sql: "SELECT id FROM feed WHERE remoteId = ?", arguments: [remoteFeedID]) else {
            throw FeedStoreError.database(message: "no synced feed \(remoteFeedID)")
        }
        var counts = SyncedStateCounts()
        let changes = try Self.upserting(entries.map(\.entry), into: feed, now: now,
                                         arrivingStates: entries.map { EntryFlags(isRead: $0.isRead, isStarred: $0.isStarred) },
                                         prepared: batch.columns, indexing: indexing, lookingUpStored: !mostlyNew)(db)
        // A new entry arrived with the server's states, which are part of its arrival, not
        // changes; a stored one takes them unless a queued change protects them.
        let stored = zip(entries, changes).filter { $0.1.state != .new }.map(\.0)
        counts.new = changes.count - stored.count
        for (column, state) in [("read", \SyncedEntryState.isRead), ("starred", \SyncedEntryState.isStarred)] {
            let statement = try db.cachedStatement(sql: Self.syncedStateSQL(column))
            for synced in stored {
                let value = synced[keyPath: state]
                try statement.execute(arguments: [value, synced.entry.id, feed, value])
                guard db.changesCount > 0 else { continue }
                switch (column, value) {
                case ("read", true): counts.markedRead += 1
                case ("read", false): counts.markedUnread += 1
                case (_, true): counts.starred += 1
                default: counts.unstarred += 1
                }
            }
        }
        return counts
    }

    /// Applies a server's complete set of unread or starred ids to every synced entry: those
    /// in it get the state, every other one loses it, except where a queued change protects
    /// the state.
    ///
    /// - Complexity: O(n) in the synced entries, read from `entry_sync_state` in one pass and
    ///   compared with the set in memory; only the entries that change are written. (The set
    ///   put into a temporary table to join, as before, cost five times as much: a sync with
    ///   nothing new spent 35 ms on an unread set of 10,000.)
    public func applyServerSet(_ set: ServerStateSet, ids: Set<String>) async throws(FeedStoreError) -> SyncedStateCounts {
        try await write { db in
            let column = set == .unread ? "read" : "starred"
            // For the unread set, being in it means read = 0; for the starred set, starred = 1.
            let inSet: Int64 = set == .unread ? 0 : 1
            let protected = Set(try String.fetchAll(db, sql: "SELECT itemId FROM sync_queue WHERE action IN \(Self.actions(of: column))").map { Array($0.utf8) })
            var gainers: [Int64] = []
            var losers: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: Self.syncedStatesSQL(column))
            while let row = try rows.next() {
                let state: Int64 = row[2]
                let entryID: String = row[1]
                // By their bytes, as SQLite compares them: Swift's `==` takes canonically
                // equivalent texts (`é` composed or not) for one.
                let isIn = ids.firstIndex(of: entryID).map { ids[$0].utf8.elementsEqual(entryID.utf8) } ?? false
                guard isIn != (state == inSet), !protected.contains(Array(entryID.utf8)) else { continue }
                if isIn { gainers.append(row[0]) } else { losers.append(row[0]) }
            }
            let update = Self.settingStatesSQL(column)
            if !gainers.isEmpty { try db.execute(sql: update, arguments: [inSet, Self.jsonArray(gainers)]) }
            if !losers.isEmpty { try db.execute(sql: update, arguments: [1 - inSet, Self.jsonArray(losers)]) }
            let (gained, lost) = (gainers.count, losers.count)
            var counts = SyncedStateCounts()
            if set == .unread {
                counts.markedUnread = gained
                counts.markedRead = lost
            } else {
                counts.starred = gained
                counts.unstarred = lost
            }
            return counts
        }
    }

    /// The statement that gives a stored entry the state `column` (`read` or `starred`) a
    /// server says it has, unless a queued change protects it; it takes (the value, the entry's
    /// id, its feed, the value). The state is compared in `entry_sync_state`, not in the row
    /// (see ``SchemaVersion/v10SyncStateIndex``).
    static func syncedStateSQL(_ column: String) -> String {
        """
        UPDATE entry SET \(column) = ? WHERE id IN (
            SELECT id FROM entry INDEXED BY entry_sync_state WHERE entryId = ? AND feedId = ? AND \(column) != ?
            AND NOT EXISTS (SELECT 1 FROM sync_queue WHERE itemId = entry.entryId AND action IN \(Self.actions(of: column))))
        """
    }

    /// The statement of ``applyServerSet(_:ids:)`` that reads every synced entry's id, server
    /// id and state `column` (`read` or `starred`): from `entry_sync_state` alone, since a
    /// row's states sit after its content, which SQLite walks to reach them (see
    /// ``SchemaVersion/v10SyncStateIndex``).
    static func syncedStatesSQL(_ column: String) -> String {
        """
        SELECT entry.id, entry.entryId, entry.\(column) FROM entry INDEXED BY entry_sync_state
        WHERE entry.feedId IN (SELECT id FROM feed WHERE remoteId IS NOT NULL)
        """
    }

    /// The statement of ``applyServerSet(_:ids:)`` that sets the state `column` of the entries
    /// whose ids are in a JSON array; it takes (the value, the array).
    static func settingStatesSQL(_ column: String) -> String {
        "UPDATE entry SET \(column) = ? WHERE id IN (SELECT value FROM json_each(?))"
    }

    /// The ids among `ids` that no synced entry has, as they were given and in their order.
    /// An id is its bytes, as SQLite compares text (`é` composed is not `é` decomposed), up to
    /// its first NUL, as the store keeps it.
    ///
    /// - Complexity: one statement, O(k log n) for k ids among n entries.
    public func unstoredSyncedEntryIDs(among ids: [String]) async throws(FeedStoreError) -> [String] {
        try await read { db in
            // One statement over the ids as a JSON array: a query per id cost 5 µs each. It
            // gives the ids' places, not their values: a value read back as text ends at its
            // first NUL, and an id with one came back as another. (Every synced entry's id read
            // into a set in memory instead took twice as long for 10,000 ids among 10,000.)
            try Int.fetchAll(db, sql: """
                SELECT ids.key FROM json_each(?) AS ids
                WHERE NOT EXISTS (SELECT 1 FROM entry JOIN feed ON feed.id = entry.feedId
                                  WHERE entry.entryId = ids.value AND feed.remoteId IS NOT NULL)
                ORDER BY ids.key
                """, arguments: [EntryColumns.json(ids)]).map { ids[$0] }
        }
    }

    /// Forgets the account's server: its feeds stay, as feeds of this machine, the queue and
    /// the marks go.
    public func forgetSync() async throws(FeedStoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE feed SET remoteId = NULL; DELETE FROM sync_queue; DELETE FROM sync_mark")
        }
    }

    /// `ids` as a JSON array, for `json_each`.
    private static func jsonArray(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// The queue's actions of the state `column` holds, as an SQL list.
    private static func actions(of column: String) -> String {
        column == "read" ? "('read', 'unread')" : "('starred', 'unstarred')"
    }

    /// Puts `ids` in the connection's temporary table `sync_ids`, emptied first.
    private static func fillIDs(_ db: Database, _ ids: Set<String>) throws {
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS sync_ids (id TEXT PRIMARY KEY); DELETE FROM temp.sync_ids")
        // One statement over the ids as a JSON array: an insert per id cost 5 µs each.
        try db.execute(sql: "INSERT OR IGNORE INTO temp.sync_ids (id) SELECT value FROM json_each(?)", arguments: [EntryColumns.json(Array(ids))])
    }
}
