import Feeds
import Foundation

/// A fixed instant, so tests never read the clock.
let storeEpoch = Date(timeIntervalSince1970: 1_700_000_000)

/// `days` days after ``storeEpoch`` (before it when negative).
func day(_ days: Double) -> Date {
    storeEpoch.addingTimeInterval(days * 86_400)
}

/// An entry with the fields the store tests vary.
func storeEntry(_ id: String, title: String? = nil, published: Date? = nil, updated: Date? = nil,
                summary: String? = nil) -> FeedEntry {
    FeedEntry(id: id, title: title ?? "Post \(id)", link: URL(string: "https://example.com/\(id)"),
              published: published, updated: updated, summary: summary)
}

/// A store in memory with one feed.
func storeWithFeed(_ url: String = "https://example.com/feed.xml") async throws -> (FeedStore, StoredFeed) {
    let store = try FeedStore()
    let feed = try await store.addFeed(url: URL(string: url)!, title: nil, category: nil)
    return (store, feed)
}

/// A fresh directory under the temporary directory, for database files.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("FeedStoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
