import DequeModule

/// The scheduling policy of one pipeline stage, as a plain synchronous state machine.
///
/// Jobs wait in priority tiers; within a tier they start newest first (``QueueOrder/lifo``) or
/// oldest first. At most ``maxConcurrent`` jobs run at once. The async pipeline drives it:
/// it enqueues, changes priorities, removes cancelled jobs, reports finished ones, and asks
/// ``startNext()`` which jobs to start. Being synchronous and deterministic, the policy can be
/// tested, and simulated, step by step.
///
/// A job whose priority changes while it waits goes to the back of its new tier, as if it had
/// just been requested: a row that scrolls into view is the newest thing the user asked for.
/// ``moveToFront(_:)`` does the same at an unchanged priority (a row that re-enters view).
public struct LoadScheduler<JobID: Hashable> {
    /// The most jobs that run at once.
    public let maxConcurrent: Int
    /// The order within a tier.
    public let order: QueueOrder

    private struct Entry {
        let id: JobID
        let stamp: UInt64
    }

    private struct Waiting {
        var priority: LoadPriority
        var stamp: UInt64
    }

    // One queue per tier, with stale entries (re-prioritized or removed jobs) skipped lazily.
    private var tiers = [Deque<Entry>](repeating: [], count: LoadPriority.allCases.count)
    private var waiting: [JobID: Waiting] = [:]
    private var staleEntries = 0
    private var nextStamp: UInt64 = 0
    /// The jobs started and not yet finished or removed, with their current priority.
    public private(set) var running: [JobID: LoadPriority] = [:]

    /// Creates an empty scheduler.
    ///
    /// - Precondition: `maxConcurrent` is positive.
    public init(maxConcurrent: Int, order: QueueOrder = .lifo) {
        precondition(maxConcurrent > 0, "maxConcurrent must be positive")
        self.maxConcurrent = maxConcurrent
        self.order = order
    }

    /// The number of jobs waiting to start.
    public var waitingCount: Int { waiting.count }

    /// Whether `id` waits or runs.
    public func contains(_ id: JobID) -> Bool { waiting[id] != nil || running[id] != nil }

    /// The priority of a waiting or running job.
    public func priority(of id: JobID) -> LoadPriority? { waiting[id]?.priority ?? running[id] }

    /// Adds a job that waits to start.
    ///
    /// - Precondition: `id` neither waits nor runs.
    /// - Complexity: O(1) amortized.
    public mutating func enqueue(_ id: JobID, priority: LoadPriority) {
        precondition(!contains(id), "job \(id) is already scheduled")
        push(id, priority: priority)
    }

    /// Changes the priority of a waiting job (which moves to the back of its new tier) or of a
    /// running one (which only records it). Does nothing for an unknown job or an unchanged
    /// priority.
    ///
    /// - Complexity: O(1) amortized.
    public mutating func setPriority(_ priority: LoadPriority, of id: JobID) {
        if let current = waiting[id] {
            guard current.priority != priority else { return }
            staleEntries += 1
            push(id, priority: priority)
        } else if running[id] != nil {
            running[id] = priority
        }
    }

    /// Makes a waiting job the next to start among the jobs of its tier, in either order.
    /// Does nothing for a job that runs or is unknown.
    ///
    /// - Complexity: O(1) amortized.
    public mutating func moveToFront(_ id: JobID) {
        guard let current = waiting[id] else { return }
        staleEntries += 1
        nextStamp += 1
        waiting[id] = Waiting(priority: current.priority, stamp: nextStamp)
        let entry = Entry(id: id, stamp: nextStamp)
        // The front is where dequeueHighest() takes from: the end for LIFO, the start for FIFO.
        if order == .lifo {
            tiers[current.priority.rawValue].append(entry)
        } else {
            tiers[current.priority.rawValue].prepend(entry)
        }
        compactIfNeeded()
    }

    /// Removes a job: a waiting one will never start; a running one gives up its place at once.
    ///
    /// The pipeline removes a running job only when its work has really stopped, so that the
    /// concurrency limit holds for the work itself, not for the bookkeeping.
    ///
    /// - Returns: whether the job was known.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public mutating func remove(_ id: JobID) -> Bool {
        if waiting.removeValue(forKey: id) != nil {
            staleEntries += 1
            compactIfNeeded()
            return true
        }
        return running.removeValue(forKey: id) != nil
    }

    /// Marks a running job as finished, freeing its place.
    ///
    /// - Precondition: `id` runs.
    public mutating func finish(_ id: JobID) {
        precondition(running.removeValue(forKey: id) != nil, "job \(id) is not running")
    }

    /// Starts waiting jobs, highest tier first, while fewer than ``maxConcurrent`` run.
    ///
    /// - Returns: the jobs to start, in the order they were chosen; they now count as running.
    /// - Complexity: O(k + s) for k jobs started and s stale entries skipped.
    public mutating func startNext() -> [JobID] {
        var started: [JobID] = []
        while running.count < maxConcurrent, let next = dequeueHighest() {
            running[next.id] = next.priority
            started.append(next.id)
        }
        return started
    }

    private mutating func push(_ id: JobID, priority: LoadPriority) {
        nextStamp += 1
        waiting[id] = Waiting(priority: priority, stamp: nextStamp)
        tiers[priority.rawValue].append(Entry(id: id, stamp: nextStamp))
    }

    private mutating func dequeueHighest() -> (id: JobID, priority: LoadPriority)? {
        for tier in tiers.indices.reversed() {
            while let entry = order == .lifo ? tiers[tier].popLast() : tiers[tier].popFirst() {
                if let job = waiting[entry.id], job.stamp == entry.stamp {
                    waiting[entry.id] = nil
                    return (entry.id, job.priority)
                }
                staleEntries -= 1
            }
        }
        return nil
    }

    /// Drops stale entries once they outnumber the live ones, so that a tier that never gets
    /// to run (background work under constant scrolling) cannot grow without bound.
    private mutating func compactIfNeeded() {
        guard staleEntries > 64, staleEntries > waiting.count else { return }
        for tier in tiers.indices {
            tiers[tier] = Deque(tiers[tier].filter { waiting[$0.id]?.stamp == $0.stamp })
        }
        staleEntries = 0
    }
}
