import Foundation
import WorkerThreads
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads of its own at background priority, as a task executor, for the bulk work of a
/// sync: decoding each page of items, preparing its posts' columns and writing them.
///
/// Work on the lane yields the cores to what runs at normal priority: the reader's frame
/// loop, the HTTP client's event loop, which sends the next request, and a feed server on the
/// same machine, which a sync waits for. On a machine with a core to spare it runs as fast as
/// any thread. (On Linux, where libdispatch gives no thread a lower priority, the lane's
/// threads have a nice value ``niceIncrement`` above the process's; elsewhere, the utility
/// QoS.) It is meant for work that may wait, never for what a user waits on directly.
///
/// A transaction that ``FeedStore`` starts from a task running on the lane runs on the lane's
/// thread, which it blocks meanwhile, instead of on GRDB's writer queue: SQLite's own work,
/// most of a write, then runs at the lane's priority. GRDB serializes transactions as before,
/// whatever thread runs them.
///
/// Its threads are ``WorkerThreads``: they start as jobs come, up to the lane's limit.
@available(macOS 15, iOS 18, *)
public final class BackgroundLane: TaskExecutor {
    /// The lane a sync runs its bulk work on: two threads, so that a page is decoded and
    /// prepared while the one before it is written.
    public static let shared = BackgroundLane(name: "scrollwork-bulk", threads: 2)

    /// How much the nice value of the lane's threads exceeds the process's, on Linux: 10,
    /// `nice`'s default, at which a thread gets about a tenth of a core that a thread at the
    /// process's own priority also wants.
    public static let niceIncrement: Int32 = 10

    private let threads: WorkerThreads

    /// A lane of at most `threads` threads, started as jobs come, each named `name` (Linux keeps
    /// 15 bytes of it). With one thread, its jobs run one at a time, in the order they came.
    public init(name: String, threads: Int = 1) {
        self.threads = WorkerThreads(limit: threads, name: name) {
            Self.lowerPriority()
            pthread_setspecific(Self.laneKey, Self.marker)
        }
    }

    /// Whether the calling thread is a lane's: a task that prefers a lane as its executor runs
    /// there, and ``FeedStore`` runs its transactions on it.
    public static var runsOnCurrentThread: Bool { pthread_getspecific(laneKey) != nil }

    /// Set on a lane's threads (to ``marker``), and on no other.
    private static let laneKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// What ``laneKey`` holds on a lane's thread: any pointer but nil.
    nonisolated(unsafe) private static let marker = UnsafeMutableRawPointer(bitPattern: 1)

    /// Queues `job` for the lane's threads, which take their jobs first in, first out.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        threads.submit { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    /// Lowers the calling thread's priority, for good: a thread may lower its own priority,
    /// but raising it back takes a privilege.
    private static func lowerPriority() {
        #if os(Linux)
        // On Linux the nice value belongs to the thread; 0 names the calling one.
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        if errno == 0 {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(current + niceIncrement, 19))
        }
        #elseif canImport(Darwin)
        _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }
}
