import FeedsTestSupport
import FeedsHTTP
import Foundation
import GRDB
import ScrollworkTestSupport
import Testing
@testable import Feeds

/// Feeds as the live source of a list: snapshots that follow the store, progress as it
/// happens, whole large feeds, readers that never wait, and a pool that is never blocked.
@Suite struct LiveSourceTests {
    static func rss(_ ids: some Sequence<Int>, title: (Int) -> String = { "Entry \($0)" }, padding: Int = 0) -> [UInt8] {
        let pad = String(repeating: "x", count: padding)
        let items = ids.map { "<item><guid>\($0)</guid><title>\(title($0))</title><description>\(pad)</description></item>" }
        return Array((#"<rss version="2.0"><channel><title>Live</title>"# + items.joined() + "</channel></rss>").utf8)
    }

    /// Snapshots an observation hands out, as a stream the test awaits one by one.
    private func snapshots(of observation: EntryRowsObservation) -> (AsyncStream<[EntryRow]>, Task<Void, Never>) {
        let (stream, continuation) = AsyncStream<[EntryRow]>.makeStream()
        let task = Task {
            do {
                for try await rows in observation { continuation.yield(rows) }
            } catch {
                Issue.record("the observation failed: \(error)")
            }
            continuation.finish()
        }
        return (stream, task)
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func theChangeStreamYieldsAfterABatchAndNotAfterAnUnrelatedWrite() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("feeds.sqlite").path)
        let watched = try await store.addFeed(url: URL(string: "https://watched.example/")!)
        let other = try await store.addFeed(url: URL(string: "https://other.example/")!)
        let (stream, task) = snapshots(of: store.observeRows(EntryQuery(feed: watched.id)))
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.isEmpty == true)

        // Unrelated: another feed's entries, and the watched feed's refresh time.
        _ = try await store.upsert(entries: [FeedEntry(id: "o", title: "Other")], feed: other.id, now: storeEpoch)
        try await store.recordRefresh(feed: watched.id, etag: "v2", lastModified: nil, info: nil, at: storeEpoch)
        // Related: a batch of the watched feed.
        _ = try await store.upsert(entries: [FeedEntry(id: "w", title: "Watched")], feed: watched.id, now: storeEpoch)
        #expect(await iterator.next()?.map(\.title) == ["Watched"], "the next snapshot is the batch's, none before it")

        try await store.setRead(true, entries: try await store.rows(EntryQuery(feed: watched.id)).map(\.id))
        #expect(await iterator.next()?.map(\.isRead) == [true])
        task.cancel()
    }

    /// The parser's batches are stored a transaction at a time: together once there are enough
    /// of them, or once enough of the body was read, and the rest at the end.
    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func batchesAreStoredTogetherUpToATransactionsWorth() async throws {
        let url = URL(string: "https://good.example/feed")!
        let document = Self.rss(1...7)
        func stored(_ transactions: FeedRefresher.Transactions, pieceSize: Int) async throws -> [Int] {
            let store = try FeedStore()
            let feed = try await store.addFeed(url: url)
            let refresher = FeedRefresher(store: store, fetcher: ScriptedFetcher(documents: [feed.url: document], pieceSize: pieceSize),
                                          parsing: .init(batchSize: 2), transactions: transactions, now: { storeEpoch })
            let events = Recorder<FeedRefreshProgress>()
            let outcome = await refresher.refresh(feed) { events.record($0) }
            #expect(outcome.status == .refreshed(new: 7, modified: 0, unchanged: 0, malformed: false))
            return events.all.compactMap { if case .batchStored(_, let counts) = $0 { counts.new } else { nil } }
        }
        // Batches of two, stored once four entries are read, the last three at the end.
        #expect(try await stored(.init(maxEntries: 4), pieceSize: 40) == [4, 3])
        // By default, a document this small is one transaction.
        #expect(try await stored(.init(), pieceSize: 40) == [7])
        // A byte budget stores what the body gave so far, however few entries that is.
        var byBytes = FeedRefresher.Transactions()
        byBytes.maxBytes = 1
        #expect(try await stored(byBytes, pieceSize: document.count) == [6, 1])
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func progressEventsComeInOrderForEachFeed() async throws {
        let store = try FeedStore()
        let good = try await store.addFeed(url: URL(string: "https://good.example/feed")!)
        let bad = try await store.addFeed(url: URL(string: "https://bad.example/feed")!)
        let fetcher = ScriptedFetcher(documents: [good.url: Self.rss(1...5)], pieceSize: 40)
        // A transaction as soon as a batch is read: an event for each.
        let refresher = FeedRefresher(store: store, fetcher: fetcher, parsing: .init(batchSize: 2), transactions: .init(maxEntries: 1),
                                      now: { storeEpoch })
        let events = Recorder<FeedRefreshProgress>()
        let outcomes = try await refresher.refreshAll { events.record($0) }

        let all = events.all
        #expect(all.first == .planned(feeds: 2), "a refresh of all feeds says first how many it will refresh")
        let forGood = all.filter { if case .started(let f) = $0 { f.id == good.id } else if case .batchStored(let f, _) = $0 { f.id == good.id }
                                   else if case .finished(let o) = $0 { o.feed.id == good.id } else { false } }
        func counts(_ new: Int) -> EntryChangeCounts {
            var counts = EntryChangeCounts()
            counts.new = new
            return counts
        }
        #expect(forGood == [.started(good), .batchStored(good, counts: counts(2)), .batchStored(good, counts: counts(2)),
                            .batchStored(good, counts: counts(1)), .finished(outcomes[1])])
        let forBad = all.filter { if case .started(let f) = $0 { f.id == bad.id } else if case .failed(let f, _) = $0 { f.id == bad.id } else { false } }
        guard case .failed(let message) = outcomes[0].status else {
            Issue.record("the unreachable feed must fail: \(outcomes[0].status)")
            return
        }
        #expect(forBad == [.started(bad), .failed(bad, message: message)])
        #expect(all.count == 1 + forGood.count + forBad.count)
    }

    @Test(.timeLimit(.minutes(2 * HangGuard.scale)))
    func aTwentyMegabyteFeedIsStoredWholeFromAFileAndFromAServer() async throws {
        let count = 20_000
        let document = Self.rss(0..<count, padding: 1_000)
        #expect(document.count > 20_000_000)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.xml")
        try Data(document).write(to: file)
        let server = try await LoopbackHTTPServer.start { _, _ in .respond(status: 200, body: document) }

        // What this test checks is that a large feed is stored whole; the request's deadline is
        // tested elsewhere (ReadDeadlineTests, the trickling servers of HTTPDataLoaderTests).
        // Here it is a guard against a hang, as long as the test's time limit. The deadline
        // bounds the server's time, not the refresh's, which reads and stores each piece as it
        // arrives (in CI, storing 20,000 posts among other tests took longer than the 30 s
        // deadline, which then counted it). But what it counts as the server's time is wall
        // time, the waits for a thread to run this in-process server and the reading task on
        // included, and under ThreadSanitizer, with the whole suite on two cores, the waits for
        // the pieces added up to more than the 150 s it was (CI, stop 55).
        var limits = FeedFetcher.Configuration()
        limits.timeout = .seconds(120 * HangGuard.scale)
        let fetcher = FeedFetcher(configuration: limits)
        // The client is shut down however the test ends (an HTTP client that is not traps as
        // it goes), a cancellation by the time limit included.
        do {
            for url in [file, server.url("/big.xml")] {
                let store = try FeedStore()
                let feed = try await store.addFeed(url: url)
                let outcome = await FeedRefresher(store: store, fetcher: fetcher, parsing: .init(batchSize: 500)).refresh(feed)
                #expect(outcome.status == .refreshed(new: count, modified: 0, unchanged: 0, malformed: false), "\(url)")
                #expect(try await store.rows(EntryQuery(limit: count + 1)).count == count)
            }
        } catch {
            try? await fetcher.shutdown()
            try? await server.stop()
            throw error
        }
        try await fetcher.shutdown()
        try await server.stop()
    }

    @Test func onePieceOfTwentyMegabytesParsesWhole() throws {
        let document = Self.rss(0..<20_000, padding: 1_000)
        var parser = FeedParser(configuration: .init(batchSize: 1_000))
        let batches = try parser.consume(document)
        let end = try parser.finish()
        #expect(batches.joined().count + end.entries.count == 20_000)
        #expect(!end.isMalformed)
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func readersNeverWaitForAWriter() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("feeds.sqlite").path)
        let feed = try await store.addFeed(url: URL(string: "https://a.example/")!)
        _ = try await store.upsert(entries: [FeedEntry(id: "1", title: "One")], feed: feed.id, now: storeEpoch)

        // A write transaction that stays open until the reads are done.
        let inTransaction = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? store.writer.write { db in
                try db.execute(sql: "UPDATE entry SET title = 'Two'")
                inTransaction.continuation.yield()
                release.wait()
            }
        }
        writer.start()
        var waiting = inTransaction.stream.makeAsyncIterator()
        await waiting.next()
        // With the writer mid-transaction, reads see the last committed state at once.
        for _ in 0..<10 {
            #expect(try await store.rows(EntryQuery()).map(\.title) == ["One"])
        }
        release.signal()
    }

    @Test(.timeLimit(.minutes(2 * HangGuard.scale)))
    func fiftyFeedsRefreshWhileAReaderReadsContinuously() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("feeds.sqlite").path)
        var documents: [URL: [UInt8]] = [:]
        for index in 0..<50 {
            let url = URL(string: "https://feed\(index).example/")!
            documents[url] = Self.rss(0..<100, title: { "Feed \(index) entry \($0)" })
            _ = try await store.addFeed(url: url)
        }
        let refresher = FeedRefresher(store: store, fetcher: ScriptedFetcher(documents: documents, pieceSize: 512),
                                      parsing: .init(batchSize: 10))
        let done = Recorder<Bool>()
        async let reads: [Int] = {
            var counts: [Int] = []
            while done.all.isEmpty {
                counts.append(try await store.rows(EntryQuery(limit: 10_000)).count)
            }
            return counts
        }()
        let outcomes = try await refresher.refreshAll()
        done.record(true)
        let counts = try await reads
        #expect(outcomes.allSatisfy { $0.status == .refreshed(new: 100, modified: 0, unchanged: 0, malformed: false) })
        #expect(!counts.isEmpty)
        #expect(counts == counts.sorted(), "each read sees a committed state, never one going back")
        #expect(try await store.rows(EntryQuery(limit: 10_000)).count == 5_000)
    }

    /// A store call must suspend, not block: with a refresh running on an executor of one
    /// thread while another connection holds the database locked, other work on that thread
    /// still runs. A blocking call would hold the thread until SQLite's busy timeout.
    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aRefreshWaitingForTheDatabaseLeavesItsThreadFree() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("feeds.sqlite").path
        let store = try FeedStore(path: path)
        let feed = try await store.addFeed(url: URL(string: "https://a.example/feed")!)
        // No entries: the first write is recording the refresh, once blocking in older builds.
        let refresher = FeedRefresher(store: store, fetcher: ScriptedFetcher(documents: [feed.url: Self.rss(0..<0)]))

        let locker = try DatabaseQueue(path: path)
        let locked = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let lockHolder = Thread {
            try? locker.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.continuation.yield()
                release.wait()
                try db.execute(sql: "COMMIT")
            }
        }
        lockHolder.start()
        var waitForLock = locked.stream.makeAsyncIterator()
        await waitForLock.next()

        let executor = SerialTaskExecutor()
        let log = Recorder<String>()
        let refresh = Task(executorPreference: executor) { @Sendable in
            let outcome = await refresher.refresh(feed)
            log.record("refreshed")
            return outcome
        }
        // Runs on the same single thread while the refresh waits for the lock.
        await Task(executorPreference: executor) { @Sendable in log.record("other work ran") }.value
        log.record("lock released")
        release.signal()
        let outcome = await refresh.value
        #expect(outcome.status == .refreshed(new: 0, modified: 0, unchanged: 0, malformed: false))
        #expect(log.all == ["other work ran", "lock released", "refreshed"])
    }
}

/// Runs every job on one serial queue: an executor with the parallelism of a single thread.
final class SerialTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "scrollwork.tests.serial-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// A fetcher whose servers never answer: it waits until its task is cancelled.
    struct SilentFetcher: FeedFetching {
        let opened: AsyncStream<URL>.Continuation
        var maxConcurrentFetches: Int { 4 }

        func open(_ request: FeedFetchRequest) async throws(FeedFetchError) -> FeedOpening {
            opened.yield(request.url)
            do {
                try await Task.sleep(for: .seconds(3_600))
            } catch {
                throw .connectionFailed("the transfer was cancelled")
            }
            throw .connectionFailed("no answer")
        }
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func aCancelledRefreshMarksNoFeedAsFailed() async throws {
        let store = try FeedStore()
        _ = try await store.addFeed(url: URL(string: "https://one.example/feed")!)
        _ = try await store.addFeed(url: URL(string: "https://two.example/feed")!)
        let (opened, sink) = AsyncStream<URL>.makeStream()
        let refresher = FeedRefresher(store: store, fetcher: SilentFetcher(opened: sink), now: { storeEpoch })
        let refresh = Task { try await refresher.refreshAll() }
        var iterator = opened.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        refresh.cancel()
        let outcomes = try await refresh.value
        #expect(outcomes.count == 2)
        #expect(try await store.feeds().allSatisfy { $0.lastError == nil }, "quitting is not a failure of the feeds")
    }
}

