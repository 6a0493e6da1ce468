@testable import Feeds
import Foundation
import GRDB
import Testing

@Suite struct AtomicityTests {
    @Test func aBatchThatFailsHalfwayStoresNothing() async throws {
        let (store, feed) = try await storeWithFeed()
        _ = try await store.upsert(entries: [storeEntry("kept", summary: "v1")], feed: feed.id, now: storeEpoch)
        // SQLite refuses the third row of the next batch, after two rows were written.
        try await store.writer.write { db in
            try db.execute(sql: """
                CREATE TRIGGER refuse AFTER INSERT ON entry WHEN NEW.entryId = 'refused'
                BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
        let batch = [storeEntry("kept", summary: "v2"), storeEntry("new"), storeEntry("refused")]
        await #expect {
            try await store.upsert(entries: batch, feed: feed.id, now: storeEpoch)
        } throws: { error in
            guard case .database(let message)? = error as? FeedStoreError else { return false }
            return message.contains("refused")
        }
        let entries = try await store.entries(EntryQuery())
        #expect(entries.map(\.entry.id) == ["kept"])
        #expect(entries.first?.entry.summary == "v1")
    }
}
