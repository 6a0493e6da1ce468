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

/// Frames at most every 1/60 s of the continuous clock, as ``FramePacing`` times them: a frame
/// asked for after a rest comes at once.
@MainActor
package final class LiveFrames: FrameScheduling {
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private var pacing: FramePacing

    package init(interval: Duration = .microseconds(16_667)) {
        origin = clock.now
        pacing = FramePacing(interval: interval)
    }

    package var now: Duration { clock.now - origin }

    package func requestFrame(_ fire: @escaping @MainActor @Sendable () -> Void) {
        call(at: pacing.nextFrame(at: now)) { [self] in
            pacing.fired(at: now)
            fire()
        }
    }

    package func schedule(after delay: Duration, _ fire: @escaping @MainActor @Sendable () -> Void) {
        call(at: now + delay, fire)
    }

    /// Calls `fire` on the main actor once the clock reads `due`.
    private func call(at due: Duration, _ fire: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in
            let wait = due - self.now
            if wait > .zero { try? await Task.sleep(for: wait) }
            fire()
        }
    }
}

/// When frames happen: at most one per interval, each an interval after the last one began,
/// and at once when the last one is an interval or more ago. So a key pressed at rest is drawn
/// without waiting out a frame, a glide keeps the display's cadence, and the work a frame does
/// does not stretch the time between frames.
package struct FramePacing: Sendable {
    /// The least time between the starts of two frames.
    package let interval: Duration
    /// When the last frame began, if one has.
    private var lastFrame: Duration?

    package init(interval: Duration) {
        self.interval = interval
    }

    /// When a frame asked for at `now` is due: `now` itself after a rest, else an interval
    /// after the last frame began.
    package func nextFrame(at now: Duration) -> Duration {
        guard let lastFrame else { return now }
        return max(now, lastFrame + interval)
    }

    /// A frame began at `time`.
    package mutating func fired(at time: Duration) {
        lastFrame = time
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
