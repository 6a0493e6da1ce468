@testable import Feeds
import Foundation
import GRDB
import ScrollworkTestSupport
import Testing

@Suite struct MigrationTests {
    @Test func reopeningAVersion1FileKeepsItsDataInWALMode() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path

        // A file at exactly version 1, as the first release wrote it.
        let v1 = try DatabaseQueue(path: path)
        try FeedStore.migrator.migrate(v1, upTo: FeedStore.SchemaVersion.v1.rawValue)
        try v1.close()
        do {
            let store = try FeedStore(path: path)
            let feed = try await store.addFeed(url: URL(string: "https://example.com/feed")!, title: "Kept", category: nil)
            _ = try await store.upsert(entries: [storeEntry("a")], feed: feed.id, now: storeEpoch)
            try await store.setStarred(true, entries: try await store.entries(EntryQuery()).map(\.id))
        }

        let reopened = try FeedStore(path: path)
        #expect(try await reopened.feeds().map(\.title) == ["Kept"])
        #expect(try await reopened.entries(EntryQuery()).map(\.isStarred) == [true])
        let (mode, applied) = try await reopened.writer.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"),
             try FeedStore.migrator.appliedIdentifiers(db))
        }
        #expect(mode == "wal")
        #expect(applied == Set(FeedStore.SchemaVersion.allCases.map(\.rawValue)))
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func anUpToDateFileOpensWithoutWritingSoAnotherWriterDoesNotHoldItUp() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path
        _ = try FeedStore(path: path)
        // Another process in the middle of a long write (a refresh storing a big feed): the
        // reader opening the store now has nothing to migrate and must not wait for the lock.
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: configuration)
        try await other.writeWithoutTransaction { db in
            // It has stored a batch already (the write-ahead log holds it), and is storing the next.
            try db.execute(sql: "INSERT INTO feed (url) VALUES ('https://example.com/feed')")
            try db.execute(sql: "BEGIN IMMEDIATE")
        }
        let started = ContinuousClock.now
        let store = try FeedStore(path: path)
        #expect(ContinuousClock.now - started < .seconds(5), "it waited for the other writer")
        #expect(try await store.feeds().count == 1)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    }

    @Test func refusesAFileFromANewerSchemaAndLeavesItAlone() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path
        do {
            let store = try FeedStore(path: path)
            let feed = try await store.addFeed(url: URL(string: "https://example.com/feed")!, title: nil, category: nil)
            _ = try await store.upsert(entries: [storeEntry("a")], feed: feed.id, now: storeEpoch)
            // What a later build's migration leaves behind.
            try await store.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
                try db.execute(sql: "ALTER TABLE entry ADD COLUMN futureColumn TEXT")
            }
        }

        #expect(throws: FeedStoreError.newerSchema(unknownVersions: ["v9-from-the-future"])) {
            try FeedStore(path: path)
        }
        let raw = try DatabaseQueue(path: path)
        let count = try await raw.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") }
        #expect(count == 1)
    }

    @Test func aFileOpenedReadOnlyIsReadButNeverWrittenOrMigrated() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A '?' and a '#' in the path, which a SQLite URI must escape.
        let path = directory.appendingPathComponent("feeds?#%.sqlite").path
        do {
            let store = try FeedStore(path: path)
            let feed = try await store.addFeed(url: URL(string: "https://example.com/feed")!, title: nil, category: nil)
            _ = try await store.upsert(entries: [storeEntry("a")], feed: feed.id, now: storeEpoch)
        }

        let reader = try FeedStore(readingOnly: path)
        #expect(try await reader.feeds().count == 1)
        await #expect(throws: FeedStoreError.self) {
            try await reader.addFeed(url: URL(string: "https://example.com/other")!, title: nil, category: nil)
        }

        // A file an older build wrote: only a writer may migrate it.
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [FeedStore.SchemaVersion.allCases.last!.rawValue])
        }
        #expect(throws: FeedStoreError.readOnlyNeedsUpgrade) { try FeedStore(readingOnly: path) }
    }
}
