import Feeds
import Foundation
import Testing

@Suite struct QueryTests {
    @Test func newestFirstAcrossFeedsFallingBackToUpdatedThenFirstSeen() async throws {
        let (store, one) = try await storeWithFeed()
        let two = try await store.addFeed(url: URL(string: "https://example.org/feed")!, title: nil, category: nil)
        _ = try await store.upsert(entries: [
            storeEntry("published", published: day(-3), updated: day(5)),
            storeEntry("updatedOnly", updated: day(-1)),
        ], feed: one.id, now: day(-10))
        _ = try await store.upsert(entries: [storeEntry("undated"), storeEntry("newest", published: day(1))],
                             feed: two.id, now: day(-2))
        #expect(try await store.entries(EntryQuery()).map(\.entry.id) == ["newest", "updatedOnly", "undated", "published"])
        #expect(try await store.entries(EntryQuery(feed: one.id)).map(\.entry.id) == ["updatedOnly", "published"])
        #expect(try await store.entries(EntryQuery(feed: two.id)).map(\.feedID) == [two.id, two.id])
    }

    @Test func unreadAndStarredOnly() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: (0..<4).map { storeEntry("\($0)", published: day(Double($0))) },
                             feed: feed.id, now: storeEpoch)
        let all = try await store.entries(EntryQuery())
        try await store.setRead(true, entries: [all[0].id, all[2].id])
        try await store.setStarred(true, entries: [all[1].id])
        #expect(try await store.entries(EntryQuery(unreadOnly: true)).map(\.entry.id) == ["2", "0"])
        #expect(try await store.entries(EntryQuery(starredOnly: true)).map(\.entry.id) == ["2"])
        try await store.setRead(false, entries: [all[0].id])
        #expect(try await store.entries(EntryQuery(unreadOnly: true)).map(\.entry.id) == ["3", "2", "0"])
    }

    @Test func pagesCoverEveryEntryOnceEvenWithEqualDates() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: (0..<25).map { storeEntry("\($0)", published: day(Double($0 % 3))) },
                             feed: feed.id, now: storeEpoch)
        var seen: [String] = []
        for page in 0..<4 {
            seen += try await store.entries(EntryQuery(limit: 7, offset: page * 7)).map(\.entry.id)
        }
        #expect(seen.count == 25)
        #expect(Set(seen).count == 25)
        #expect(seen == (try await store.entries(EntryQuery(limit: 100)).map(\.entry.id)))
    }

    @Test func searchesTitlesIgnoringCaseWithWildcardsTakenLiterally() async throws {
        let (store, feed) = try await storeWithFeed()
        let titles = ["100% Swift", "1000 Swifts", "snake_case", "snakeXcase", #"back\slash"#, "Swift news"]
        _ = try await store.upsert(entries: titles.enumerated().map { storeEntry("\($0.offset)", title: $0.element,
                                                                            published: day(Double($0.offset))) },
                             feed: feed.id, now: storeEpoch)
        func search(_ text: String) async throws -> [String] {
            try await store.entries(EntryQuery(titleContains: text)).map(\.entry.title)
        }
        await #expect(try search("0%") == ["100% Swift"])
        await #expect(try search("e_c") == ["snake_case"])
        await #expect(try search(#"k\s"#) == [#"back\slash"#])
        await #expect(try search("swift") == ["Swift news", "1000 Swifts", "100% Swift"])
        await #expect(try search("").count == titles.count)
    }

    @Test func roundTripsEveryField() async throws {
        let (store, feed) = try await storeWithFeed()
        let entry = FeedEntry(
            id: "urn:1", title: "Title", link: URL(string: "https://example.com/a?b=1"), author: "Ann",
            categories: ["x", "y/z"], published: Date(timeIntervalSince1970: 1_600_000_000.25), updated: day(1),
            summary: "<b>s</b>", content: "<p>c</p>",
            enclosures: [FeedEnclosure(url: URL(string: "https://example.com/a.mp3")!, type: "audio/mpeg", length: 1234),
                         FeedEnclosure(url: URL(string: "https://example.com/i.png")!)],
            thumbnail: URL(string: "https://example.com/t.jpg"), isTruncated: true)
        _ = try await store.upsert(entries: [entry], feed: feed.id, now: storeEpoch)
        let stored = try #require(try await store.entries(EntryQuery()).first)
        #expect(stored.entry == entry)
        #expect(!stored.isRead && !stored.isStarred)
        #expect(stored.firstSeen == storeEpoch)
    }
}
