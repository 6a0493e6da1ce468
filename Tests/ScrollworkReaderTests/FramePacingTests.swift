import Testing
@testable import ScrollworkReader

/// When the live reader's frames happen.
@Suite struct FramePacingTests {
    static let interval = Duration.microseconds(16_667)

    @Test func aFrameAskedForAtRestComesAtOnce() {
        var pacing = FramePacing(interval: Self.interval)
        // The first frame of all: the first screen is not held back a frame.
        #expect(pacing.nextFrame(at: .milliseconds(21)) == .milliseconds(21))
        pacing.fired(at: .milliseconds(21))
        // A key pressed long after the last frame is drawn at once.
        #expect(pacing.nextFrame(at: .milliseconds(500)) == .milliseconds(500))
    }

    @Test func framesInARowKeepTheCadenceWhateverTheirWork() {
        var pacing = FramePacing(interval: Self.interval)
        pacing.fired(at: .zero)
        // Asked for 4 ms into the last frame (its work done): due an interval after it began,
        // not an interval after the request.
        #expect(pacing.nextFrame(at: .milliseconds(4)) == Self.interval)
        pacing.fired(at: Self.interval)
        // A frame that ran long: the next one comes at once, never two in one interval.
        #expect(pacing.nextFrame(at: .milliseconds(40)) == .milliseconds(40))
        pacing.fired(at: .milliseconds(40))
        #expect(pacing.nextFrame(at: .milliseconds(41)) == .milliseconds(40) + Self.interval)
    }
}
