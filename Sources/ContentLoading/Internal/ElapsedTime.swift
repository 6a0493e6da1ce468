/// Time since a start, read from an injected clock: the one clock of a pipeline, for timings.
@usableFromInline
struct ElapsedTime: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts counting now on `clock`.
    init<C: Clock>(on clock: C) where C.Duration == Duration {
        let origin = clock.now
        read = { origin.duration(to: clock.now) }
    }

    /// The time since the start.
    @usableFromInline
    func callAsFunction() -> Duration { read() }
}
