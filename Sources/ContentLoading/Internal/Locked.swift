import Foundation

/// State behind a lock, for the few places that must be reachable synchronously from any
/// thread (caches read on the main actor, mailboxes written by the pipeline).
///
/// Inlinable, so that callers in other modules get it specialized for their state: generic
/// code run unspecialized looks up type metadata at run time on every call.
@usableFromInline
final class Locked<State>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var state: State

    @inlinable
    init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the state. Keep `body` short: it blocks other threads.
    @inlinable
    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
