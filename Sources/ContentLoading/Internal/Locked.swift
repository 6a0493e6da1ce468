import Foundation

/// State behind a lock, for the few places that must be reachable synchronously from any
/// thread (caches read on the main actor, mailboxes written by the pipeline).
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the state. Keep `body` short: it blocks other threads.
    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
