import Feeds
import Foundation
import Testing

@Suite struct RetentionTests {
    /// A feed with entries "0" (oldest) to "9" (newest), published a day apart from day -9 to day 0.
    private func tenDays(read: Bool = true) async throws -> (FeedStore, StoredFeed) {
        let (store, feed) = try await storeWithFeed()
        let entries = (0..<10).map { storeEntry("\($0)", published: day(Double($0 - 9))) }
        _ = try await store.upsert(entries: entries, feed: feed.id, now: storeEpoch)
        if read {
            try await store.setRead(true, entries: try await store.entries(EntryQuery()).map(\.id))
        }
        return (store, feed)
    }

    private func ids(_ store: FeedStore) async throws -> [String] {
        try await store.entries(EntryQuery()).map(\.entry.id)
    }

    @Test func keepsTheNewestNPerFeed() async throws {
        let (store, _) = try await tenDays()
        let other = try await store.addFeed(url: URL(string: "https://example.org/feed")!, title: nil, category: nil)
        _ = try await store.upsert(entries: [storeEntry("old", published: day(-100))], feed: other.id, now: storeEpoch)
        try await store.setRead(true, entries: try await store.entries(EntryQuery(feed: other.id)).map(\.id))

        #expect(try await store.prune(RetentionPolicy(maxEntriesPerFeed: 3), feed: nil, now: storeEpoch) == 7)
        await #expect(try ids(store) == ["9", "8", "7", "old"])
    }

    @Test func keepsEntriesNewerThanTheAgeLimit() async throws {
        let (store, feed) = try await tenDays()
        #expect(try await store.prune(.days(3), feed: feed.id, now: storeEpoch) == 6)
        await #expect(try ids(store) == ["9", "8", "7", "6"])
        // Measured from the injected instant, not the clock.
        #expect(try await store.prune(.days(3), feed: feed.id, now: day(2)) == 2)
        await #expect(try ids(store) == ["9", "8"])
    }

    @Test func withBothLimitsKeepsWhatEitherKeeps() async throws {
        let (store, _) = try await tenDays()
        let policy = RetentionPolicy(maxEntriesPerFeed: 2, maxAge: 4.5 * 86_400)
        #expect(try await store.prune(policy, feed: nil, now: storeEpoch) == 5)
        await #expect(try ids(store) == ["9", "8", "7", "6", "5"])
    }

    @Test func neverDeletesStarredEntries() async throws {
        let (store, _) = try await tenDays()
        let oldest = try #require(try await store.entries(EntryQuery()).last)
        try await store.setStarred(true, entries: [oldest.id])
        _ = try await store.prune(RetentionPolicy(maxEntriesPerFeed: 1, deletesUnread: true), feed: nil, now: storeEpoch)
        await #expect(try ids(store) == ["9", "0"])
    }

    @Test func keepsUnreadEntriesUnlessAsked() async throws {
        let (store, _) = try await tenDays(read: false)
        let stored = try await store.entries(EntryQuery())
        try await store.setRead(true, entries: stored.filter { $0.entry.id == "1" || $0.entry.id == "2" }.map(\.id))

        #expect(try await store.prune(RetentionPolicy(maxEntriesPerFeed: 1), feed: nil, now: storeEpoch) == 2)
        await #expect(try ids(store) == ["9", "8", "7", "6", "5", "4", "3", "0"])
        #expect(try await store.prune(RetentionPolicy(maxEntriesPerFeed: 1, deletesUnread: true), feed: nil, now: storeEpoch) == 7)
        await #expect(try ids(store) == ["9"])
    }

    @Test func withoutLimitsDeletesNothing() async throws {
        let (store, _) = try await tenDays()
        #expect(try await store.prune(RetentionPolicy(deletesUnread: true), feed: nil, now: storeEpoch) == 0)
        await #expect(try ids(store).count == 10)
    }
}
