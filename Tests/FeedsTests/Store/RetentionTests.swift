import Feeds
import Foundation
import Testing

@Suite struct RetentionTests {
    /// A feed with entries "0" (oldest) to "9" (newest), published a day apart from day -9 to day 0.
    private func tenDays(read: Bool = true) throws -> (FeedStore, StoredFeed) {
        let (store, feed) = try storeWithFeed()
        let entries = (0..<10).map { storeEntry("\($0)", published: day(Double($0 - 9))) }
        _ = try store.upsert(entries: entries, feed: feed.id, now: storeEpoch)
        if read {
            try store.setRead(true, entries: try store.entries(EntryQuery()).map(\.id))
        }
        return (store, feed)
    }

    private func ids(_ store: FeedStore) throws -> [String] {
        try store.entries(EntryQuery()).map(\.entry.id)
    }

    @Test func keepsTheNewestNPerFeed() throws {
        let (store, _) = try tenDays()
        let other = try store.addFeed(url: URL(string: "https://example.org/feed")!, title: nil, category: nil)
        _ = try store.upsert(entries: [storeEntry("old", published: day(-100))], feed: other.id, now: storeEpoch)
        try store.setRead(true, entries: try store.entries(EntryQuery(feed: other.id)).map(\.id))

        #expect(try store.prune(RetentionPolicy(maxEntriesPerFeed: 3), feed: nil, now: storeEpoch) == 7)
        #expect(try ids(store) == ["9", "8", "7", "old"])
    }

    @Test func keepsEntriesNewerThanTheAgeLimit() throws {
        let (store, feed) = try tenDays()
        #expect(try store.prune(.days(3), feed: feed.id, now: storeEpoch) == 6)
        #expect(try ids(store) == ["9", "8", "7", "6"])
        // Measured from the injected instant, not the clock.
        #expect(try store.prune(.days(3), feed: feed.id, now: day(2)) == 2)
        #expect(try ids(store) == ["9", "8"])
    }

    @Test func withBothLimitsKeepsWhatEitherKeeps() throws {
        let (store, _) = try tenDays()
        let policy = RetentionPolicy(maxEntriesPerFeed: 2, maxAge: 4.5 * 86_400)
        #expect(try store.prune(policy, feed: nil, now: storeEpoch) == 5)
        #expect(try ids(store) == ["9", "8", "7", "6", "5"])
    }

    @Test func neverDeletesStarredEntries() throws {
        let (store, _) = try tenDays()
        let oldest = try #require(try store.entries(EntryQuery()).last)
        try store.setStarred(true, entries: [oldest.id])
        _ = try store.prune(RetentionPolicy(maxEntriesPerFeed: 1, deletesUnread: true), feed: nil, now: storeEpoch)
        #expect(try ids(store) == ["9", "0"])
    }

    @Test func keepsUnreadEntriesUnlessAsked() throws {
        let (store, _) = try tenDays(read: false)
        let stored = try store.entries(EntryQuery())
        try store.setRead(true, entries: stored.filter { $0.entry.id == "1" || $0.entry.id == "2" }.map(\.id))

        #expect(try store.prune(RetentionPolicy(maxEntriesPerFeed: 1), feed: nil, now: storeEpoch) == 2)
        #expect(try ids(store) == ["9", "8", "7", "6", "5", "4", "3", "0"])
        #expect(try store.prune(RetentionPolicy(maxEntriesPerFeed: 1, deletesUnread: true), feed: nil, now: storeEpoch) == 7)
        #expect(try ids(store) == ["9"])
    }

    @Test func withoutLimitsDeletesNothing() throws {
        let (store, _) = try tenDays()
        #expect(try store.prune(RetentionPolicy(deletesUnread: true), feed: nil, now: storeEpoch) == 0)
        #expect(try ids(store).count == 10)
    }
}
