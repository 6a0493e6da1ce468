import Feeds

/// Categories as the store keeps them: a subscription's folders joined by `/`, as
/// `add --category` takes them.
extension Subscription {
    /// The folders of the stored category `category`: its parts between slashes, empty ones
    /// left out.
    static func folders(ofCategory category: String) -> [String] {
        category.split(separator: "/").map(String.init)
    }

    /// The subscription to `feed`, in the folders of its category.
    init(_ feed: StoredFeed) {
        self.init(feedURL: feed.url, title: feed.title, siteURL: feed.link, categories: feed.category.map(Self.folders(ofCategory:)) ?? [])
    }

    /// The category to store: the folders joined by `/`, `nil` for none.
    var storedCategory: String? {
        categories.isEmpty ? nil : categories.joined(separator: "/")
    }
}
