import Foundation

/// A clock whose sleeps return at once and are recorded, so retry delays are checked exactly
/// and tests never wait for a backoff.
public final class RecordingClock: Clock, @unchecked Sendable {
    public typealias Duration = Swift.Duration

    public struct Instant: InstantProtocol {
        public var offset: Swift.Duration
        public func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var recorded: [Swift.Duration] = []

    public init() {}

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Swift.Duration { .nanoseconds(1) }
    /// Every sleep asked for, in order.
    public var sleeps: [Swift.Duration] { lock.withLock { recorded } }

    public func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        lock.withLock {
            recorded.append(current.duration(to: deadline))
            current = max(current, deadline)
        }
        try Task.checkCancellation()
    }
}
