import Foundation
import GRDB

/// How a ``FeedEntry`` maps to the columns of the `entry` table, both ways.
///
/// Dates are seconds since 1970 (REAL) so they sort and compare as numbers; categories and
/// enclosures are JSON text with sorted keys, so equal entries always give equal columns and an
/// unchanged entry compares equal without decoding.
enum EntryColumns {
    /// The columns that come from the feed, in the order of ``values(of:)``; an upsert compares
    /// exactly these to decide whether an entry was modified.
    static let content = [
        "title", "link", "author", "categories", "published", "updated",
        "summary", "content", "thumbnail", "enclosures", "truncated",
    ]

    /// The column values of `entry`, in the order of ``content``.
    static func values(of entry: FeedEntry) -> [DatabaseValue] {
        [
            entry.title.databaseValue,
            entry.link?.absoluteString.databaseValue ?? .null,
            entry.author.databaseValue,
            json(entry.categories).databaseValue,
            entry.published?.timeIntervalSince1970.databaseValue ?? .null,
            entry.updated?.timeIntervalSince1970.databaseValue ?? .null,
            entry.summary.databaseValue,
            entry.content.databaseValue,
            entry.thumbnail?.absoluteString.databaseValue ?? .null,
            json(entry.enclosures).databaseValue,
            entry.isTruncated.databaseValue,
        ]
    }

    /// The entry stored in `row`, which holds `entryId` and the ``content`` columns.
    static func entry(from row: Row) throws -> FeedEntry {
        FeedEntry(
            id: row["entryId"],
            title: row["title"],
            link: url(row["link"]),
            author: row["author"],
            categories: try decode([String].self, row["categories"]),
            published: date(row["published"]),
            updated: date(row["updated"]),
            summary: row["summary"],
            content: row["content"],
            enclosures: try decode([StoredEnclosure].self, row["enclosures"]).compactMap(\.enclosure),
            thumbnail: url(row["thumbnail"]),
            isTruncated: row["truncated"]
        )
    }

    /// The excerpt a list row shows (``EntryRow/excerpt``): the summary, else the content, as
    /// plain text, cut to ``EntryRow/excerptLength`` characters. Only the first few kilobytes of
    /// markup are read, so a megabyte of content costs no more than a short one.
    static func excerpt(summary: String?, content: String?) -> String {
        guard let html = summary.flatMap({ $0.isEmpty ? nil : $0 }) ?? content else { return "" }
        var markup = Substring(html)
        if markup.utf8.count > excerptMarkupBytes {
            markup = markup.prefix(excerptMarkupBytes)
            // A tag cut in half would read as text.
            if let open = markup.lastIndex(of: "<"), markup[open...].firstIndex(of: ">") == nil {
                markup = markup[..<open]
            }
        }
        // Text enough to tell whether it is longer than the excerpt.
        let text = PlainText.from(html: String(markup), atLeast: EntryRow.excerptLength)
        // Counted only as far as the limit, and on the bytes where they are ASCII: counting
        // every character of a long text (and then walking to the cut again) was a third of
        // making an excerpt.
        guard text.characterCount(exceeds: EntryRow.excerptLength),
              let cut = text.index(afterCharacters: EntryRow.excerptLength - 1) else { return text }
        return String(text[..<cut]) + "…"
    }

    /// Markup read for an excerpt: enough for its length even inside heavy markup.
    private static let excerptMarkupBytes = 8 << 10

    /// `strings` as a JSON array, written as `JSONEncoder` writes it with `.sortedKeys` and
    /// `.withoutEscapingSlashes`, which is how the column has always been written (a test holds
    /// the two equal): an unchanged entry must give the same text, and the encoder took a
    /// third of storing an unchanged entry.
    static func json(_ strings: [String]) -> String {
        var out = "["
        // Room for the usual case, nothing escaped: a sync's lists of 10,000 ids grew the
        // text a dozen times.
        out.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, string) in strings.enumerated() {
            if index > 0 { out += "," }
            appendJSON(string, to: &out)
        }
        return out + "]"
    }

    /// `enclosures` as the JSON array of ``StoredEnclosure``, keys sorted, absent values left out,
    /// as `JSONEncoder` writes it (see ``json(_:)-([String])``).
    static func json(_ enclosures: [FeedEnclosure]) -> String {
        var out = "["
        for (index, enclosure) in enclosures.enumerated() {
            if index > 0 { out += "," }
            out += "{"
            if let length = enclosure.length { out += "\"length\":\(length)," }
            if let type = enclosure.type {
                out += "\"type\":"
                appendJSON(type, to: &out)
                out += ","
            }
            out += "\"url\":"
            appendJSON(enclosure.url.absoluteString, to: &out)
            out += "}"
        }
        return out + "]"
    }

    /// `string` as a JSON string: quotes and backslashes escaped, control characters as
    /// JSON's short escapes or `\u00xx`, everything else (slashes included) as it is.
    private static func appendJSON(_ string: String, to out: inout String) {
        out += "\""
        // Most strings (ids, URLs, categories) need no escape: found on the bytes, and copied whole.
        var bytes = string
        let needsEscape = bytes.withUTF8 { $0.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") } }
        guard needsEscape else {
            out += string
            out += "\""
            return
        }
        var plain = string.utf8.startIndex
        let utf8 = string.utf8
        var index = plain
        while index < utf8.endIndex {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                index = utf8.index(after: index)
                continue
            }
            out += string[plain..<index]
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            default: out += byte < 0x10 ? "\\u000" + String(byte, radix: 16) : "\\u00" + String(byte, radix: 16)
            }
            index = utf8.index(after: index)
            plain = index
        }
        out += string[plain..<index]
        out += "\""
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    static func url(_ text: String?) -> URL? {
        text.flatMap(URL.init(string:))
    }

    static func date(_ seconds: Double?) -> Date? {
        seconds.map(Date.init(timeIntervalSince1970:))
    }
}

/// A ``FeedEnclosure`` as JSON in the `enclosures` column.
struct StoredEnclosure: Codable {
    var url: String
    var type: String?
    var length: Int?

    init(_ enclosure: FeedEnclosure) {
        url = enclosure.url.absoluteString
        type = enclosure.type
        length = enclosure.length
    }

    var enclosure: FeedEnclosure? {
        URL(string: url).map { FeedEnclosure(url: $0, type: type, length: length) }
    }
}

extension StatementArguments {
    /// Arguments of values already converted.
    ///
    /// GRDB's initializers from a sequence are generic and run unspecialized from outside
    /// GRDB, looking up type metadata for every value (and instantiating a key path at every
    /// call): that was a quarter of storing an entry. An array literal is read by code GRDB
    /// specialized itself, and `+=` is not generic. The values go in literals of eight, then
    /// of one: a literal and a `+=` per value were a tenth of storing an entry.
    init(values: [DatabaseValue]) {
        self.init()
        var index = values.startIndex
        while values.endIndex - index >= 8 {
            self += [values[index], values[index + 1], values[index + 2], values[index + 3],
                     values[index + 4], values[index + 5], values[index + 6], values[index + 7]]
            index += 8
        }
        while index < values.endIndex {
            self += [values[index]]
            index += 1
        }
    }
}
