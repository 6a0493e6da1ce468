import Foundation

/// The scroll position of a list and how it moves: dragging, flinging with deceleration the way
/// iOS scroll views decelerate, and programmatic scrolls, advanced by the caller's frame ticks.
///
/// Time never comes from a clock inside: every method that moves takes the current time, as
/// a `Duration` since any fixed origin, so a scroll is deterministic and can be simulated.
///
/// A fling decays its velocity by ``DecelerationRate`` per millisecond: after `t` ms the
/// velocity is `v₀ · rᵗ` and the offset `x₀ + v₀ · (rᵗ − 1) / ln r`, so it lands at
/// `x₀ − v₀ / ln r`. That landing is predicted in closed form when the fling starts
/// (``predictedLanding``), before any frame is drawn: what the landing range loads first. An
/// edge stops a fling (the offset is clamped to the content), and the prediction is clamped
/// the same way.
public struct ScrollModel: Sendable, Equatable {
    /// What the list is doing.
    public enum Phase: Sendable, Equatable {
        /// Still.
        case idle
        /// Following a finger, a held key or a wheel.
        case dragging
        /// Gliding after a fling, slowing down.
        case decelerating
        /// Moving to a target set by the program (``scroll(to:animated:at:)``).
        case animating
    }

    /// How fast a fling slows down: the share of its velocity kept per millisecond.
    public struct DecelerationRate: Sendable, Equatable {
        /// The share of velocity kept after one millisecond, in (0, 1).
        public var perMillisecond: Double

        /// A rate; iOS's are ``normal`` and ``fast``.
        /// - Precondition: `perMillisecond` is in (0, 1).
        public init(perMillisecond: Double) {
            precondition(perMillisecond > 0 && perMillisecond < 1, "a deceleration rate is in (0, 1)")
            self.perMillisecond = perMillisecond
        }

        /// UIScrollView's normal rate: long, smooth glides.
        public static let normal = DecelerationRate(perMillisecond: 0.998)
        /// UIScrollView's fast rate: short glides, for paging-like lists.
        public static let fast = DecelerationRate(perMillisecond: 0.99)
    }

    /// A fling in progress: where and when it started, how fast, and where it will land.
    struct Fling: Sendable, Equatable {
        var startOffset: Double
        var startTime: Duration
        /// Units per millisecond.
        var velocity: Double
    }

    /// A programmatic scroll in progress: an ease-out from one offset to another.
    struct Animation: Sendable, Equatable {
        var from: Double
        var to: Double
        var startTime: Duration
        var duration: Duration
    }

    /// The top of the visible part, in content units.
    public private(set) var offset: Double = 0
    /// What the list is doing.
    public private(set) var phase: Phase = .idle
    /// How tall the content is.
    public private(set) var contentHeight: Double = 0
    /// How tall the visible part is.
    public private(set) var viewportHeight: Double = 0
    /// How fast flings slow down.
    public var decelerationRate: DecelerationRate
    /// Below this speed (units per millisecond) a fling has stopped.
    public var stopVelocity: Double = 0.005
    /// How long an animated programmatic scroll takes.
    public var animationDuration: Duration = .milliseconds(250)

    private var fling: Fling?
    private var animation: Animation?

    /// A still list at the top.
    public init(decelerationRate: DecelerationRate = .normal) {
        self.decelerationRate = decelerationRate
    }

    /// The largest offset: the content's end at the viewport's bottom (0 when it fits).
    public var maxOffset: Double { max(0, contentHeight - viewportHeight) }

    /// Sets the sizes; the offset is clamped into the new range (a fling keeps going).
    public mutating func setSizes(content: Double, viewport: Double) {
        contentHeight = max(0, content)
        viewportHeight = max(0, viewport)
        offset = clamp(offset)
    }

    // MARK: Input

    /// Starts following a drag: any glide or animation stops where it is.
    public mutating func beginDrag() {
        isHoldingAfterGlide = fling != nil || animation != nil
        fling = nil
        animation = nil
        phase = .dragging
    }

    /// Moves by `delta` while dragging (positive scrolls down the content), clamped to it.
    public mutating func drag(by delta: Double) {
        if phase != .dragging { beginDrag() }
        if delta != 0 { isHoldingAfterGlide = false }
        offset = clamp(offset + delta)
    }

    /// Whether a finger stopped a glide and has not moved since: a change of mind, whose next
    /// direction is unknown.
    public private(set) var isHoldingAfterGlide = false

    /// Ends a drag with `velocity` (units per second, positive down the content): a fling
    /// when it is fast enough, else the list rests.
    public mutating func endDrag(velocity: Double, at time: Duration) {
        startFling(velocity: velocity, at: time)
    }

    /// Starts a fling that comes to rest at `target` (clamped to the content): the glide of a
    /// held key, which keeps its momentum from one press to the next and slows down as a fling
    /// does once the key is let go. Nothing happens when the list is there already.
    ///
    /// The velocity is the one whose decay ends at `target`: the distance times −ln r, plus
    /// ``stopVelocity``, since a fling stops once it is slower than that.
    /// - Complexity: O(1).
    public mutating func startFling(landingAt target: Double, at time: Duration) {
        let distance = clamp(target) - offset
        guard abs(distance) >= 0.01 else { return }
        let perMillisecond = -distance * log(decelerationRate.perMillisecond) + (distance > 0 ? stopVelocity : -stopVelocity)
        startFling(velocity: perMillisecond * 1000, at: time)
    }

    /// Starts a fling at `velocity` (units per second) from where the list is, replacing any
    /// motion; a fling into an edge the list already touches stops at once.
    public mutating func startFling(velocity: Double, at time: Duration) {
        animation = nil
        let perMillisecond = velocity / 1000
        guard abs(perMillisecond) >= stopVelocity,
              !(perMillisecond < 0 && offset <= 0), !(perMillisecond > 0 && offset >= maxOffset) else {
            fling = nil
            phase = .idle
            return
        }
        fling = Fling(startOffset: offset, startTime: time, velocity: perMillisecond)
        phase = .decelerating
    }

    /// Scrolls so that `target` is the offset, gliding there with an ease-out when `animated`.
    public mutating func scroll(to target: Double, animated: Bool, at time: Duration) {
        fling = nil
        let target = clamp(target)
        guard animated, target != offset else {
            animation = nil
            offset = target
            phase = .idle
            return
        }
        animation = Animation(from: offset, to: target, startTime: time, duration: animationDuration)
        phase = .animating
    }

    /// Stops any motion where it is.
    public mutating func stop() {
        fling = nil
        animation = nil
        phase = .idle
    }

    /// Moves everything by `delta` at once, the offset, a fling's start and its landing: rows
    /// inserted or removed above what is on screen keep it in place without stopping a glide.
    public mutating func shift(by delta: Double) {
        offset += delta
        fling?.startOffset += delta
        if var animation {
            animation.from += delta
            animation.to += delta
            self.animation = animation
        }
    }

    // MARK: Time

    /// Advances the motion to `time` and returns the new offset.
    @discardableResult
    public mutating func tick(at time: Duration) -> Double {
        if let fling {
            let elapsed = max(0, Self.milliseconds(time - fling.startTime))
            let decay = Self.power(decelerationRate.perMillisecond, elapsed)
            let position = fling.startOffset + fling.velocity * (decay - 1) / log(decelerationRate.perMillisecond)
            let velocity = fling.velocity * decay
            offset = clamp(position)
            if abs(velocity) < stopVelocity || offset != position {
                self.fling = nil
                phase = .idle
            }
        } else if let animation {
            let progress = min(1, Self.milliseconds(time - animation.startTime) / Self.milliseconds(animation.duration))
            // Ease-out cubic: fast at first, settling gently.
            let eased = 1 - Self.power(1 - progress, 3)
            offset = clamp(animation.from + (animation.to - animation.from) * eased)
            if progress >= 1 {
                self.animation = nil
                phase = .idle
            }
        }
        return offset
    }

    /// Whether the offset will change on the next tick.
    public var isMoving: Bool { fling != nil || animation != nil }

    /// The current velocity in units per second at `time` (0 when not gliding).
    public func velocity(at time: Duration) -> Double {
        guard let fling else { return 0 }
        let elapsed = max(0, Self.milliseconds(time - fling.startTime))
        return fling.velocity * Self.power(decelerationRate.perMillisecond, elapsed) * 1000
    }

    /// Where the motion in progress will come to rest: a fling's landing (clamped to the
    /// content), an animation's target, or the offset itself.
    /// - Complexity: O(1), in closed form.
    public var predictedLanding: Double {
        if let fling {
            return clamp(fling.startOffset - fling.velocity / log(decelerationRate.perMillisecond))
        }
        if let animation { return animation.to }
        return offset
    }

    /// When a fling will drop below ``stopVelocity``, or `nil` when none is in progress.
    public var predictedStopTime: Duration? {
        guard let fling else { return nil }
        let milliseconds = log(stopVelocity / abs(fling.velocity)) / log(decelerationRate.perMillisecond)
        return fling.startTime + .microseconds(Int64(max(0, milliseconds) * 1000))
    }

    /// When the glide will have slowed to `speed` (units per second), or `nil` if it is slower
    /// already or none is in progress: from then on, a reader can read the rows it moves.
    /// - Complexity: O(1), in closed form.
    public func predictedTime(slowingTo speed: Double) -> Duration? {
        guard let fling, abs(fling.velocity) * 1000 > speed, speed > 0 else { return nil }
        // |v₀| · rᵗ = speed  ⇒  t = ln(speed / |v₀|) / ln r.
        let milliseconds = log(speed / 1000 / abs(fling.velocity)) / log(decelerationRate.perMillisecond)
        return fling.startTime + .microseconds(Int64(milliseconds * 1000))
    }

    /// When the glide will pass `target` (an offset between here and the landing), or `nil` if
    /// it never does: how long a row in the glide's path has before it is on screen.
    public func predictedTime(reaching target: Double) -> Duration? {
        guard let fling else { return nil }
        let distance = target - fling.startOffset
        let total = -fling.velocity / log(decelerationRate.perMillisecond)
        guard distance / total >= 0, abs(distance) < abs(total) else { return nil }
        // startOffset + total · (1 − rᵗ) = target  ⇒  rᵗ = 1 − distance / total.
        let milliseconds = log(1 - distance / total) / log(decelerationRate.perMillisecond)
        return fling.startTime + .microseconds(Int64(milliseconds * 1000))
    }

    private func clamp(_ value: Double) -> Double {
        min(max(value, 0), maxOffset)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    static func power(_ base: Double, _ exponent: Double) -> Double {
        exp(log(base) * exponent)
    }
}
