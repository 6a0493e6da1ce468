import DequeModule
import Foundation

/// A few threads of a pipeline's own for blocking, CPU-bound work (decoding), so that it never
/// occupies the cooperative thread pool, which the frame loop and I/O need.
///
/// Threads start on demand, up to the limit, and end after ``shutdown()`` once the jobs queued
/// before it have run. The pipeline submits at most as many jobs at once as there are threads,
/// so a job never waits for another.
final class ProcessingThreads: @unchecked Sendable {
    private let limit: Int
    private let name: String
    // Guards everything below; the threads wait on it for jobs.
    private let condition = NSCondition()
    private var jobs = Deque<@Sendable () -> Void>()
    private var threads = 0
    private var idle = 0
    private var stopping = false

    /// A pool of at most `limit` threads named `name` (Linux keeps 15 bytes of it).
    init(limit: Int, name: String) {
        precondition(limit > 0, "a pool needs at least one thread")
        self.limit = limit
        self.name = name
    }

    /// Runs `job` on one of the pool's threads.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if idle == 0, threads < limit {
            threads += 1
            let thread = Thread { [self] in
                // Named from inside: on Linux, a name given before the start does not reach
                // the system thread. A debugging aid only; nothing depends on it.
                Thread.current.name = name
                work()
            }
            thread.start()
        } else {
            condition.signal()
        }
    }

    /// Lets the threads end once the queued jobs have run.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while jobs.isEmpty, !stopping {
                idle += 1
                condition.wait()
                idle -= 1
            }
            guard let job = jobs.popFirst() else { break }
            condition.unlock()
            job()
            condition.lock()
        }
        threads -= 1
        condition.unlock()
    }
}

/// A flag that a running job reads to learn that its work is no longer wanted.
final class CancellationFlag: Sendable {
    private let state = Locked(false)

    var isSet: Bool { state.withLock { $0 } }

    func set() { state.withLock { $0 = true } }
}
