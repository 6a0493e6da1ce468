import Foundation

/// JSON Feed 1.0 and 1.1 (jsonfeed.org), decoded whole: JSON has no streaming parser in
/// Foundation, and the document was size-checked while it was buffered.
enum JSONFeedDecoder {
    /// The feed in `bytes`, with links resolved against `url`.
    ///
    /// - Throws: ``FeedParsingError/unreadable(reason:)`` when the bytes are not JSON or the
    ///   JSON is not a JSON Feed.
    /// - Complexity: O(n) in the document's size.
    static func decode(_ bytes: [UInt8], url: URL?, maxFieldBytes: Int) throws(FeedParsingError) -> ParsedFeed {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(bytes)) } catch {
            throw .unreadable(reason: "invalid JSON")
        }
        guard let feed = object as? [String: Any], let version = feed["version"] as? String,
              version.hasPrefix("https://jsonfeed.org/version/") || version.hasPrefix("http://jsonfeed.org/version/") else {
            throw .unreadable(reason: "JSON, but not a JSON Feed (no jsonfeed.org version)")
        }
        let base = (feed["feed_url"] as? String).flatMap { URLResolver.resolve($0, against: url) } ?? url
        func link(_ key: String, _ object: [String: Any]) -> URL? {
            (object[key] as? String).flatMap { URLResolver.resolve($0, against: base) }
        }
        let info = FeedInfo(
            format: .json, title: (feed["title"] as? String).map(PlainText.collapsingWhitespace),
            link: link("home_page_url", feed), description: feed["description"] as? String,
            icon: link("icon", feed) ?? link("favicon", feed), updated: nil
        )
        let feedAuthor = authorName(feed)
        let items = feed["items"] as? [[String: Any]] ?? []
        let entries = items.map { item in
            var isTruncated = false
            func text(_ key: String) -> String? {
                guard let value = item[key] as? String, !value.isEmpty else { return nil }
                guard value.utf8.count > maxFieldBytes else { return value }
                isTruncated = true
                var kept = 0
                let scalars = value.unicodeScalars.prefix { scalar in
                    kept += UTF8.width(scalar)
                    return kept <= maxFieldBytes
                }
                return String(String.UnicodeScalarView(scalars))
            }
            let title = PlainText.from(html: text("title") ?? "")
            let entryLink = link("url", item) ?? link("external_url", item)
            let content = text("content_html") ?? text("content_text").map(PlainText.escapedForHTML)
            let summary = text("summary")
            let published = text("date_published").flatMap(FeedDate.parse)
            let updated = text("date_modified").flatMap(FeedDate.parse)
            let attachments = (item["attachments"] as? [[String: Any]] ?? []).compactMap { attachment -> FeedEnclosure? in
                guard let url = link("url", attachment) else { return nil }
                return FeedEnclosure(url: url, type: attachment["mime_type"] as? String,
                                     length: (attachment["size_in_bytes"] as? NSNumber)?.intValue)
            }
            let imageAttachment = attachments.first { $0.type?.lowercased().hasPrefix("image/") ?? false }?.url
            let id: String? = (item["id"] as? String) ?? (item["id"] as? NSNumber)?.stringValue
            return FeedEntry(
                id: EntryDraft.id(guid: id, link: entryLink, date: published ?? updated, title: title, text: summary ?? content),
                title: title, link: entryLink, author: authorName(item) ?? feedAuthor,
                categories: item["tags"] as? [String] ?? [], published: published, updated: updated,
                summary: summary, content: content, enclosures: attachments,
                thumbnail: link("image", item) ?? link("banner_image", item) ?? imageAttachment
                    ?? HTMLTagScanner.firstImage(in: content, base: base),
                isTruncated: isTruncated
            )
        }
        return ParsedFeed(info: info, entries: entries, isMalformed: false)
    }

    /// `authors[0].name` (1.1) or `author.name` (1.0).
    private static func authorName(_ object: [String: Any]) -> String? {
        let author = (object["authors"] as? [[String: Any]])?.first ?? object["author"] as? [String: Any]
        return (author?["name"] as? String).flatMap { $0.isEmpty ? nil : $0 }
    }
}
