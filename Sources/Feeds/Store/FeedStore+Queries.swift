import Foundation
import GRDB

extension FeedStore {
    /// One page of entries matching `query`, newest first by ``StoredEntry/sortDate``, ties broken
    /// by the store's identifier (newest first) so that pages never overlap.
    ///
    /// - Complexity: O((offset + limit) log n) for n entries through the date indexes; a title
    ///   search scans the entries in date order until the page is full.
    public func entries(_ query: EntryQuery) async throws(FeedStoreError) -> [StoredEntry] {
        try await read(Self.selecting(query))
    }

    /// The reading of ``entries(_:)``.
    static func selecting(_ query: EntryQuery) -> @Sendable (Database) throws -> [StoredEntry] {
        let (sql, arguments) = filtered(query, columns: "entry.*")
        return { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map(storedEntry)
        }
    }

    /// The reading of ``entry(id:)``.
    static func selectingEntry(id: StoredEntry.ID) -> @Sendable (Database) throws -> StoredEntry? {
        { db in try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]).map(storedEntry) }
    }

    private static func storedEntry(_ row: Row) throws -> StoredEntry {
        StoredEntry(
            id: row["id"],
            feedID: row["feedId"],
            entry: try EntryColumns.entry(from: row),
            isRead: row["read"],
            isStarred: row["starred"],
            firstSeen: Date(timeIntervalSince1970: row["firstSeen"])
        )
    }

    /// The whole entry with identifier `id` (content included), for an article that opens;
    /// `nil` when it was deleted.
    ///
    /// - Complexity: O(log n).
    public func entry(id: StoredEntry.ID) async throws(FeedStoreError) -> StoredEntry? {
        try await read(Self.selectingEntry(id: id))
    }

    /// One page of the light rows a list shows, in the order and with the filters of
    /// ``entries(_:)``, without reading summaries, contents or JSON columns.
    ///
    /// - Complexity: O((offset + limit) log n) for n entries, O(limit log n) with
    ///   ``EntryQuery/after``; a title search scans in date order until the page is full. A
    ///   ``EntryQuery/search`` with words: O(m log m) for its m matches, at most
    ///   ``EntryQuery/matchWindow``.
    public func rows(_ query: EntryQuery) async throws(FeedStoreError) -> [EntryRow] {
        try await read(Self.selectingRows(query))
    }

    /// The reading of ``rows(_:)``, shared by its forms and the change stream.
    ///
    /// Feed titles are read once per snapshot, not once per row: a list of thousands of rows
    /// comes from a handful of feeds, and every row of a feed shares one title string. Across
    /// feeds the rows come from the covering index `entry_list_rows` alone: reading the table
    /// would step over every summary and content (the excerpt column comes after them), which
    /// cost two thirds of a snapshot's time. While a sync that fills the store has set the index
    /// aside (``setListIndexAside()``), the rows come from the table.
    static func selectingRows(_ query: EntryQuery) -> @Sendable (Database) throws -> [EntryRow] {
        let statements = [false, true].map { listIndex in
            filtered(query, columns: """
                entry.id, entry.feedId, entry.title, entry.sortDate,
                    entry.published IS NOT NULL OR entry.updated IS NOT NULL, entry.read, entry.starred,
                    entry.thumbnail, COALESCE(entry.excerpt, '')
                """, listIndex: listIndex)
        }
        return { db in
            let listIndex = try query.feed == nil && hasListRowIndex(db)
            let (sql, arguments) = statements[listIndex ? 1 : 0]
            var feedTitles: [StoredFeed.ID: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, COALESCE(title, url) FROM feed") {
                feedTitles[row[0]] = row[1]
            }
            let statement = try db.cachedStatement(sql: sql)
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            var rows: [EntryRow] = []
            rows.reserveCapacity(query.limit)
            while let row = try cursor.next() {
                let id: StoredEntry.ID = row[0]
                let feedID: StoredFeed.ID = row[1]
                let sortDate: Double = row[3]
                rows.append(EntryRow(
                    id: id, feedID: feedID, feedTitle: feedTitles[feedID] ?? "", title: row[2],
                    date: Date(timeIntervalSince1970: sortDate), isDated: row[4], isRead: row[5], isStarred: row[6],
                    thumbnailAddress: row[7], excerpt: row[8],
                    position: EntryPosition(sortDate: sortDate, id: id)))
            }
            return rows
        }
    }

    /// The statement that reads `columns` of the entries of `query`, with its filters, order and
    /// page. With `listIndex`, and no search words to start from, the entries are read through
    /// `entry_list_rows`.
    static func filtered(_ query: EntryQuery, columns: String, listIndex: Bool = false,
                                 paged: Bool = true) -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        let match = query.search?.matchExpression
        if let match {
            // The index finds the matches; each match's entry is read by its rowid.
            conditions.append("entry_search MATCH ?")
            arguments += [match]
        }
        if let feed = query.feed {
            conditions.append("entry.feedId = ?")
            arguments += [feed]
        }
        if query.unreadOnly {
            conditions.append("entry.read = 0")
        }
        if query.starredOnly {
            conditions.append("entry.starred = 1")
        }
        if let text = query.titleContains, !text.isEmpty {
            conditions.append(#"entry.title LIKE ? ESCAPE '\'"#)
            arguments += ["%" + escapingLikeWildcards(text) + "%"]
        }
        if let text = query.textContains, !text.isEmpty {
            let pattern = "%" + escapingLikeWildcards(text) + "%"
            conditions.append(#"(entry.title LIKE ? ESCAPE '\' OR entry.excerpt LIKE ? ESCAPE '\')"#)
            arguments += [pattern, pattern]
        }
        if let search = query.search {
            searchConditions(search, into: &conditions, arguments: &arguments)
        }
        if let after = query.after {
            conditions.append("(entry.sortDate, entry.id) < (?, ?)")
            arguments += [after.sortDate, after.id]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let ranked = match != nil && query.order == .relevance
        let order = ranked ? "\(searchRank), entry.sortDate DESC, entry.id DESC" : "entry.sortDate DESC, entry.id DESC"
        let sql: String
        if let match, let window = query.matchWindow {
            // The matches stored last, read from the index newest first until the window is
            // full (FTS5 walks its lists in rowid order and stops there), then ordered, and
            // only the page's rows read from the table: an entry's row holds its content,
            // which reading a thousand would cost more than ranking them. The matches' states,
            // feeds and dates, where the query asks for them, come from `entry_state`.
            let score = ranked ? searchRank : "0"
            let sizes = ranked ? searchSizesJoin : ""
            let entryConditions = conditions.dropFirst()
            let windowed = entryConditions.isEmpty
                ? """
                  SELECT entry_search.rowid AS matchID, \(score) AS score FROM entry_search \(sizes)
                  WHERE entry_search MATCH ? ORDER BY entry_search.rowid DESC LIMIT ?
                  """
                : """
                  SELECT entry_search.rowid AS matchID, \(score) AS score
                  FROM entry_search CROSS JOIN entry INDEXED BY entry_state ON entry.id = entry_search.rowid \(sizes) \(filter)
                  ORDER BY entry_search.rowid DESC LIMIT ?
                  """
            if query.order == .relevance {
                // Equal scores: the match stored last first, which the window already read.
                sql = """
                    SELECT \(columns) FROM (
                        SELECT matchID, score FROM (\(windowed)) ORDER BY score, matchID DESC LIMIT ? OFFSET ?
                    ) AS page CROSS JOIN entry ON entry.id = page.matchID
                    ORDER BY page.score, page.matchID DESC
                    """
            } else {
                sql = """
                    SELECT \(columns) FROM (\(windowed)) AS windowed CROSS JOIN entry ON entry.id = windowed.matchID
                    ORDER BY entry.sortDate DESC, entry.id DESC
                    LIMIT ? OFFSET ?
                    """
            }
            if entryConditions.isEmpty {
                arguments = [match, window]
            } else {
                arguments += [window]
            }
        } else {
            let from = match != nil
                ? "entry_search CROSS JOIN entry ON entry.id = entry_search.rowid"
                : "entry" + (listIndex ? " INDEXED BY \(listRowIndexName)" : "")
            guard paged else { return ("SELECT \(columns) FROM \(from) \(filter)", arguments) }
            sql = """
                SELECT \(columns) FROM \(from) \(ranked ? searchSizesJoin : "") \(filter)
                ORDER BY \(order)
                LIMIT ? OFFSET ?
                """
        }
        arguments += [query.limit, query.offset]
        return (sql, arguments)
    }

    /// The statement that counts the entries of `query` (all of them: its order, window and
    /// page are ignored) and its unread ones.
    static func counting(_ query: EntryQuery) -> (sql: String, arguments: StatementArguments) {
        var whole = query
        whole.matchWindow = nil
        return filtered(whole, columns: "count(*), total(entry.read = 0)", paged: false)
    }

    /// The score of a match in a relevance order (lower first): `scrollwork_rank` with the
    /// lengths of the match's columns from ``searchSizesJoin`` and the columns' weights (title,
    /// author, feed title, text: a word in the title counts as much as ten in the text).
    static let searchRank = "scrollwork_rank(entry_search, search_sizes.sz, 10.0, 4.0, 2.0, 1.0)"

    /// The join that gives ``searchRank`` each match's column lengths: FTS5's own record of them,
    /// read by the join in a step of the query, where FTS5 would look it up for each row with a
    /// statement of its own (about four times the cost: 2 ms of a keystroke's 1,000 matches, in
    /// Python on 100,000 posts). A row without the record ranks the same, its lengths asked of
    /// FTS5.
    static let searchSizesJoin = "LEFT JOIN entry_search_docsize AS search_sizes ON search_sizes.id = entry_search.rowid"

    /// The conditions of `search` other than its words.
    private static func searchConditions(_ search: SearchQuery, into conditions: inout [String], arguments: inout StatementArguments) {
        if search.matchExpression == nil, let excluded = search.excludedExpression {
            // A post waiting for the index cannot be judged: left out until it is indexed.
            conditions.append("entry.id NOT IN (SELECT rowid FROM entry_search WHERE entry_search MATCH ?) AND entry.id NOT IN (SELECT id FROM search_backlog)")
            arguments += [excluded]
        }
        if !search.feedNames.isEmpty {
            let names = search.feedNames.map { _ in #"COALESCE(title, url) LIKE ? ESCAPE '\'"# }.joined(separator: " OR ")
            conditions.append("entry.feedId IN (SELECT id FROM feed WHERE \(names))")
            for name in search.feedNames {
                arguments += ["%" + escapingLikeWildcards(name) + "%"]
            }
        }
        if let unread = search.isUnread {
            conditions.append("entry.read = ?")
            arguments += [!unread]
        }
        if let starred = search.isStarred {
            conditions.append("entry.starred = ?")
            arguments += [starred]
        }
        if let date = search.notBefore {
            conditions.append("entry.sortDate >= ?")
            arguments += [date.timeIntervalSince1970]
        }
        if let date = search.before {
            conditions.append("entry.sortDate < ?")
            arguments += [date.timeIntervalSince1970]
        }
    }

    /// `text` with the LIKE wildcards `%` and `_`, and the escape character itself, escaped by `\`.
    static func escapingLikeWildcards(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" {
                escaped.append("\\")
            }
            escaped.append(character)
        }
        return escaped
    }
}

/// What a reader shows first, read on the connection that opened the store: see
/// ``FeedStore/firstLook(_:)``.
public struct StoreFirstLook: Sendable, Equatable {
    /// Whether any feed is stored.
    public var followsFeeds: Bool
    /// The rows of the query asked for, as ``FeedStore/rows(_:)`` reads them.
    public var rows: [EntryRow]
}

extension FeedStore {
    /// Whether any feed is stored, and the rows of `query`, in one read on the connection that
    /// opened the store, which is open already: a reader's first screen, read without waiting
    /// for a reader connection to open (a pool opens its readers on first use, a millisecond or
    /// more each on a cold start).
    ///
    /// It blocks the calling thread: call it on the thread that opened the store, before the
    /// store is shared, never on the main actor or the cooperative pool. Afterwards, use
    /// ``rows(_:)`` or ``observeRows(_:)``.
    ///
    /// - Complexity: one ``rows(_:)`` read.
    public func firstLook(_ query: EntryQuery) throws(FeedStoreError) -> StoreFirstLook {
        let selecting = Self.selectingRows(query)
        return try readWhileOpening { db in
            StoreFirstLook(followsFeeds: try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM feed)") ?? false,
                           rows: try selecting(db))
        }
    }
}
