@testable import ContentLoading
@testable import ViewportLoading
import ScrollworkTestSupport
import Synchronization
import Testing

/// `ContentLoader.apply(_:)`: a frame's plan reaches the loader as prefetches that stop,
/// change priority and start, in that order.
@MainActor
@Suite struct LoadPlanApplyTests {
    struct Request: ContentRequest {
        var key: String
        var dataKey: String { key }
    }

    struct Echo: ContentProcessing {
        func process(_ data: [UInt8], for request: Request, isCancelled: () -> Bool) throws -> String {
            String(decoding: data, as: UTF8.self)
        }
    }

    /// Loads in the order asked, each at once except "blocker", which waits for the gate.
    final class GateLoader: DataLoading {
        let loaded = Mutex<[String]>([])
        let started: AsyncStream<String>
        private let startedSink: AsyncStream<String>.Continuation
        let gate: AsyncStream<Void>
        let opener: AsyncStream<Void>.Continuation

        init() {
            (started, startedSink) = AsyncStream<String>.makeStream()
            (gate, opener) = AsyncStream<Void>.makeStream()
        }

        func loadData(for key: String) async throws -> [UInt8] {
            loaded.withLock { $0.append(key) }
            startedSink.yield(key)
            if key == "blocker" {
                for await _ in gate { break }
            }
            return Array(key.utf8)
        }
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func stopsReprioritizesAndStartsPrefetches() async {
        let transfer = GateLoader()
        let pipeline = ContentPipeline(loader: transfer, processor: Echo(), memoryCache: nil,
                                       configuration: .init(maxConcurrentLoads: 1))
        let loader = ContentLoader(pipeline: pipeline)
        // One load at a time, and the first one held: what follows waits in the queue.
        loader.startPrefetching([Request(key: "blocker")], priority: .visible)
        var started = transfer.started.makeAsyncIterator()
        #expect(await started.next() == "blocker")

        var first = LoadPlan<String>.Changes()
        first.start = [("a", .prefetch), ("b", .prefetch), ("c", .prefetch), ("none", .prefetch)]
        loader.apply(first.prefetches { $0 == "none" ? nil : Request(key: $0) })
        var second = LoadPlan<String>.Changes()
        second.stop = ["a"]
        second.reprioritize = [("b", .visible)]
        loader.apply(second.prefetches { Request(key: $0) })
        // Both plans are in the pipeline's hands before the first load lets go.
        await loader.commandsPerformed()

        transfer.opener.yield()
        await loader.settled()
        // "a" stopped before it started, "b" raised above "c" (newer, so first without it), and an item with nothing to load
        // asked for nothing.
        #expect(transfer.loaded.withLock { $0 } == ["blocker", "b", "c"])
        #expect(loader.metrics.cancelledBeforeStart == 1)
        #expect(loader.metrics.requests == 4)
    }
}
