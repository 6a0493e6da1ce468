@testable import Feeds
import Foundation
import GRDB
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The lane a sync's bulk work runs on: its own thread, below the process's priority, and the
/// store's transactions run there when a task on it starts them.
@Suite struct BackgroundLaneTests {
    @Test func aTaskThatPrefersTheLaneRunsOnItsThreadAndNoOtherTaskDoes() async {
        let lane = BackgroundLane(name: "test-lane")
        #expect(await Task(executorPreference: lane) { BackgroundLane.runsOnCurrentThread }.value)
        #expect(await Task { BackgroundLane.runsOnCurrentThread }.value == false)
        #expect(await Task.detached { BackgroundLane.runsOnCurrentThread }.value == false)
        // After a suspension, on the lane again.
        #expect(await Task(executorPreference: lane) {
            await Task.yield()
            return BackgroundLane.runsOnCurrentThread
        }.value)
    }

    @Test func jobsRunOneAtATimeInTheOrderTheyCame() async {
        let lane = BackgroundLane(name: "test-lane")
        final class Log: Sendable {
            let order = Mutex<[Int]>([])
            let running = Mutex(0)
            let overlapped = Mutex(false)
        }
        let log = Log()
        let tasks = (0..<200).map { index in
            Task(executorPreference: lane) {
                log.running.withLock { $0 += 1; if $0 > 1 { log.overlapped.withLock { $0 = true } } }
                log.order.withLock { $0.append(index) }
                log.running.withLock { $0 -= 1 }
            }
        }
        for task in tasks { await task.value }
        #expect(log.order.withLock { $0 } == Array(0..<200))
        #expect(log.overlapped.withLock { $0 } == false)
    }

    @Test func aLaneOfTwoThreadsRunsAJobWhileAnotherBlocks() async {
        let lane = BackgroundLane(name: "test-lane", threads: 2)
        let released = DispatchSemaphore(value: 0)
        // The first blocks its thread until the second runs: with one thread it would give up
        // after its wait, without the signal.
        let blocked = Task(executorPreference: lane) { released.wait(timeout: .now() + 30) == .success }
        let releasing = Task(executorPreference: lane) { released.signal(); return BackgroundLane.runsOnCurrentThread }
        #expect(await releasing.value)
        #expect(await blocked.value)
    }

    #if os(Linux)
    @Test func theLanesThreadRunsBelowTheProcesssPriority() async {
        let lane = BackgroundLane(name: "test-lane")
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let lanes = await Task(executorPreference: lane) { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }.value
        #expect(lanes == min(own + BackgroundLane.niceIncrement, 19))
        // The calling thread keeps its own.
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == own)
    }
    #endif

    @Test(arguments: [false, true]) func aStoreTransactionStartedOnTheLaneRunsOnItsThread(inFile: Bool) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = inFile ? try FeedStore(path: directory.appendingPathComponent("feeds.sqlite").path) : try FeedStore()
        let lane = BackgroundLane(name: "test-lane")
        let onLane = try await Task(executorPreference: lane) {
            try await store.write { _ in BackgroundLane.runsOnCurrentThread }
        }.value
        #expect(onLane)
        #expect(try await store.write { _ in BackgroundLane.runsOnCurrentThread } == false)
    }

    @Test func transactionsOnTheLaneAndOffItAreSerializedAndAllKept() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("feeds.sqlite").path)
        let feed = try await store.addFeed(url: URL(string: "https://example.com/feed")!, title: nil, category: nil)
        let lane = BackgroundLane(name: "test-lane")
        // Each transaction reads the count and writes one more post: a transaction that ran
        // beside another would store a post under an identifier already taken, and lose one.
        @Sendable func addOne() async throws {
            _ = try await store.write { db in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") ?? 0
                return try FeedStore.upserting([storeEntry("\(count)")], into: feed.id, now: storeEpoch, indexing: false)(db)
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<60 {
                if index.isMultiple(of: 2) {
                    group.addTask(executorPreference: lane) { try await addOne() }
                } else {
                    group.addTask { try await addOne() }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.entries(EntryQuery()).count == 60)
    }
}
