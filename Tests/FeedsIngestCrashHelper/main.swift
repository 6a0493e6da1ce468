// The child process of the store's crash test (`Tests/FeedsTests/Store/CrashTests.swift`): it
// ingests batches into the database at the path in its first argument until the test kills it,
// printing `committed N` after batch N is committed, so the test knows what must survive.
// It is a separate executable because only a real process can be killed mid-transaction.
import Feeds
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let batchSize = Int(arguments[2]), let maxBatches = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: feeds-ingest-crash-helper DATABASE BATCH-SIZE MAX-BATCHES\n".utf8))
    exit(2)
}

do {
    let store = try FeedStore(path: arguments[1])
    let url = URL(string: "https://example.com/crash.xml")!
    let feed = try store.feed(url: url) ?? store.addFeed(url: url, title: nil, category: nil)
    // Large bodies keep the child inside a transaction most of the time, where the kill should land.
    let body = String(repeating: "<p>Lorem ipsum dolor sit amet.</p>", count: 100)
    // Bounded so that a child whose parent died does not write forever.
    for batch in 0..<maxBatches {
        let entries = (0..<batchSize).map { index in
            FeedEntry(id: "\(batch)-\(index)", title: "Batch \(batch) entry \(index)", content: body)
        }
        _ = try store.upsert(entries: entries, feed: feed.id)
        // Unbuffered, so the line leaves the process the moment the batch is committed.
        FileHandle.standardOutput.write(Data("committed \(batch)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("feeds-ingest-crash-helper: \(error)\n".utf8))
    exit(1)
}
