@testable import Feeds
import Foundation
import GRDB
import ScrollworkTestSupport
import Testing

@Suite struct CrashTests {
    private static let helperName = "feeds-ingest-crash-helper"
    private static let batchSize = 200

    /// Runs the helper from batch `first` on, reads its reports line by line, and kills it with
    /// SIGKILL once it has reported `count` commits, while it writes the next batch. Returns the
    /// last batch it reported committed.
    private static func ingestAndKill(path: String, first: Int, after count: Int) throws -> Int {
        let child = Process()
        child.executableURL = try BuiltExecutable.url(named: helperName)
        child.arguments = [path, "\(first)", "\(batchSize)", "100000"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()

        var committed = first - 1
        var pending = Data()
        let reader = output.fileHandleForReading
        while committed - first + 1 < count {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.hasPrefix("committed "), let batch = Int(line.dropFirst("committed ".count)) {
                    committed = batch
                }
            }
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        try #require(committed - first + 1 >= count, "the child stopped after batch \(committed)")
        return committed
    }

    /// A new store is switched to WAL with syncing off (no `fsync` to keep an empty file), and
    /// then writes as every store does: WAL with `synchronous = NORMAL` (1), whose commits survive
    /// the process being killed. Reopened, it keeps that setting.
    @Test func aNewStoreWritesWithWALsUsualSyncingFromItsFirstPost() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path
        for _ in 0..<2 {
            let store = try FeedStore(path: path)
            let (mode, synchronous) = try await store.writer.write { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(mode == "wal")
            #expect(synchronous == 1)
        }
        // An empty file is a new store too.
        let empty = directory.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let store = try FeedStore(path: empty)
        #expect(try await store.writer.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 1)
    }

    @Test func childrenKilledDuringIngestLoseNothingTheyCommitted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path

        // Several kills, each on the file the previous child left, so recovery is exercised too.
        // A round skips the batch number the previous kill interrupted, so that a half-written
        // batch would stay visible instead of being completed by the next round.
        var reported: [ClosedRange<Int>] = []
        var first = 0
        for _ in 0..<8 {
            let last = try Self.ingestAndKill(path: path, first: first, after: 3)
            reported.append(first...last)
            first = last + 2
        }

        let store = try FeedStore(path: path)
        let (integrity, counts) = try store.writer.read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
             try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                SELECT CAST(substr(entryId, 1, instr(entryId, '-') - 1) AS INTEGER) AS batch, COUNT(*) AS count
                FROM entry GROUP BY batch
                """).map { ($0["batch"] as Int, $0["count"] as Int) }))
        }
        #expect(integrity == ["ok"])
        let missing = reported.joined().filter { counts[$0] == nil }
        #expect(missing.isEmpty, "batches reported committed but lost: \(missing)")
        // A batch a kill interrupted is either absent or whole, never half written.
        let partial = counts.filter { $0.value != Self.batchSize }
        #expect(partial.isEmpty, "batches half written: \(partial)")
    }
}
