import Foundation
import GRDB

extension FeedStore {
    /// One page of entries matching `query`, newest first by ``StoredEntry/sortDate``, ties broken
    /// by the store's identifier (newest first) so that pages never overlap.
    ///
    /// - Complexity: O((offset + limit) log n) for n entries through the date indexes; a title
    ///   search scans the entries in date order until the page is full.
    public func entries(_ query: EntryQuery) throws(FeedStoreError) -> [StoredEntry] {
        try read(Self.selecting(query))
    }

    /// The reading of ``entries(_:)``, shared by its blocking and suspending forms.
    static func selecting(_ query: EntryQuery) -> @Sendable (Database) throws -> [StoredEntry] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let feed = query.feed {
            conditions.append("feedId = ?")
            arguments += [feed]
        }
        if query.unreadOnly {
            conditions.append("read = 0")
        }
        if query.starredOnly {
            conditions.append("starred = 1")
        }
        if let text = query.titleContains, !text.isEmpty {
            conditions.append(#"title LIKE ? ESCAPE '\'"#)
            arguments += ["%" + escapingLikeWildcards(text) + "%"]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = """
            SELECT * FROM entry \(filter)
            ORDER BY sortDate DESC, id DESC
            LIMIT ? OFFSET ?
            """
        arguments += [query.limit, query.offset]
        return { [arguments] db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                StoredEntry(
                    id: row["id"],
                    feedID: row["feedId"],
                    entry: try EntryColumns.entry(from: row),
                    isRead: row["read"],
                    isStarred: row["starred"],
                    firstSeen: Date(timeIntervalSince1970: row["firstSeen"])
                )
            }
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
