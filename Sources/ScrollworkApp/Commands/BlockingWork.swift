import Foundation

/// Blocking work started at once on a thread of its own, whose result is awaited later: the
/// reader's store opens this way while the main actor goes on setting up, and no thread of the
/// cooperative pool blocks on SQLite.
///
/// The work starts in the initializer, without waiting for a thread of the pool or for the
/// caller's actor to suspend (as a task would); ``value`` suspends until it is done.
final class BlockingWork<Value: Sendable>: Sendable {
    private let state = NSLock()
    nonisolated(unsafe) private var result: Result<Value, any Error>?
    nonisolated(unsafe) private var waiters: [CheckedContinuation<Value, any Error>] = []

    /// Starts `work` now on a new thread, which ends with it.
    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let result = Result { try work() }
            let waiting = state.withLock {
                self.result = result
                defer { waiters = [] }
                return waiters
            }
            for waiter in waiting { waiter.resume(with: result) }
        }
        thread.start()
    }

    /// The work's result, once it is done; what it threw, if it threw.
    var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let done: Result<Value, any Error>? = state.withLock {
                    if result == nil { waiters.append(continuation) }
                    return result
                }
                if let done { continuation.resume(with: done) }
            }
        }
    }
}
