import ContentLoading
import Testing

/// `LoaderFront`: the consumers of slots and prefetches, the commands they emit, and which
/// arrivals reach a slot.
@Suite struct LoaderFrontTests {
    typealias Front = LoaderFront<TestRequest, String, Int>

    /// A command as text, with its consumer named by the order of first appearance.
    private struct Transcript {
        var names: [ContentConsumerID: String] = [:]

        mutating func name(_ consumer: ContentConsumerID) -> String {
            if let name = names[consumer] { return name }
            let name = "c\(names.count)"
            names[consumer] = name
            return name
        }

        mutating func callAsFunction(_ commands: [ConsumerCommand<TestRequest>]) -> [String] {
            commands.map { command in
                switch command {
                case let .request(request, priority, consumer): "request \(request) \(priority) \(name(consumer))"
                case let .setPriority(request, priority, consumer): "setPriority \(request) \(priority) \(name(consumer))"
                case let .moveToFront(request, consumer): "moveToFront \(request) \(name(consumer))"
                case let .cancel(request, consumer): "cancel \(request) \(name(consumer))"
                }
            }
        }
    }

    /// The consumer of the request the last command batch asked for.
    private func consumer(of commands: [ConsumerCommand<TestRequest>]) -> ContentConsumerID? {
        commands.lazy.compactMap { if case let .request(_, _, consumer) = $0 { consumer } else { nil } }.last
    }

    @Test func aResultForABindingThatEndedIsDroppedAfterARebind() throws {
        var front = Front(memoryCache: nil)
        _ = front.bind(0, to: TestRequest(url: "old"), priority: .visible)
        let old = try #require(consumer(of: front.takeCommands()))
        _ = front.bind(0, to: TestRequest(url: "new"), priority: .visible)
        let new = try #require(consumer(of: front.takeCommands()))
        let stale = front.accept(from: old)
        #expect(stale == nil, "the old binding's result is stale")
        let accepted = front.accept(from: new)
        #expect(accepted?.slot == 0 && accepted?.request == TestRequest(url: "new"))
        let again = front.accept(from: new)
        #expect(again == nil, "a binding is answered once")
        #expect(front.request(of: 0) == nil)
    }

    @Test func rebindingCancelsTheOldBindingBeforeAskingForTheNew() {
        var front = Front(memoryCache: nil)
        var transcript = Transcript()
        _ = front.bind(0, to: TestRequest(url: "a"), priority: .visible)
        _ = front.bind(0, to: TestRequest(url: "b"), priority: .display)
        front.unbind(0)
        front.unbind(0)
        #expect(transcript(front.takeCommands()) == [
            "request a@1 visible c0", "cancel a@1 c0", "request b@1 display c1", "cancel b@1 c1",
        ])
        #expect(!front.hasCommands)
    }

    @Test func bindingASlotToItsOwnRequestRenewsTheBinding() {
        var front = Front(memoryCache: nil)
        var transcript = Transcript()
        _ = front.bind(0, to: TestRequest(url: "a"), priority: .background)
        guard case .renewed = front.bind(0, to: TestRequest(url: "a"), priority: .visible) else {
            Issue.record("a slot bound again to its request makes a new binding")
            return
        }
        #expect(transcript(front.takeCommands()) == [
            "request a@1 background c0", "setPriority a@1 visible c0", "moveToFront a@1 c0",
        ])
    }

    @Test func aCachedValueBindsAtOnceAndAsksForNothing() {
        let cache = MemoryCache<TestRequest, String>()
        cache.insert("a@1", for: TestRequest(url: "a"), cost: 1)
        var front = Front(memoryCache: cache)
        guard case .cached("a@1") = front.bind(0, to: TestRequest(url: "a"), priority: .visible) else {
            Issue.record("a cached value is not taken at once")
            return
        }
        front.startPrefetching([TestRequest(url: "a")], priority: .prefetch)
        #expect(!front.hasCommands)
        #expect(front.request(of: 0) == nil)
    }

    @Test func aPrefetchArrivalClearsThePrefetchAndReachesNoSlot() throws {
        var front = Front(memoryCache: nil)
        var transcript = Transcript()
        front.startPrefetching([TestRequest(url: "a")], priority: .prefetch)
        front.startPrefetching([TestRequest(url: "a")], priority: .visible)
        let first = front.takeCommands()
        #expect(transcript(first) == ["request a@1 prefetch c0"], "a request is prefetched once")
        let arrival = front.accept(from: try #require(consumer(of: first)))
        #expect(arrival == nil)
        // The prefetch is over: stopping it does nothing, starting it again asks anew.
        front.stopPrefetching([TestRequest(url: "a")])
        front.setPrefetchPriority(.visible, for: [TestRequest(url: "a")])
        front.startPrefetching([TestRequest(url: "a")], priority: .display)
        #expect(transcript(front.takeCommands()) == ["request a@1 display c1"])
    }

    @Test func aPlanStopsThenChangesPrioritiesThenStarts() {
        var front = Front(memoryCache: nil)
        var transcript = Transcript()
        front.apply(PrefetchChanges(start: [(TestRequest(url: "a"), .prefetch), (TestRequest(url: "b"), .prefetch)]))
        _ = front.takeCommands().map { transcript([$0]) }
        front.apply(PrefetchChanges(
            stop: [TestRequest(url: "a"), TestRequest(url: "never")],
            reprioritize: [(TestRequest(url: "b"), .visible), (TestRequest(url: "never"), .visible)],
            start: [(TestRequest(url: "c"), .display), (TestRequest(url: "b"), .display)]))
        #expect(transcript(front.takeCommands()) == [
            "cancel a@1 c0", "setPriority b@1 visible c1", "request c@1 display c2",
        ])
    }

    @Test func aSlotAndAPrefetchOfOneRequestAreSeparateConsumers() throws {
        var front = Front(memoryCache: nil)
        front.startPrefetching([TestRequest(url: "a")], priority: .prefetch)
        let prefetch = try #require(consumer(of: front.takeCommands()))
        _ = front.bind(7, to: TestRequest(url: "a"), priority: .visible)
        let slot = try #require(consumer(of: front.takeCommands()))
        front.stopPrefetching([TestRequest(url: "a")])
        let stopped = front.accept(from: prefetch)
        #expect(stopped == nil)
        let bound = front.accept(from: slot)
        #expect(bound?.slot == 7, "stopping the prefetch leaves the slot bound")
    }
}
