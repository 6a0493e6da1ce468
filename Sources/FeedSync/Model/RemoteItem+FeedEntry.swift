import Foundation
import Feeds

extension RemoteItem {
    /// The item as the store keeps an entry, cleaned as a parsed feed's entries are.
    ///
    /// - The id is ``id``'s normalized text.
    /// - The title is plain text: markup removed when it holds HTML, whitespace collapsed.
    /// - An empty summary or content is none.
    /// - The thumbnail is, in order: the server's picture, the first image enclosure, the first
    ///   `<img>` of the content, then of the summary (resolved against the item's link), as
    ///   for a JSON Feed.
    /// - Every text field passes Feeds' sanitising: control characters removed, and the
    ///   bidirectional controls from single-line fields.
    ///
    /// - Complexity: O(n) in the size of the item's text.
    public var entry: FeedEntry {
        let title = PlainText.looksLikeHTML(title) ? PlainText.from(html: title) : PlainText.collapsingWhitespace(title)
        let summary = summary.flatMap { $0.isEmpty ? nil : $0 }
        let content = content.flatMap { $0.isEmpty ? nil : $0 }
        let imageEnclosure = enclosures.first { $0.type?.lowercased().hasPrefix("image/") ?? false }?.url
        let thumbnail = imageURL ?? imageEnclosure
            ?? HTMLTagScanner.firstImage(in: content, base: link) ?? HTMLTagScanner.firstImage(in: summary, base: link)
        return FeedEntry(
            id: id.rawValue, title: title, link: link,
            author: author.map(PlainText.collapsingWhitespace).flatMap { $0.isEmpty ? nil : $0 },
            categories: categories.map(PlainText.collapsingWhitespace).filter { !$0.isEmpty },
            published: published, updated: updated, summary: summary, content: content,
            enclosures: enclosures, thumbnail: thumbnail
        ).sanitized()
    }
}
