import DequeModule
import Foundation

/// A few threads of a pool's own for blocking, CPU-bound work, so that it never occupies the
/// cooperative thread pool, which the frame loop and I/O need: ContentLoading's decoding, and
/// the threads of Feeds' `BackgroundLane`.
///
/// Threads start on demand, up to the limit, and end after ``shutdown()`` once the jobs queued
/// before it have run. Jobs are taken first in, first out; with one thread they run one at a
/// time, in that order.
public final class WorkerThreads: @unchecked Sendable {
    private let limit: Int
    private let name: String
    private let starting: (@Sendable () -> Void)?
    // Guards everything below; the threads wait on it for jobs.
    private let condition = NSCondition()
    private var jobs = Deque<@Sendable () -> Void>()
    private var threads = 0
    private var idle = 0
    private var stopping = false

    /// A pool of at most `limit` threads named `name` (Linux keeps 15 bytes of it); each
    /// thread runs `starting` first, before any job (to set its priority, say).
    public init(limit: Int, name: String, starting: (@Sendable () -> Void)? = nil) {
        precondition(limit > 0, "a pool needs at least one thread")
        self.limit = limit
        self.name = name
        self.starting = starting
    }

    /// Runs `job` on one of the pool's threads.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if idle == 0, threads < limit {
            threads += 1
            let thread = Thread { [self] in
                // Named from inside: on Linux, a name given before the start does not reach
                // the system thread. A debugging aid only; nothing depends on it.
                Thread.current.name = name
                starting?()
                work()
            }
            thread.start()
        } else {
            condition.signal()
        }
    }

    /// Lets the threads end once the queued jobs have run.
    public func shutdown() {
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
