import Foundation

/// Finds the feeds a web page advertises, for the error that says the page is not a feed.
enum FeedLinkScanner {
    /// The MIME types of the feed formats this module reads.
    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml", "application/feed+json", "application/json"]

    /// The `<link rel="alternate" type="<feed type>" href>` of the page, resolved against
    /// `pageURL`, in document order without duplicates.
    ///
    /// - Complexity: O(n) in the page's size.
    static func feedLinks(in page: [UInt8], pageURL: URL?) -> [FeedLink] {
        var links: [FeedLink] = []
        HTMLTagScanner.forEachTag(named: "link", in: String(decoding: page, as: UTF8.self)) { attributes in
            let rel = (attributes["rel"] ?? "").lowercased().split(separator: " ")
            let type = (attributes["type"] ?? "").lowercased().trimmedWhitespace
            if rel.contains("alternate"), feedTypes.contains(type),
               let url = attributes["href"].flatMap({ URLResolver.resolve($0, against: pageURL) }),
               !links.contains(where: { $0.url == url }) {
                links.append(FeedLink(url: url, type: type, title: attributes["title"]).sanitized())
            }
            return true
        }
        return links
    }
}
