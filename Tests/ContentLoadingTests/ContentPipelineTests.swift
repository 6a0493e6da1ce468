import ContentLoading
import Foundation
import ScrollworkTestSupport
import Testing

typealias Pipeline = ContentPipeline<TestRequest, String>

func makePipeline(loads: Int = 6, cache: MemoryCache<TestRequest, String>? = MemoryCache()) -> (Pipeline, ControlledLoader) {
    let loader = ControlledLoader()
    let pipeline = Pipeline(
        loader: loader, processor: EchoProcessor(), memoryCache: cache,
        configuration: .init(maxConcurrentLoads: loads, maxConcurrentProcessing: 2))
    return (pipeline, loader)
}

@Suite struct ContentPipelineTests {
    private let deliveries = Deliveries()
    /// Every request a test made, with its consumer.
    private let asked = Recorder<(TestRequest, ContentConsumerID)>()

    private func request(
        _ pipeline: Pipeline, _ request: TestRequest, _ priority: LoadPriority = .visible
    ) async -> ContentConsumerID {
        let consumer = ContentConsumerID()
        asked.record((request, consumer))
        await pipeline.request(request, priority: priority, consumer: consumer, deliver: deliveries.callback(for: consumer))
        return consumer
    }

    /// Leaves `pipeline` with nothing to do for the test: every consumer it made leaves, so a
    /// load still waiting for the test ends, and with it the task that waits on it (which
    /// would otherwise keep the pipeline alive to the end of the process).
    private func leaveEverything(_ pipeline: Pipeline) async {
        for (request, consumer) in asked.all { await pipeline.cancel(request, consumer: consumer) }
        await pipeline.settled()
    }

    @Test func equalRequestsShareOneLoadAndEachConsumerGetsTheValue() async {
        let (pipeline, loader) = makePipeline()
        let a = await request(pipeline, TestRequest(url: "u"))
        let b = await request(pipeline, TestRequest(url: "u"), .prefetch)
        #expect(await loader.events.next() == .started("u"))
        loader.complete("u")
        await deliveries.wait(for: 2)
        #expect(deliveries.values == [a: "u@1", b: "u@1"])
        #expect(loader.log == [.started("u")])
        #expect(pipeline.metrics.coalesced == 1)
    }

    @Test func requestsForTheSameDataShareItsLoad() async {
        let (pipeline, loader) = makePipeline()
        let small = await request(pipeline, TestRequest(url: "u", size: 64))
        let large = await request(pipeline, TestRequest(url: "u", size: 256))
        #expect(await loader.events.next() == .started("u"))
        loader.complete("u")
        await deliveries.wait(for: 2)
        #expect(deliveries.values == [small: "u@64", large: "u@256"])
        #expect(loader.log == [.started("u")])
    }

    @Test func oneConsumerCancellingKeepsTheOthersWork() async {
        let (pipeline, loader) = makePipeline()
        let leaving = await request(pipeline, TestRequest(url: "u"))
        let staying = await request(pipeline, TestRequest(url: "u"))
        #expect(await loader.events.next() == .started("u"))
        await pipeline.cancel(TestRequest(url: "u"), consumer: leaving)
        loader.complete("u")
        await deliveries.wait(for: 1)
        await pipeline.settled()
        #expect(deliveries.values == [staying: "u@1"])
        #expect(deliveries.count == 1)
        #expect(loader.log == [.started("u")])
    }

    @Test func theLastConsumerLeavingCancelsTheTransfer() async {
        let (pipeline, loader) = makePipeline()
        let a = await request(pipeline, TestRequest(url: "u"))
        let b = await request(pipeline, TestRequest(url: "u"))
        #expect(await loader.events.next() == .started("u"))
        await pipeline.cancel(TestRequest(url: "u"), consumer: a)
        await pipeline.cancel(TestRequest(url: "u"), consumer: b)
        #expect(await loader.events.next() == .cancelled("u"))
        await pipeline.settled()
        #expect(deliveries.count == 0)
        #expect(pipeline.metrics.cancelledInFlight == 1)
        #expect(await pipeline.runningCounts.loads == 0)
    }

    @Test func cancelledWorkNeverStarts() async {
        let (pipeline, loader) = makePipeline(loads: 1)
        _ = await request(pipeline, TestRequest(url: "first"))
        let waiting = await request(pipeline, TestRequest(url: "second"))
        #expect(await loader.events.next() == .started("first"))
        await pipeline.cancel(TestRequest(url: "second"), consumer: waiting)
        loader.complete("first")
        await deliveries.wait(for: 1)
        await pipeline.settled()
        #expect(loader.log == [.started("first")])
        #expect(pipeline.metrics.cancelledBeforeStart == 1)
    }

    @Test func startsTheNewestOfTheHighestTierFirst() async {
        let (pipeline, loader) = makePipeline(loads: 1)
        _ = await request(pipeline, TestRequest(url: "running"))
        #expect(await loader.events.next() == .started("running"))
        _ = await request(pipeline, TestRequest(url: "prefetch"), .prefetch)
        _ = await request(pipeline, TestRequest(url: "visible-old"))
        _ = await request(pipeline, TestRequest(url: "visible-new"))
        for (finished, next) in [("running", "visible-new"), ("visible-new", "visible-old"), ("visible-old", "prefetch")] {
            loader.complete(finished)
            #expect(await loader.events.next() == .started(next))
        }
        await leaveEverything(pipeline)
    }

    @Test func sharedWorkRunsAtTheHighestPriorityOfItsConsumers() async {
        let (pipeline, loader) = makePipeline(loads: 1)
        _ = await request(pipeline, TestRequest(url: "running"))
        #expect(await loader.events.next() == .started("running"))
        _ = await request(pipeline, TestRequest(url: "shared"), .prefetch)
        _ = await request(pipeline, TestRequest(url: "other"))
        _ = await request(pipeline, TestRequest(url: "shared"), .visible)
        loader.complete("running")
        #expect(await loader.events.next() == .started("shared"))
        await leaveEverything(pipeline)
    }

    @Test func sharedWorkFallsBackWhenItsMostUrgentConsumerLeaves() async {
        let (pipeline, loader) = makePipeline(loads: 1)
        _ = await request(pipeline, TestRequest(url: "running"))
        #expect(await loader.events.next() == .started("running"))
        _ = await request(pipeline, TestRequest(url: "other"))
        _ = await request(pipeline, TestRequest(url: "shared"), .prefetch)
        let viewer = await request(pipeline, TestRequest(url: "shared"), .visible)
        await pipeline.cancel(TestRequest(url: "shared"), consumer: viewer)
        loader.complete("running")
        #expect(await loader.events.next() == .started("other"))
        await leaveEverything(pipeline)
    }

    @Test func raisingAPriorityMovesWaitingWorkAhead() async {
        let (pipeline, loader) = makePipeline(loads: 1)
        _ = await request(pipeline, TestRequest(url: "running"))
        #expect(await loader.events.next() == .started("running"))
        let later = await request(pipeline, TestRequest(url: "later"), .prefetch)
        _ = await request(pipeline, TestRequest(url: "visible"))
        await pipeline.setPriority(.visible, of: TestRequest(url: "later"), consumer: later)
        loader.complete("running")
        #expect(await loader.events.next() == .started("later"))
        await leaveEverything(pipeline)
    }

    @Test func concurrencyLimitHolds() async {
        let (pipeline, loader) = makePipeline(loads: 2)
        for index in 0..<6 { _ = await request(pipeline, TestRequest(url: "u\(index)")) }
        var started = 0
        for _ in 0..<2 {
            if case .started = await loader.events.next() { started += 1 }
        }
        while let oldest = loader.inFlight.first {
            #expect(loader.inFlight.count <= 2)
            #expect(await pipeline.runningCounts.loads <= 2)
            loader.complete(oldest)
            // Each completion frees one place, for the next load while any waits.
            if started < 6, case .started = await loader.events.next() { started += 1 }
        }
        await deliveries.wait(for: 6)
        #expect(started == 6)
        #expect(pipeline.metrics.loadsStarted == 6)
    }

    @Test func theMemoryCacheServesRepeatRequests() async {
        let (pipeline, loader) = makePipeline()
        _ = await request(pipeline, TestRequest(url: "u"))
        #expect(await loader.events.next() == .started("u"))
        loader.complete("u")
        await deliveries.wait(for: 1)
        let again = await request(pipeline, TestRequest(url: "u"))
        #expect(deliveries.values[again] == "u@1")
        #expect(loader.log == [.started("u")])
        #expect(pipeline.metrics.memoryCacheHits == 1)
        #expect(pipeline.cachedValue(for: TestRequest(url: "u")) == "u@1")
    }

    @Test func aFailedLoadReachesEveryConsumer() async {
        let (pipeline, loader) = makePipeline()
        _ = await request(pipeline, TestRequest(url: "u"))
        _ = await request(pipeline, TestRequest(url: "u", size: 2))
        #expect(await loader.events.next() == .started("u"))
        loader.fail("u")
        await deliveries.wait(for: 2)
        #expect(deliveries.values.isEmpty)
        #expect(pipeline.metrics.failed == 1)
        #expect(pipeline.cachedValue(for: TestRequest(url: "u")) == nil)
    }

    @Test func processingRunsOffTheCooperativePoolOnAtMostItsLimitOfThreads() async {
        let processor = ThreadRecordingProcessor()
        let pipeline = ContentPipeline<TestRequest, String>(
            loader: ImmediateLoader(), processor: processor, configuration: .init(maxConcurrentProcessing: 2))
        for index in 0..<8 { _ = await request(pipeline, TestRequest(url: "u\(index)")) }
        await pipeline.settled()
        #expect(deliveries.count == 8)
        let places = processor.places
        #expect(places.count == 8)
        #expect(places.allSatisfy { !$0.inTask }, "no job runs inside a Swift task")
        #expect(Set(places.map(\.thread)).count <= 2, "\(places)")
    }

    @Test func cancellationReachesARunningJobWhichKeepsItsPlaceUntilItStops() async {
        let processor = GatedProcessor()
        let pipeline = ContentPipeline<TestRequest, String>(
            loader: ImmediateLoader(), processor: processor, configuration: .init(maxConcurrentProcessing: 1))
        let leaving = await request(pipeline, TestRequest(url: "a"))
        var started = processor.started.makeAsyncIterator()
        await started.next()
        await pipeline.cancel(TestRequest(url: "a"), consumer: leaving)
        _ = await request(pipeline, TestRequest(url: "b"))
        #expect(await pipeline.runningCounts.processing == 1, "b waits until a has really stopped")
        processor.release()
        await started.next()
        processor.release()
        await pipeline.settled()
        #expect(processor.cancellationsSeen == [true, false])
        #expect(deliveries.count == 1)
        #expect(pipeline.metrics.cancelledInFlight == 1)
    }

    @Test func timingsComeFromTheInjectedClock() async throws {
        let clock = ManualClock()
        let loader = ControlledLoader()
        let (recorded, sink) = AsyncStream<RequestTimings>.makeStream()
        let pipeline = Pipeline(loader: loader, processor: EchoProcessor(), clock: clock)
        clock.advance(by: .milliseconds(10))
        await pipeline.request(TestRequest(url: "u"), priority: .visible, consumer: ContentConsumerID()) { _, timings in
            sink.yield(timings)
        }
        #expect(await loader.events.next() == .started("u"))
        clock.advance(by: .milliseconds(120))
        loader.complete("u")
        var delivered = recorded.makeAsyncIterator()
        let timings = try #require(await delivered.next())
        #expect(timings.queued == .milliseconds(10))
        #expect(timings.loadStarted == .milliseconds(10))
        #expect(timings.loaded == .milliseconds(130))
        #expect(timings.processed == .milliseconds(130))
    }

    /// The core's wake-up sleeps on the pipeline's clock: a load on screen still running
    /// after the hedge delay is asked for again, the first answer is delivered once, and the
    /// other load is cancelled.
    @Test func aSlowLoadOnScreenIsHedgedOnThePipelinesClock() async throws {
        let clock = ManualClock()
        let loader = ControlledLoader()
        let configuration = LoadingCore<TestRequest, String>.Configuration(hedging: .fixed(.milliseconds(300)))
        let pipeline = Pipeline(loader: loader, processor: EchoProcessor(), configuration: configuration, clock: clock)
        let consumer = await request(pipeline, TestRequest(url: "u"))
        var events = loader.events.makeAsyncIterator()
        #expect(await events.next() == .started("u"))
        // The wake-up's sleep moves the manual clock to 300 ms: the hedge starts.
        #expect(await events.next() == .started("u"))
        #expect(clock.now.offset == .milliseconds(300))
        loader.complete("u")
        #expect(await events.next() == .cancelled("u"))
        await deliveries.wait(for: 1)
        await pipeline.settled()
        #expect(deliveries.values == [consumer: "u@1"])
        #expect(pipeline.metrics.hedged == 1 && pipeline.metrics.hedgesWon == 0)
    }

    @Test func theDiskCacheServesDataAcrossPipelines() async throws {
        let scratch = ScratchDirectory("scrollwork-pipeline")
        let disk = DiskCache<String>(directory: scratch.path("cache"))
        let loader = ControlledLoader()
        let first = Pipeline(loader: loader, processor: EchoProcessor(), memoryCache: nil, diskCache: disk)
        _ = await request(first, TestRequest(url: "u"))
        #expect(await loader.events.next() == .started("u"))
        loader.complete("u")
        await deliveries.wait(for: 1)

        // A new launch: empty memory, same disk. The write above is queued before this read.
        let second = Pipeline(loader: loader, processor: EchoProcessor(), memoryCache: nil, diskCache: disk)
        let consumer = await request(second, TestRequest(url: "u", size: 2))
        await deliveries.wait(for: 2)
        #expect(deliveries.values[consumer] == "u@2")
        #expect(loader.log == [.started("u")])
        #expect(second.metrics.diskCacheHits == 1)
    }
}
