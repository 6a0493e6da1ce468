/// Time since a start, read from an injected clock: the one clock of a pipeline, for timings.
@usableFromInline
struct ElapsedTime: Sendable {
    private let read: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void

    /// Starts counting now on `clock`.
    init<C: Clock>(on clock: C) where C.Duration == Duration {
        let origin = clock.now
        read = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    /// Returns once the time since the start is `time`, or throws when the task is cancelled.
    func sleep(until time: Duration) async throws {
        try await sleep(time)
    }

    /// The time since the start.
    @usableFromInline
    func callAsFunction() -> Duration { read() }
}
