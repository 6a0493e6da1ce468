import Feeds
import Foundation
import Testing

@Suite struct FeedRecordTests {
    @Test func addsListsAndRejectsADuplicateURL() async throws {
        let store = try FeedStore()
        let b = try await store.addFeed(url: URL(string: "https://b.example/feed")!, title: "beta", category: "Tech")
        let a = try await store.addFeed(url: URL(string: "https://a.example/feed")!, title: "Alpha", category: nil)
        #expect(try await store.feeds() == [a, b])
        #expect(try await store.feed(url: b.url) == b)
        #expect(try await store.feed(id: a.id) == a)
        await #expect(throws: FeedStoreError.duplicateFeed(a.url)) {
            try await store.addFeed(url: a.url, title: nil, category: nil)
        }
    }

    @Test func removingAFeedRemovesItsEntriesStarredIncluded() async throws {
        let (store, feed) = try await storeWithFeed()
        let other = try await store.addFeed(url: URL(string: "https://example.org/feed")!, title: nil, category: nil)
        _ = try await store.upsert(entries: [storeEntry("a"), storeEntry("b")], feed: feed.id, now: storeEpoch)
        _ = try await store.upsert(entries: [storeEntry("c")], feed: other.id, now: storeEpoch)
        try await store.setStarred(true, entries: try await store.entries(EntryQuery(feed: feed.id)).map(\.id))

        try await store.removeFeed(feed.id)
        #expect(try await store.feeds() == [other])
        #expect(try await store.entries(EntryQuery()).map(\.entry.id) == ["c"])
        await #expect(throws: FeedStoreError.unknownFeed(feed.id)) { try await store.removeFeed(feed.id) }
    }

    @Test func aFailedRefreshKeepsEntriesAndValidators() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [storeEntry("a")], feed: feed.id, now: storeEpoch)
        try await store.recordRefresh(feed: feed.id, etag: #""v1""#, lastModified: "Tue, 14 Nov 2023 22:13:20 GMT",
                                info: FeedInfo(format: .rss2, title: "Example", link: URL(string: "https://example.com")),
                                at: day(0))
        try await store.recordFailure(feed: feed.id, message: "HTTP 503", at: day(1))

        let failed = try #require(try await store.feed(id: feed.id))
        #expect(failed.lastError == "HTTP 503")
        #expect(failed.lastRefresh == day(1))
        #expect(failed.etag == #""v1""#)
        #expect(failed.lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(failed.title == "Example")
        #expect(try await store.entries(EntryQuery()).map(\.entry.id) == ["a"])

        try await store.recordRefresh(feed: feed.id, etag: nil, lastModified: nil, info: nil, at: day(2))
        let recovered = try #require(try await store.feed(id: feed.id))
        #expect(recovered.lastError == nil)
        #expect(recovered.etag == nil)
        #expect(recovered.title == "Example")
        #expect(recovered.link == URL(string: "https://example.com"))
    }

    @Test func movingAFeedKeepsItsEntries() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [storeEntry("a")], feed: feed.id, now: storeEpoch)
        let moved = URL(string: "https://example.com/new-feed.xml")!
        try await store.moveFeed(feed.id, to: moved)
        #expect(try await store.feed(url: moved)?.id == feed.id)
        #expect(try await store.feed(url: feed.url) == nil)
        #expect(try await store.entries(EntryQuery(feed: feed.id)).count == 1)

        let other = try await store.addFeed(url: feed.url, title: nil, category: nil)
        await #expect(throws: FeedStoreError.duplicateFeed(moved)) { try await store.moveFeed(other.id, to: moved) }
        await #expect(throws: FeedStoreError.unknownFeed(99)) { try await store.recordFailure(feed: 99, message: "x", at: storeEpoch) }
    }
}
