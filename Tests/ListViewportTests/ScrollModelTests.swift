import Foundation
import ListViewport
import Testing

@Suite struct ScrollModelTests {
    private func model(content: Double = 100_000, viewport: Double = 40, rate: ScrollModel.DecelerationRate = .normal) -> ScrollModel {
        var model = ScrollModel(decelerationRate: rate)
        model.setSizes(content: content, viewport: viewport)
        return model
    }

    /// Ticks at 60 Hz from `start` until the motion stops; returns the time it stopped.
    private func run(_ model: inout ScrollModel, from start: Duration) -> Duration {
        var time = start
        while model.isMoving {
            time += .microseconds(16_667)
            model.tick(at: time)
        }
        return time
    }

    @Test(arguments: [ScrollModel.DecelerationRate.normal, .fast], [300.0, 2_000, -1_500, 8_000])
    func aFlingLandsWherePredicted(rate: ScrollModel.DecelerationRate, velocity: Double) {
        var model = model(rate: rate)
        model.scroll(to: 50_000, animated: false, at: .zero)
        model.startFling(velocity: velocity, at: .zero)
        let predicted = model.predictedLanding
        let stopTime = model.predictedStopTime
        #expect(model.phase == .decelerating)
        let stopped = run(&model, from: .zero)
        #expect(model.phase == .idle)
        // It stops once slower than the stop velocity: within that velocity's remaining glide.
        let remaining = model.stopVelocity / -log(rate.perMillisecond)
        #expect(abs(model.offset - predicted) <= remaining + 1e-6, "landed \(model.offset), predicted \(predicted)")
        if let stopTime { #expect(abs(ScrollModelTests.ms(stopped - stopTime)) <= 17) }
    }

    @Test(arguments: [ScrollModel.DecelerationRate.normal, .fast], [5.0, -5, 40, -300, 2_000])
    func aFlingAimedAtAnOffsetComesToRestThere(rate: ScrollModel.DecelerationRate, distance: Double) {
        var model = model(rate: rate)
        model.scroll(to: 50_000, animated: false, at: .zero)
        model.startFling(landingAt: 50_000 + distance, at: .zero)
        #expect(model.phase == .decelerating)
        _ = run(&model, from: .zero)
        // It rests within what the stop velocity covers in one frame.
        #expect(abs(model.offset - (50_000 + distance)) <= model.stopVelocity * 17, "rested at \(model.offset)")
        // Already there: nothing moves.
        model.startFling(landingAt: model.offset, at: .seconds(100))
        #expect(!model.isMoving)
    }

    @Test func theNormalRateGlidesAboutFiveHundredTimesTheVelocityPerMillisecond() {
        var model = model()
        model.scroll(to: 10_000, animated: false, at: .zero)
        model.startFling(velocity: 1_000, at: .zero)  // 1 unit per millisecond
        #expect(abs(model.predictedLanding - (10_000 + 1 / -log(0.998))) < 1e-9)
    }

    @Test func aFlingStopsAtAnEdgeAndItsPredictionIsClamped() {
        var model = model(content: 1_000)
        model.scroll(to: 900, animated: false, at: .zero)
        model.startFling(velocity: 5_000, at: .zero)
        #expect(model.predictedLanding == model.maxOffset)
        _ = run(&model, from: .zero)
        #expect(model.offset == model.maxOffset)
        model.startFling(velocity: 5_000, at: .seconds(10))
        #expect(model.phase == .idle, "a fling into the edge it touches does nothing")
    }

    @Test func shiftingKeepsAFlingGoingAndMovesItsLanding() {
        var model = model()
        model.scroll(to: 5_000, animated: false, at: .zero)
        model.startFling(velocity: 3_000, at: .zero)
        model.tick(at: .milliseconds(100))
        let landing = model.predictedLanding
        let offset = model.offset
        model.shift(by: 120)
        #expect(model.offset == offset + 120)
        #expect(model.predictedLanding == landing + 120)
        #expect(model.phase == .decelerating)
        model.tick(at: .milliseconds(116))
        #expect(model.offset > offset + 120, "the glide goes on from the shifted place")
    }

    @Test func anInterruptedFlingIsPredictedAnew() {
        var model = model()
        model.scroll(to: 5_000, animated: false, at: .zero)
        model.startFling(velocity: 4_000, at: .zero)
        model.tick(at: .milliseconds(200))
        model.startFling(velocity: -1_000, at: .milliseconds(200))
        let predicted = model.predictedLanding
        #expect(predicted < model.offset)
        _ = run(&model, from: .milliseconds(200))
        #expect(abs(model.offset - predicted) < 3)
    }

    @Test func aProgrammaticScrollEasesToItsTarget() {
        var model = model()
        model.scroll(to: 400, animated: true, at: .zero)
        #expect(model.phase == .animating && model.predictedLanding == 400)
        model.tick(at: .milliseconds(125))
        #expect(model.offset > 200 && model.offset < 400, "ease-out: past halfway at half time")
        model.tick(at: .milliseconds(250))
        #expect(model.offset == 400 && model.phase == .idle)
    }

    @Test func predictsWhenTheGlidePassesAnOffset() throws {
        var model = model()
        model.startFling(velocity: 2_000, at: .zero)
        let time = try #require(model.predictedTime(reaching: 500))
        model.tick(at: time)
        #expect(abs(model.offset - 500) < 0.01)
        #expect(model.predictedTime(reaching: model.predictedLanding + 10) == nil)
        #expect(model.predictedTime(reaching: -10) == nil)
    }

    @Test func draggingFollowsAndIsClamped() {
        var model = model(content: 100)
        model.drag(by: 30)
        #expect(model.offset == 30 && model.phase == .dragging)
        model.drag(by: 100)
        #expect(model.offset == 60)
        model.endDrag(velocity: 0, at: .zero)
        #expect(model.phase == .idle)
    }

    static func ms(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    @Test func predictsWhenTheGlideSlowsToASpeed() {
        var model = ScrollModel()
        model.setSizes(content: 100_000, viewport: 800)
        model.startFling(velocity: 8_000, at: .seconds(1))
        let slow = model.predictedTime(slowingTo: 800)!
        #expect(abs(model.velocity(at: slow) - 800) < 0.01)
        #expect(model.predictedTime(slowingTo: 9_000) == nil, "slower already")
        model.stop()
        #expect(model.predictedTime(slowingTo: 800) == nil)
    }
}
