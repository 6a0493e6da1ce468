import ListViewport

/// A loading strategy acting in a ``SimulationWorld``: told of display events, of each frame's
/// ranges and of loads ending, it starts and cancels loads and puts values into views.
@MainActor
protocol SimulatedStrategy: AnyObject {
    /// `item` started displaying at `row` in `view`.
    func willDisplay(_ item: Int, row: Int, view: Int)
    /// `item` ended displaying; `view` was its view.
    func didEndDisplaying(_ item: Int, view: Int)
    /// A frame was laid out with `ranges`.
    func frame(_ ranges: ViewportRanges)
    /// Something the strategy waited for happened.
    func handle(_ event: SimulationWorld.Event)
    /// The frame tick: values that arrived since the last one go to their views.
    func deliverPending()
}

extension LoadingStrategy {
    /// How far the viewport's display and preload ranges reach for this strategy: the
    /// baselines see only UIKit's display events (rows on screen), Scrollwork its ranges.
    func rangeConfiguration(_ scrollwork: ViewportRanges.Configuration) -> ViewportRanges.Configuration {
        guard self != .scrollwork else { return scrollwork }
        var onScreen = scrollwork
        onScreen.display = .init(leading: 0, trailing: 0)
        onScreen.preload = .init(leading: 0, trailing: 0)
        onScreen.glideDisplayLead = .zero
        return onScreen
    }

    @MainActor
    func make(in world: SimulationWorld, configuration: ScrollSimulation.Configuration) -> any SimulatedStrategy {
        switch self {
        case .naive: NaiveLoading(world: world)
        case .lifoStack: QueuedLoading(world: world, width: 6, order: .lifo, cancelsOnEndDisplay: false, checksItem: true)
        case .pendingSet: PendingSetLoading(world: world, workers: 6, seed: configuration.latency.seed)
        case .opqueue4: QueuedLoading(world: world, width: 4, order: .fifo, cancelsOnEndDisplay: true, checksItem: false)
        case .loadWhenStopped: LoadWhenStopped(world: world, width: 6)
        case .scrollwork: ScrollworkLoading(world: world, configuration: configuration)
        }
    }
}
