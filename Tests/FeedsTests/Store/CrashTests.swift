@testable import Feeds
import Foundation
import GRDB
import Testing

@Suite struct CrashTests {
    private static let helperName = "feeds-ingest-crash-helper"

    /// The helper executable, which `swift build` puts in the same directory as the test binary.
    private static func helperURL() throws -> URL {
        let directories = ([Bundle.main.executableURL] + Bundle.allBundles.map(\.bundleURL))
            .compactMap { $0?.deletingLastPathComponent() }
        let candidates = directories.map { $0.appendingPathComponent(helperName) }
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                            "\(helperName) not found next to the tests in \(directories.map(\.path))")
    }

    @Test func aChildKilledDuringIngestLosesNothingItCommitted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path
        let batchSize = 200
        let killAfter = 5

        let child = Process()
        child.executableURL = try Self.helperURL()
        child.arguments = [path, "\(batchSize)", "100000"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()

        // Read the child's reports line by line until enough batches are committed, then kill it
        // while it is writing the next one.
        var committed = -1
        var pending = Data()
        let reader = output.fileHandleForReading
        while committed + 1 < killAfter {
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
        try #require(committed + 1 >= killAfter, "the child stopped before committing \(killAfter) batches")

        let store = try FeedStore(path: path)
        let (integrity, perBatch) = try store.writer.read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
             try Row.fetchAll(db, sql: """
                SELECT CAST(substr(entryId, 1, instr(entryId, '-') - 1) AS INTEGER) AS batch, COUNT(*) AS count
                FROM entry GROUP BY batch ORDER BY batch
                """).map { (batch: $0["batch"] as Int, count: $0["count"] as Int) })
        }
        #expect(integrity == ["ok"])
        // Every batch reported committed is there, and every batch there is whole: the one the
        // kill interrupted is either absent or complete, never half written.
        #expect(perBatch.count >= committed + 1)
        #expect(perBatch.map(\.batch) == Array(0..<perBatch.count))
        #expect(perBatch.allSatisfy { $0.count == batchSize })
    }
}
