@testable import ContentLoading
import SeededRandom
import Testing

typealias Slot = ContentSlot<TestRequest, String>

@MainActor
@Suite struct ContentSlotTests {
    /// Waits until commands are performed and nothing moves by itself.
    private func settle(_ front: ContentLoader<TestRequest, String>, _ loader: ControlledLoader) async {
        for _ in 0..<100_000 {
            let running = await front.pipeline.runningCounts
            if !front.hasPendingCommands, running.processing == 0, running.loads == loader.inFlight.count { return }
            await Task.yield()
        }
        Issue.record("the pipeline never settled")
    }

    private func make(
        loads: Int = 6, cache: MemoryCache<TestRequest, String> = MemoryCache()
    ) -> (ContentLoader<TestRequest, String>, ControlledLoader) {
        let (pipeline, loader) = makePipeline(loads: loads, cache: cache)
        return (ContentLoader(pipeline: pipeline), loader)
    }

    @Test func showsAPlaceholderThenTheValueAtTheNextFrame() async {
        let (front, loader) = make()
        let slot = front.makeSlot()
        var changes: [String] = []
        slot.onChange = { changes.append($0.value ?? "placeholder") }
        slot.bind(TestRequest(url: "u"))
        #expect(slot.state.request == TestRequest(url: "u"))
        #expect(slot.state.value == nil)
        #expect(await loader.events.next() == .started("u"))
        loader.complete("u")
        var pending = front.deliveriesPending.makeAsyncIterator()
        _ = await pending.next()
        #expect(slot.state.value == nil, "values wait for the frame tick")
        #expect(front.deliverPending() == 1)
        #expect(slot.state.value == "u@1")
        #expect(changes == ["placeholder", "u@1"])
    }

    @Test func recordsEachPhaseOfARequestInOrder() async throws {
        let (front, loader) = make()
        var recorded: [(TestRequest, RequestTimings)] = []
        front.timingsObserver = { recorded.append(($0, $1)) }
        let slot = front.makeSlot()
        slot.bind(TestRequest(url: "u"))
        #expect(await loader.events.next() == .started("u"))
        loader.complete("u")
        var pending = front.deliveriesPending.makeAsyncIterator()
        _ = await pending.next()
        front.deliverPending()
        try #require(recorded.count == 1)
        let (request, timings) = recorded[0]
        #expect(request == TestRequest(url: "u"))
        let phases = [timings.queued, timings.loadStarted, timings.loaded, timings.processed, timings.delivered]
        let instants = phases.compactMap { $0 }
        #expect(instants.count == 5, "every phase is recorded")
        #expect(instants == instants.sorted(), "phases are recorded in order")
        #expect(front.pipeline.metrics.completed == 1)
        #expect(front.pipeline.metrics.bytesLoaded == 1)
    }

    @Test func rebindingGoesStraightToTheNewPlaceholder() async {
        let (front, loader) = make()
        let slot = front.makeSlot()
        var changes: [String] = []
        slot.onChange = { state in
            switch state {
            case .empty: changes.append("empty")
            case .loading(let request): changes.append("loading \(request.url)")
            case .loaded(let request, _): changes.append("loaded \(request.url)")
            case .failed(let request, _): changes.append("failed \(request.url)")
            }
        }
        slot.bind(TestRequest(url: "a"))
        slot.bind(TestRequest(url: "b"))
        slot.unbind()
        #expect(changes == ["loading a", "loading b", "empty"])
        await settle(front, loader)
        #expect(loader.inFlight.isEmpty, "both loads were cancelled")
    }

    @Test func deliversNothingToAReboundSlot() async {
        let (front, loader) = make()
        let slot = front.makeSlot()
        slot.bind(TestRequest(url: "old"))
        #expect(await loader.events.next() == .started("old"))
        // The old load finishes, but the row is reused before the frame tick.
        loader.complete("old")
        var pending = front.deliveriesPending.makeAsyncIterator()
        _ = await pending.next()
        slot.bind(TestRequest(url: "new"))
        #expect(front.deliverPending() == 0)
        #expect(slot.state.request == TestRequest(url: "new"))
        #expect(slot.state.value == nil)
    }

    @Test func unbindingCancelsTheWork() async {
        let (front, loader) = make()
        let slot = front.makeSlot()
        slot.bind(TestRequest(url: "u"))
        #expect(await loader.events.next() == .started("u"))
        slot.unbind()
        #expect(await loader.events.next() == .cancelled("u"))
        if case .empty = slot.state {} else { Issue.record("an unbound slot shows \(slot.state)") }
    }

    @Test func aCachedValueShowsAtOnceWithoutAPlaceholder() async {
        let (front, loader) = make()
        let first = front.makeSlot()
        first.bind(TestRequest(url: "u"))
        #expect(await loader.events.next() == .started("u"))
        loader.complete("u")
        var pending = front.deliveriesPending.makeAsyncIterator()
        _ = await pending.next()
        front.deliverPending()
        let second = front.makeSlot()
        second.bind(TestRequest(url: "u"))
        #expect(second.state.value == "u@1")
        #expect(loader.log == [.started("u")])
    }

    @Test func aSlotJoinsAPrefetchUnderWay() async {
        let (front, loader) = make()
        front.startPrefetching([TestRequest(url: "u")])
        #expect(await loader.events.next() == .started("u"))
        let slot = front.makeSlot()
        slot.bind(TestRequest(url: "u"))
        front.stopPrefetching([TestRequest(url: "u")])
        loader.complete("u")
        var pending = front.deliveriesPending.makeAsyncIterator()
        _ = await pending.next()
        #expect(front.deliverPending() == 1)
        #expect(slot.state.value == "u@1")
        #expect(loader.log == [.started("u")])
        #expect(front.pipeline.metrics.coalesced == 1)
    }

    @Test func aSlotBindingRaisesAPrefetchAheadOfOtherWork() async {
        let (front, loader) = make(loads: 1)
        let busy = front.makeSlot()
        busy.bind(TestRequest(url: "running"))
        #expect(await loader.events.next() == .started("running"))
        front.startPrefetching([TestRequest(url: "ahead")])
        let other = front.makeSlot()
        other.bind(TestRequest(url: "other"))
        let slot = front.makeSlot()
        slot.bind(TestRequest(url: "ahead"))
        await settle(front, loader)
        loader.complete("running")
        #expect(await loader.events.next() == .started("ahead"))
    }

    /// Random binds, rebinds, unbinds, prefetches, out-of-order completions and failures, and
    /// frame ticks: every value a slot shows must be the value of the request it is bound to.
    @Test func everyDeliveredValueMatchesItsSlotsCurrentRequest() async {
        let seed = randomizedTestSeed()
        print("ContentSlot fuzz: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        // A small cache, so that most binds wait for their value instead of taking it at once.
        let (front, loader) = make(loads: 3, cache: MemoryCache(limits: .init(totalCost: 100, count: 3)))
        let slots = (0..<8).map { _ in front.makeSlot() }
        let urls = (0..<16).map { "u\($0)" }
        func randomRequest() -> TestRequest {
            TestRequest(url: urls.randomElement(using: &random)!, size: Int.random(in: 1...2, using: &random))
        }
        var delivered = 0
        for step in 0..<3_000 {
            let slot = slots.randomElement(using: &random)!
            // Frame ticks come now and then, so values wait in the mailbox while rows are reused.
            if Int.random(in: 0..<4, using: &random) == 0 { delivered += front.deliverPending() }
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1, 2: slot.bind(randomRequest(), priority: LoadPriority.allCases.randomElement(using: &random)!)
            case 3: slot.unbind()
            case 4: slot.setPriority(LoadPriority.allCases.randomElement(using: &random)!)
            case 5: front.startPrefetching([randomRequest()])
            case 6: front.stopPrefetching([randomRequest()])
            case 7, 8:
                if let url = loader.inFlight.randomElement(using: &random) { loader.complete(url) }
            default:
                if let url = loader.inFlight.randomElement(using: &random) { loader.fail(url) }
            }
            await settle(front, loader)
            for (index, slot) in slots.enumerated() {
                guard case let .loaded(request, value) = slot.state else { continue }
                if value != expectedValue(request) {
                    Issue.record("seed \(seed), step \(step): slot \(index) bound to \(request) shows \(value)")
                    return
                }
            }
        }
        #expect(delivered > 0, "seed \(seed): the fuzz never delivered a value")
    }
}
