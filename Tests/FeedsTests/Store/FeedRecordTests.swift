import Feeds
import Foundation
import Testing

@Suite struct FeedRecordTests {
    @Test func addsListsAndRejectsADuplicateURL() throws {
        let store = try FeedStore()
        let b = try store.addFeed(url: URL(string: "https://b.example/feed")!, title: "beta", category: "Tech")
        let a = try store.addFeed(url: URL(string: "https://a.example/feed")!, title: "Alpha", category: nil)
        #expect(try store.feeds() == [a, b])
        #expect(try store.feed(url: b.url) == b)
        #expect(try store.feed(id: a.id) == a)
        #expect(throws: FeedStoreError.duplicateFeed(a.url)) {
            try store.addFeed(url: a.url, title: nil, category: nil)
        }
    }

    @Test func removingAFeedRemovesItsEntriesStarredIncluded() throws {
        let (store, feed) = try storeWithFeed()
        let other = try store.addFeed(url: URL(string: "https://example.org/feed")!, title: nil, category: nil)
        _ = try store.upsert(entries: [storeEntry("a"), storeEntry("b")], feed: feed.id, now: storeEpoch)
        _ = try store.upsert(entries: [storeEntry("c")], feed: other.id, now: storeEpoch)
        try store.setStarred(true, entries: try store.entries(EntryQuery(feed: feed.id)).map(\.id))

        try store.removeFeed(feed.id)
        #expect(try store.feeds() == [other])
        #expect(try store.entries(EntryQuery()).map(\.entry.id) == ["c"])
        #expect(throws: FeedStoreError.unknownFeed(feed.id)) { try store.removeFeed(feed.id) }
    }

    @Test func aFailedRefreshKeepsEntriesAndValidators() throws {
        let (store, feed) = try storeWithFeed()
        _ = try store.upsert(entries: [storeEntry("a")], feed: feed.id, now: storeEpoch)
        try store.recordRefresh(feed: feed.id, etag: #""v1""#, lastModified: "Tue, 14 Nov 2023 22:13:20 GMT",
                                info: FeedInfo(format: .rss2, title: "Example", link: URL(string: "https://example.com")),
                                at: day(0))
        try store.recordFailure(feed: feed.id, message: "HTTP 503", at: day(1))

        let failed = try #require(try store.feed(id: feed.id))
        #expect(failed.lastError == "HTTP 503")
        #expect(failed.lastRefresh == day(1))
        #expect(failed.etag == #""v1""#)
        #expect(failed.lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(failed.title == "Example")
        #expect(try store.entries(EntryQuery()).map(\.entry.id) == ["a"])

        try store.recordRefresh(feed: feed.id, etag: nil, lastModified: nil, info: nil, at: day(2))
        let recovered = try #require(try store.feed(id: feed.id))
        #expect(recovered.lastError == nil)
        #expect(recovered.etag == nil)
        #expect(recovered.title == "Example")
        #expect(recovered.link == URL(string: "https://example.com"))
    }

    @Test func movingAFeedKeepsItsEntries() throws {
        let (store, feed) = try storeWithFeed()
        _ = try store.upsert(entries: [storeEntry("a")], feed: feed.id, now: storeEpoch)
        let moved = URL(string: "https://example.com/new-feed.xml")!
        try store.moveFeed(feed.id, to: moved)
        #expect(try store.feed(url: moved)?.id == feed.id)
        #expect(try store.feed(url: feed.url) == nil)
        #expect(try store.entries(EntryQuery(feed: feed.id)).count == 1)

        let other = try store.addFeed(url: feed.url, title: nil, category: nil)
        #expect(throws: FeedStoreError.duplicateFeed(moved)) { try store.moveFeed(other.id, to: moved) }
        #expect(throws: FeedStoreError.unknownFeed(99)) { try store.recordFailure(feed: 99, message: "x", at: storeEpoch) }
    }
}
