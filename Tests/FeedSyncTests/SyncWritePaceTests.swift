@testable import Feeds
@testable import FeedSync
import Foundation
import GRDB
import HTTPLoading
import ScrollworkTestSupport
import Synchronization
import Testing

/// The pace of a sync's writes: pages of items are written while the next ones are fetched, but
/// a writer slower than the server holds the sync back instead of letting pages pile up.
@Suite struct SyncWritePaceTests {
    /// ``FakeReaderServer`` behind a runtime's `send`: each HTTP request becomes the
    /// ``SyncRequest`` it was made from, each reply the HTTP one.
    final class Server: @unchecked Sendable {
        private let lock = NSLock()
        private let reader: FakeReaderServer
        private let base: URL
        /// Called before each request for a page of items is answered, with its number (1 first).
        private let beforeItemsPage: @Sendable (Int) -> Void
        private var itemsPages = 0

        init(_ reader: FakeReaderServer, base: URL, beforeItemsPage: @escaping @Sendable (Int) -> Void) {
            self.reader = reader
            self.base = base
            self.beforeItemsPage = beforeItemsPage
        }

        func send(_ request: HTTPDataLoader.Request) -> HTTPReply {
            let path = String(request.url.path.dropFirst(base.path.count + 1))
            // A query and a form are encoded alike.
            let fields = { (encoded: [UInt8]) in SyncFaultTests.ScriptedReader.form(encoded).map { SyncRequest.Field($0.0, $0.1) } }
            let query = fields(Array((URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "").utf8))
            let form = fields(request.body)
            let headers = request.headers.map { SyncRequest.Field($0.name, $0.value) }
            let syncRequest = SyncRequest(method: request.method == .post ? .post : .get, path: path, query: query, form: form, headers: headers)
            let page: Int? = lock.withLock {
                guard path.hasPrefix("reader/api/0/stream/contents") else { return nil }
                itemsPages += 1
                return itemsPages
            }
            if let page { beforeItemsPage(page) }
            let reply = lock.withLock { reader.answer(syncRequest) }
            return HTTPReply(status: reply.status, headers: [], body: reply.body)
        }
    }

    /// Found measuring `bench sync` on a busy machine, where the peak memory of a first sync grew
    /// by half: each reply's write was chained after the last one, so a writer behind the server
    /// let every decoded page wait in memory. Here the store is locked by another connection
    /// until the third page is asked for: two pages may wait for the writer, not three, so the
    /// fourth page is asked for only once the first is stored, and the fifth once the second is.
    /// Without the limit, the fourth page was asked for before the first was stored in about one
    /// sync in four (the writer, woken from SQLite's busy wait, sometimes caught up): the test
    /// syncs eight times.
    @Test func aWriterBehindTheServerHoldsTheNextPagesBack() async throws {
        for _ in 0..<8 { try await syncWithTheStoreLockedUntilTheThirdPage() }
    }

    /// A store in a new folder that follows `feed/1`, with a fresh subscription list, and a
    /// fake server that has 25 items for it: a first sync of five pages of five.
    struct FirstSync {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-pace-\(UUID().uuidString)")
        var path: String { folder.appendingPathComponent("store.sqlite").path }
        let store: FeedStore
        let reader = FakeReaderServer()

        init() async throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            store = try FeedStore(path: folder.appendingPathComponent("store.sqlite").path)
            _ = try await store.replaceSyncedFeeds([SyncedFeed(remoteID: "feed/1", url: URL(string: "http://127.0.0.1:9/1.xml")!, title: "Feed 1")])
            try await store.recordSyncMarks(SyncMarks(subscriptionsFetched: Date()))
            reader.publish(25)
        }

        /// Syncs, calling `beforeItemsPage` before each page of items is answered; the sync must
        /// finish with the 25 items new.
        func sync(beforeItemsPage: @escaping @Sendable (Int) -> Void) async {
            let base = URL(string: "http://127.0.0.1:9/api/greader.php")!
            let server = Server(reader, base: base, beforeItemsPage: beforeItemsPage)
            let account = SyncAccount(kind: .greader, serverURL: base, username: "alice")
            let password = SyncSecret(reader.password)
            let runtime = SyncRuntime(account: account, store: store, tokens: SyncTokenFile(url: folder.appendingPathComponent("token")),
                                      send: { server.send($0) }, configuration: SyncCore.Configuration(itemsPerPage: 5),
                                      password: { .success(password) })
            let outcome = await runtime.sync()
            #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
            #expect(outcome.summary.new == 25)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// A first sync writes its pages without the list index, which SQLite rewrote most of at
    /// every page (`FeedStore.setListIndexAside()`), and builds it once after the last page.
    @Test func aFirstSyncWritesWithoutTheListIndexAndBuildsItAfter() async throws {
        let first = try await FirstSync()
        defer { first.remove() }
        let path = first.path
        // Whether the index was there when each page after the first was asked for.
        let indexed = Mutex<[Int: Bool]>([:])
        await first.sync { page in
            guard page >= 4 else { return }
            let exists = try? DatabaseQueue(path: path).read {
                try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'entry_list_rows')")
            }
            indexed.withLock { $0[page] = exists ?? true }
        }
        // Page 4 is asked for once page 1 is written, which set the index aside (two pages may
        // wait for the writer); the pages after it too.
        let seen = indexed.withLock { $0 }
        #expect(seen.keys.sorted().first == 4 && seen.count >= 2 && seen.values.allSatisfy { !$0 }, "\(seen)")
        #expect(try await first.store.hasListIndex())
        #expect(try await first.store.rows(EntryQuery(limit: 100)).count == 25)
    }

    /// A sync's bulk work yields to the requests: each page's posts are written on the
    /// background lane, in a transaction that runs on the lane's thread (``BackgroundLane``).
    @Test func everyPageIsWrittenOnTheBackgroundLane() async throws {
        guard #available(macOS 15, iOS 18, *) else { return }
        /// Whether each commit that stored posts ran on a lane's thread.
        final class Commits: TransactionObserver, @unchecked Sendable {
            private let lock = NSLock()
            private var storing = false
            private var onLane: [Bool] = []
            var seen: [Bool] { lock.withLock { onLane } }

            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
                if case .insert(let table) = eventKind { return table == "entry" }
                return false
            }
            func databaseDidChange(with event: DatabaseEvent) { lock.withLock { storing = true } }
            func databaseDidCommit(_ db: Database) {
                lock.withLock {
                    if storing { onLane.append(BackgroundLane.runsOnCurrentThread) }
                    storing = false
                }
            }
            func databaseDidRollback(_ db: Database) { lock.withLock { storing = false } }
        }
        let first = try await FirstSync()
        defer { first.remove() }
        let commits = Commits()
        first.store.writer.add(transactionObserver: commits, extent: .observerLifetime)
        await first.sync { _ in }
        // Five pages of five, one transaction each, all on the lane.
        #expect(commits.seen == Array(repeating: true, count: 5))
    }

    private func syncWithTheStoreLockedUntilTheThirdPage() async throws {
        let first = try await FirstSync()
        defer { first.remove() }
        let path = first.path
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: path, configuration: configuration)
        try blocker.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        // The posts stored when pages 4 and 5 are asked for.
        let storedBefore = Mutex<[Int: Int]>([:])
        await first.sync { page in
            if page == 3 { try? blocker.inDatabase { try $0.execute(sql: "COMMIT") } }
            if page >= 4 {
                let stored = try? DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM entry") }
                storedBefore.withLock { $0[page] = stored ?? -1 }
            }
        }
        // The third page waited for the first to be written (5 items), and the fourth was asked
        // for after it; the fifth after the second.
        let stored = storedBefore.withLock { $0 }
        #expect(try #require(stored[4]) >= 5)
        #expect(try #require(stored[5]) >= 10)
    }
}
