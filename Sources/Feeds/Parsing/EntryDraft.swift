import Foundation
import StableHashing

/// An entry being read: the raw values of its elements, turned into a ``FeedEntry`` with the
/// fallbacks (id, link, author, thumbnail) once the entry's element closes.
struct EntryDraft {
    /// Where to resolve relative references from, when the entry element opened.
    var base: URL?
    var guid: String?
    var guidIsPermaLink = true
    var title: String?
    /// `dc:title`, for an entry without a title of its format.
    var dublinCoreTitle: String?
    /// `media:title`, the last resort for a title.
    var mediaTitle: String?
    var link: URL?
    /// An Atom alternate link of a type other than HTML, used when there is no HTML one.
    var otherAlternateLink: URL?
    var author: String?
    var fallbackAuthor: String?
    var categories: [String] = []
    var published: Date?
    var dublinCoreDate: Date?
    var updated: Date?
    var summary: String?
    /// `itunes:summary`, `media:description` or `dc:description`, for an entry without a
    /// summary of its format.
    var fallbackSummary: String?
    var summaryBase: URL?
    var content: String?
    var contentBase: URL?
    var enclosures: [FeedEnclosure] = []
    /// The best thumbnail found so far and its rank (lower wins; see ``ThumbnailRank``).
    var thumbnail: (url: URL, rank: ThumbnailRank)?
    var isTruncated = false

    /// Keeps `url` as the thumbnail if it outranks the one found so far.
    mutating func offerThumbnail(_ url: URL?, rank: ThumbnailRank) {
        guard let url else { return }
        if let current = thumbnail, current.rank <= rank { return }
        thumbnail = (url, rank)
    }

    /// The finished entry, with its fallbacks applied.
    consuming func entry(feedAuthor: String?) -> FeedEntry {
        let title = self.title ?? dublinCoreTitle ?? mediaTitle ?? ""
        let published = self.published ?? dublinCoreDate
        var link = (self.link ?? otherAlternateLink).flatMap(XMLFeedReading.webLink)
        if link == nil, guidIsPermaLink, let guid, guid.hasPrefix("http://") || guid.hasPrefix("https://") {
            link = URLResolver.resolve(guid, against: base)
        }
        let summary = self.summary ?? fallbackSummary
        let thumbnail = self.thumbnail?.url
            ?? HTMLTagScanner.firstImage(in: content, base: contentBase)
            ?? HTMLTagScanner.firstImage(in: summary, base: summaryBase)
        return FeedEntry(
            id: Self.id(guid: guid, link: link, date: published ?? updated, title: title, text: summary ?? content),
            title: title, link: link, author: author ?? fallbackAuthor ?? feedAuthor, categories: categories,
            published: published, updated: updated, summary: summary, content: content, enclosures: enclosures,
            thumbnail: thumbnail, isTruncated: isTruncated
        )
    }

    /// The guid or id; else the link and the date; else the link; else a stable hash of the
    /// title (or of the text, for an entry without a title). The guid is judged as it will be
    /// stored, cleaned of control characters (``FeedText/line(_:)``): one of nothing else is
    /// empty.
    static func id(guid: String?, link: URL?, date: Date?, title: String, text: String?) -> String {
        if let guid = guid.map(FeedText.line)?.trimmedWhitespace, !guid.isEmpty { return guid }
        if let link, let date { return link.absoluteString + " " + FeedDate.rfc3339(date) }
        if let link { return link.absoluteString }
        return "title:" + StableHash.hex(title.isEmpty ? text ?? "" : title)
    }
}

/// Which rule found a thumbnail; a lower rank wins, whatever the document order.
enum ThumbnailRank: Int, Comparable {
    case mediaThumbnail
    case mediaContentImage
    case imageEnclosure
    case itunesImage

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
