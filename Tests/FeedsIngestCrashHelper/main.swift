// The child process of the store's crash test (`Tests/FeedsTests/Store/CrashTests.swift`): it
// ingests batches of entries into the database at DATABASE, from batch FIRST on, until the test
// kills it, printing `committed N` once batch N is committed, so the test knows what must survive.
// It is a separate executable because only a real process can be killed mid-transaction.
import Feeds
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 5, let first = Int(arguments[2]), let batchSize = Int(arguments[3]),
      let maxBatches = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: feeds-ingest-crash-helper DATABASE FIRST BATCH-SIZE MAX-BATCHES\n".utf8))
    exit(2)
}

// Large bodies keep the child inside a transaction most of the time, where the kill should land.
let body = String(repeating: "<p>Lorem ipsum dolor sit amet.</p>", count: 100)

func batch(_ number: Int) -> [FeedEntry] {
    (0..<batchSize).map { index in
        FeedEntry(id: "\(number)-\(index)", title: "Batch \(number) entry \(index)", content: body)
    }
}

do {
    let store = try FeedStore(path: arguments[1])
    let url = URL(string: "https://example.com/crash.xml")!
    let feed: StoredFeed
    if let stored = try await store.feed(url: url) {
        feed = stored
    } else {
        feed = try await store.addFeed(url: url, title: nil, category: nil)
    }
    // Bounded so that a child whose parent died does not write forever.
    var next = batch(first)
    for number in first..<(first + maxBatches) {
        _ = try await store.upsert(entries: next, feed: feed.id)
        // The next batch is built before the report, so that the parent's kill, which follows the
        // report, finds the child already writing rather than building entries.
        next = batch(number + 1)
        // Unbuffered, so the line leaves the process the moment the batch is committed.
        FileHandle.standardOutput.write(Data("committed \(number)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("feeds-ingest-crash-helper: \(error)\n".utf8))
    exit(1)
}
