import Feeds
import Foundation
import Testing

@Suite struct AsyncStoreTests {
    @Test func suspendingFormsKeepTheContract() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any FeedStoring = try FeedStore(path: directory.appendingPathComponent("feeds.sqlite").path)
        let feed = try await store.addFeed(url: URL(string: "https://example.com/feed")!, title: nil, category: nil)
        let batch = (0..<3).map { storeEntry("\($0)", published: day(Double($0))) }

        #expect(try await store.upsert(entries: batch, feed: feed.id, now: storeEpoch).map(\.state) == [.new, .new, .new])
        #expect(try await store.upsert(entries: batch, feed: feed.id, now: storeEpoch).map(\.state)
                == [.unchanged, .unchanged, .unchanged])
        try await store.setRead(true, entries: try await store.entries(EntryQuery(limit: 2, offset: 1)).map(\.id))
        #expect(try await store.prune(RetentionPolicy(maxEntriesPerFeed: 1), feed: nil, now: storeEpoch) == 2)
        #expect(try await store.entries(EntryQuery()).map(\.entry.id) == ["2"])
        await #expect(throws: FeedStoreError.unknownFeed(feed.id + 1)) {
            try await store.upsert(entries: batch, feed: feed.id + 1, now: storeEpoch)
        }
    }
}
