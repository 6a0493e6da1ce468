@testable import Feeds
import Foundation
import ScrollworkTestSupport
import Testing

/// The feed list's source: per-feed counts and errors, and the reader's search.
@Suite struct FeedSummaryTests {
    @Test func summariesCountEntriesAndUnreadPerFeedAndCarryTheLastError() async throws {
        let store = try FeedStore()
        let busy = try await store.addFeed(url: URL(string: "https://busy.example/feed")!, title: "Busy")
        let empty = try await store.addFeed(url: URL(string: "https://empty.example/feed")!, title: "a quiet one")
        _ = try await store.upsert(entries: (0..<5).map { storeEntry("b\($0)", published: day(Double($0))) }, feed: busy.id, now: storeEpoch)
        let ids = try await store.entries(EntryQuery(feed: busy.id)).map(\.id)
        try await store.setRead(true, entries: Array(ids.prefix(2)))
        try await store.recordFailure(feed: empty.id, message: "HTTP 404", at: storeEpoch)

        var observed = store.observeFeedSummaries().makeAsyncIterator()
        let summaries = try #require(try await observed.next())
        #expect(summaries.map(\.feed.title) == ["a quiet one", "Busy"], "ordered as feeds(), by title ignoring case")
        #expect(summaries.map(\.total) == [0, 5])
        #expect(summaries.map(\.unread) == [0, 3])
        #expect(summaries[0].feed.lastError == "HTTP 404")
        #expect(summaries[1].feed.lastError == nil)
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func theSummariesObservationFollowsReadMarks() async throws {
        let store = try FeedStore()
        let feed = try await store.addFeed(url: URL(string: "https://watched.example/")!)
        _ = try await store.upsert(entries: [storeEntry("1"), storeEntry("2")], feed: feed.id, now: storeEpoch)
        var iterator = store.observeFeedSummaries().makeAsyncIterator()
        #expect(try await iterator.next()?.first?.unread == 2)
        let first = try await store.rows(EntryQuery()).first!.id
        try await store.setRead(true, entries: [first])
        #expect(try await iterator.next()?.first?.unread == 1)
    }

    @Test func textSearchMatchesTitleOrExcerptIgnoringCaseAndWildcards() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [
            storeEntry("1", title: "Swift on Linux", published: day(3), summary: "Nothing else"),
            storeEntry("2", title: "Gardening", published: day(2), summary: "Planting SWIFTLY before the frost"),
            storeEntry("3", title: "Cooking", published: day(1), summary: "Soup for 100% of the family"),
        ], feed: feed.id, now: storeEpoch)
        func search(_ text: String) async throws -> [String] {
            try await store.rows(EntryQuery(textContains: text)).map(\.title)
        }
        await #expect(try search("swift") == ["Swift on Linux", "Gardening"])
        await #expect(try search("0%") == ["Cooking"])
        await #expect(try search("_") == [])
        await #expect(try search("").count == 3)
        // Combined with the other filters.
        #expect(try await store.rows(EntryQuery(feed: feed.id, unreadOnly: true, textContains: "frost")).map(\.title) == ["Gardening"])
    }
}
