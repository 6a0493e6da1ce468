import Foundation

/// A flag that a running job reads to learn that its work is no longer wanted.
final class CancellationFlag: Sendable {
    private let state = Locked(false)

    var isSet: Bool { state.withLock { $0 } }

    func set() { state.withLock { $0 = true } }
}
