/// When the reader's next frame happens, and what time it is: the real display's 60 Hz and
/// monotonic clock, or a test's hand.
@MainActor
package protocol FrameScheduling: AnyObject {
    /// Time since the reader started; scroll physics and animations run on it.
    var now: Duration { get }
    /// Calls `fire` once, at the next frame. The reader asks at most once per frame.
    func requestFrame(_ fire: @escaping @MainActor @Sendable () -> Void)
    /// Calls `fire` once, `delay` from now: a wake-up while nothing moves.
    func schedule(after delay: Duration, _ fire: @escaping @MainActor @Sendable () -> Void)
}

/// Frames every 1/60 s of the continuous clock.
@MainActor
package final class LiveFrames: FrameScheduling {
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private let interval: Duration

    package init(interval: Duration = .microseconds(16_667)) {
        origin = clock.now
        self.interval = interval
    }

    package var now: Duration { clock.now - origin }

    package func requestFrame(_ fire: @escaping @MainActor @Sendable () -> Void) {
        schedule(after: interval, fire)
    }

    package func schedule(after delay: Duration, _ fire: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in
            try? await Task.sleep(for: delay)
            fire()
        }
    }
}

/// Frames a test fires by hand, on a clock it moves: deterministic, and it counts every frame
/// the reader asked for, so a test can see that an idle reader asks for none.
@MainActor
final class ManualFrames: FrameScheduling {
    var now: Duration = .zero
    /// Every frame the reader has asked for.
    private(set) var requested = 0
    /// Wake-ups asked for, by when they are due.
    private(set) var timers: [(due: Duration, fire: @MainActor @Sendable () -> Void)] = []
    private var pending: [@MainActor @Sendable () -> Void] = []

    var hasPendingFrame: Bool { !pending.isEmpty }

    func requestFrame(_ fire: @escaping @MainActor @Sendable () -> Void) {
        requested += 1
        pending.append(fire)
    }

    func schedule(after delay: Duration, _ fire: @escaping @MainActor @Sendable () -> Void) {
        timers.append((now + delay, fire))
    }

    /// Moves the clock one frame on and fires the frames asked for and the wake-ups now due;
    /// returns how many frames fired.
    @discardableResult
    func advance(by step: Duration = .microseconds(16_667)) -> Int {
        now += step
        let due = pending
        pending = []
        for fire in due { fire() }
        let woken = timers.filter { $0.due <= now }
        timers.removeAll { $0.due <= now }
        for timer in woken { timer.fire() }
        return due.count
    }

    /// Advances frame by frame until the reader stops asking, at most `limit` frames; returns
    /// how many frames ran.
    @discardableResult
    func runUntilIdle(limit: Int = 10_000) -> Int {
        var frames = 0
        while hasPendingFrame, frames < limit {
            advance()
            frames += 1
        }
        return frames
    }
}
