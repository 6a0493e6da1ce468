import ContentLoading
import ListDiff
import ListViewport

/// A discrete-event simulation, in virtual time, of a list scrolled by a ``ScrollTrace`` while
/// a ``LoadingStrategy`` loads its rows' content: what `scrollwork bench scroll` runs.
///
/// The list is the real ``ListViewport`` (geometry, scroll physics, ranges, landing
/// prediction, display events, updates applied a chunk per tick with the reader's place kept),
/// ticked at 60 Hz. Loads take the time a seeded ``LatencyModel`` draws; Scrollwork's loads go
/// through the real ``LoadingCore`` and ``LoaderFront``; the baselines through plain queues
/// (``LoadScheduler`` where they have one). Values reach views at the frame tick after they
/// arrive, as a hop to the main queue or ``ContentLoader/deliverPending()`` would.
///
/// A run is deterministic for a seed: every strategy sees the same trace and the same delay
/// for the k-th load of an item. It first rests for a warm-up (the first screen loads the same
/// way for everyone, and is not measured), then plays the trace, then runs until the list has
/// rested for ``Configuration/rest`` after its last input.
@MainActor
package enum ScrollSimulation {
    /// The simulated world's settings.
    package struct Configuration: Sendable {
        /// Delays and sizes of loads.
        package var latency: LatencyModel
        /// Scrollwork's ranges; the baselines see only the rows on screen.
        package var ranges = ViewportRanges.Configuration()
        /// Scrollwork's loads at once (ContentLoading's default).
        package var maxConcurrentLoads = 6
        /// Scrollwork's decodes at once: two cores.
        package var maxConcurrentProcessing = 2
        /// When Scrollwork hedges a load a row on screen waits for: ContentLoading's default
        /// hedging, after the 80th percentile of the last loads' times.
        package var hedging: LoadHedging? = LoadHedging()
        /// How many values Scrollwork's memory cache keeps.
        package var cacheCount = 2_000
        /// The time between frames.
        package var frame: Duration = .nanoseconds(16_666_667)
        /// How long the list rests before the trace starts, unmeasured.
        package var warmUp: Duration = .seconds(2)
        /// How long the trace goes on after the list comes to rest after its last input.
        package var rest: Duration = .seconds(3)

        /// The settings, with delays drawn from `seed`.
        package init(seed: UInt64) {
            latency = LatencyModel(seed: seed)
        }
    }

    /// Plays `trace` with `strategy` loading the content and returns the figures.
    package static func run(_ trace: ScrollTrace, strategy: LoadingStrategy, configuration: Configuration) async -> ScrollMetrics {
        let world = SimulationWorld(latency: configuration.latency, measuringFrom: configuration.warmUp)
        let loading = strategy.make(in: world, configuration: configuration)
        let host = SimulatedHost(world: world, strategy: loading, rowHeight: trace.rowHeight)
        let viewport = ListViewport<SimulatedRow>(host: host)
        host.viewport = viewport
        viewport.rangeConfiguration = strategy.rangeConfiguration(configuration.ranges)
        viewport.setViewportHeight(trace.viewportHeight)
        var recorder = ScrollMetricsRecorder(viewportHeight: trace.viewportHeight)

        var rows = (0..<trace.rowCount).map(SimulatedRow.init)
        var nextID = trace.rowCount
        viewport.submit(rows)
        await viewport.settled()

        var inputs = trace.inputs[...]
        var drag: (velocity: Double, until: Duration)?
        var tick = 0
        while true {
            let time = configuration.frame * tick
            tick += 1
            while let event = world.nextEvent(upTo: time) { loading.handle(event) }
            loading.deliverPending()

            if tick == 2 { viewport.scroll(toRow: trace.startRow, animated: false, at: time) }
            if let current = drag {
                if time < current.until {
                    viewport.drag(by: current.velocity * Self.seconds(configuration.frame))
                } else {
                    viewport.fling(velocity: 0, at: time)
                    drag = nil
                }
            }
            while let input = inputs.first, configuration.warmUp + input.at <= time {
                inputs.removeFirst()
                switch input.action {
                case let .drag(velocity, duration):
                    drag = (velocity, time + duration)
                    viewport.drag(by: velocity * Self.seconds(configuration.frame))
                case let .fling(velocity):
                    viewport.fling(velocity: velocity, at: time)
                case .touch:
                    viewport.drag(by: 0)
                case .scrollToTop:
                    viewport.scroll(toRow: 0, animated: true, at: time)
                case let .insertAbove(count):
                    rows.insert(contentsOf: (nextID..<nextID + count).map(SimulatedRow.init), at: 0)
                    nextID += count
                    viewport.submit(rows)
                    await viewport.settled()
                }
            }

            world.isAtRest = viewport.scroll.phase == .idle
            world.items = viewport.items
            viewport.tick(at: time)
            world.items = viewport.items
            world.isAtRest = viewport.scroll.phase == .idle

            if time >= configuration.warmUp {
                recorder.record(at: time, rows: host.lastVisible, isAtRest: viewport.scroll.phase != .decelerating
                                && viewport.scroll.phase != .animating && drag == nil,
                                isGliding: viewport.scroll.phase == .decelerating)
            }
            let settled = inputs.isEmpty && drag == nil && !viewport.scroll.isMoving && !viewport.needsTick
            if time >= configuration.warmUp,
               recorder.endsAfterRest(at: time, settled: settled, rest: configuration.rest, frame: configuration.frame) { break }
        }

        // Loads whose row is still wanted at the end are not wasted: the trace ended first.
        let stillWanted = Set(viewport.ranges.preload.map { viewport.items[$0].id })
        let wasted = world.completed.filter { serial, item in !world.shown.contains(serial) && !stillWanted.contains(item) }.count
        var metrics = recorder.metrics(wastedRatio: world.loads > 0 ? Double(wasted) / Double(world.loads) : 0,
                                       stale: world.stale, loads: world.loads, bytes: world.bytes)
        metrics.displays = world.displays
        metrics.peakConcurrentLoads = world.peakInFlight
        metrics.loadsStartedWhileMoving = world.loadsWhileMoving
        return metrics
    }

    static func seconds(_ duration: Duration) -> Double { LatencyModel.milliseconds(duration) / 1000 }
}

/// The viewport's host in a simulation: display events become views from the world's reuse
/// pool and calls to the strategy; each frame, the rows on screen are read for the figures.
@MainActor
final class SimulatedHost: ListViewportHost {
    typealias Item = SimulatedRow

    private let world: SimulationWorld
    private let strategy: any SimulatedStrategy
    private let rowHeight: Double
    weak var viewport: ListViewport<SimulatedRow>?
    /// The rows on screen in the last frame.
    private(set) var lastVisible: [ScrollMetricsRecorder.VisibleRow] = []

    init(world: SimulationWorld, strategy: any SimulatedStrategy, rowHeight: Double) {
        self.world = world
        self.strategy = strategy
        self.rowHeight = rowHeight
    }

    func estimatedHeight(of item: SimulatedRow) -> Double { rowHeight }
    func didApply(_ update: UpdateCoalescer<SoleSection, SimulatedRow>.Update) {
        // Display events for the new rows come next, and name rows of the new items.
        if let viewport { world.items = viewport.items }
    }

    func willDisplay(_ item: SimulatedRow, at row: Int) {
        strategy.willDisplay(item.id, row: row, view: world.display(item.id))
    }

    func didEndDisplaying(_ id: Int) {
        guard let view = world.view(of: id) else { return }
        strategy.didEndDisplaying(id, view: view)
        world.endDisplay(id)
    }


    func render(_ frame: ListViewport<SimulatedRow>.Frame) {
        if let viewport {
            world.items = viewport.items
            strategy.frame(viewport.ranges)
        }
        lastVisible = frame.rows.filter { !$0.isLeaving }.map {
            ScrollMetricsRecorder.VisibleRow(item: $0.item.id, top: $0.top, isFilled: world.drawnFilled($0.item.id))
        }
    }
}
