import ContentLoading
import ListViewport
import SeededRandom

// The strategies apps ship, as ``LoadingStrategy`` defines them. They decode on a background
// queue with no limit, so a load's delay includes its decode; none has a cache.

/// A value that arrived, waiting for the next frame tick (the hop to the main queue).
private struct Arrival {
    let serial: Int
    let item: Int
    /// The view (or, for row-indexed strategies, the row) the strategy hands it to.
    let target: Int
}

extension SimulationWorld {
    /// Starts a load whose delay includes decoding it, as a baseline's background queue does.
    func startLoadAndDecode(_ item: Int) -> Int {
        startLoad(item, extra: latency.decodeTime(bytes: latency.size(item: item)))
    }
}

/// ``LoadingStrategy/naive``.
@MainActor
final class NaiveLoading: SimulatedStrategy {
    private let world: SimulationWorld
    private var viewOfLoad: [Int: Int] = [:]
    private var arrivals: [Arrival] = []

    init(world: SimulationWorld) { self.world = world }

    func willDisplay(_ item: Int, row: Int, view: Int) {
        viewOfLoad[world.startLoadAndDecode(item)] = view
    }

    func didEndDisplaying(_ item: Int, view: Int) {}
    func frame(_ ranges: ViewportRanges) {}

    func handle(_ event: SimulationWorld.Event) {
        guard case .loaded(let serial, let item) = event, let view = viewOfLoad.removeValue(forKey: serial) else { return }
        arrivals.append(Arrival(serial: serial, item: item, target: view))
    }

    func deliverPending() {
        // No check: the view that asked gets the value, whatever it shows now.
        for arrival in arrivals { world.show(RowContent(item: arrival.item, load: arrival.serial), in: arrival.target) }
        arrivals = []
    }
}

/// ``LoadingStrategy/lifoStack`` and ``LoadingStrategy/opqueue4``: a queue of a given width
/// and order over ContentLoading's ``LoadScheduler``.
@MainActor
final class QueuedLoading: SimulatedStrategy {
    private struct Request {
        let item: Int
        let view: Int
    }

    private let world: SimulationWorld
    private var scheduler: LoadScheduler<Int>
    private let cancelsOnEndDisplay: Bool
    private let checksItem: Bool
    private var requests: [Int: Request] = [:]
    private var requestOfView: [Int: Int] = [:]
    private var requestOfLoad: [Int: Int] = [:]
    private var loadOfRequest: [Int: Int] = [:]
    private var lastID = 0
    private var arrivals: [Arrival] = []

    init(world: SimulationWorld, width: Int, order: QueueOrder, cancelsOnEndDisplay: Bool, checksItem: Bool) {
        self.world = world
        scheduler = LoadScheduler(maxConcurrent: width, order: order)
        self.cancelsOnEndDisplay = cancelsOnEndDisplay
        self.checksItem = checksItem
    }

    func willDisplay(_ item: Int, row: Int, view: Int) {
        lastID += 1
        requests[lastID] = Request(item: item, view: view)
        requestOfView[view] = lastID
        scheduler.enqueue(lastID, priority: .visible)
        startWaiting()
    }

    func didEndDisplaying(_ item: Int, view: Int) {
        guard let id = requestOfView.removeValue(forKey: view), cancelsOnEndDisplay, requests[id] != nil else { return }
        if let serial = loadOfRequest.removeValue(forKey: id) {
            world.cancelLoad(serial)
            requestOfLoad[serial] = nil
        }
        scheduler.remove(id)
        requests[id] = nil
        startWaiting()
    }

    func frame(_ ranges: ViewportRanges) {}

    func handle(_ event: SimulationWorld.Event) {
        guard case .loaded(let serial, let item) = event, let id = requestOfLoad.removeValue(forKey: serial) else { return }
        scheduler.finish(id)
        loadOfRequest[id] = nil
        if let request = requests.removeValue(forKey: id) {
            arrivals.append(Arrival(serial: serial, item: item, target: request.view))
        }
        startWaiting()
    }

    func deliverPending() {
        for arrival in arrivals where !checksItem || world.views[arrival.target].item == arrival.item {
            world.show(RowContent(item: arrival.item, load: arrival.serial), in: arrival.target)
        }
        arrivals = []
    }

    private func startWaiting() {
        for id in scheduler.startNext() {
            let serial = world.startLoadAndDecode(requests[id]!.item)
            requestOfLoad[serial] = id
            loadOfRequest[id] = serial
        }
    }
}

/// ``LoadingStrategy/pendingSet``: rows by index, workers taking any pending row.
@MainActor
final class PendingSetLoading: SimulatedStrategy {
    private let world: SimulationWorld
    private let workers: Int
    private var random: SeededGenerator
    private var pending: [Int] = []
    private var rowOfItem: [Int: Int] = [:]
    private var rowOfLoad: [Int: Int] = [:]
    private var arrivals: [Arrival] = []

    init(world: SimulationWorld, workers: Int, seed: UInt64) {
        self.world = world
        self.workers = workers
        random = SeededGenerator(seed: seed)
    }

    func willDisplay(_ item: Int, row: Int, view: Int) {
        rowOfItem[item] = row
        if !pending.contains(row) { pending.append(row) }
        startWaiting()
    }

    func didEndDisplaying(_ item: Int, view: Int) {
        guard let row = rowOfItem.removeValue(forKey: item) else { return }
        pending.removeAll { $0 == row }
    }

    func frame(_ ranges: ViewportRanges) {}

    func handle(_ event: SimulationWorld.Event) {
        guard case .loaded(let serial, let item) = event, let row = rowOfLoad.removeValue(forKey: serial) else { return }
        arrivals.append(Arrival(serial: serial, item: item, target: row))
        startWaiting()
    }

    func deliverPending() {
        // The value goes to whatever item is at the row now.
        for arrival in arrivals where arrival.target < world.items.count {
            guard let view = world.view(of: world.items[arrival.target].id) else { continue }
            world.show(RowContent(item: arrival.item, load: arrival.serial), in: view)
        }
        arrivals = []
    }

    private func startWaiting() {
        while rowOfLoad.count < workers, !pending.isEmpty {
            let row = pending.remove(at: Int.random(in: pending.indices, using: &random))
            guard row < world.items.count else { continue }
            rowOfLoad[world.startLoadAndDecode(world.items[row].id)] = row
        }
    }
}

/// ``LoadingStrategy/loadWhenStopped``: the visible rows without content, once at rest.
@MainActor
final class LoadWhenStopped: SimulatedStrategy {
    private let world: SimulationWorld
    private var scheduler: LoadScheduler<Int>
    private var requested: Set<Int> = []
    private var itemOfLoad: [Int: Int] = [:]
    private var arrivals: [Arrival] = []

    init(world: SimulationWorld, width: Int) {
        self.world = world
        scheduler = LoadScheduler(maxConcurrent: width, order: .fifo)
    }

    func willDisplay(_ item: Int, row: Int, view: Int) {}
    func didEndDisplaying(_ item: Int, view: Int) {}

    func frame(_ ranges: ViewportRanges) {
        guard world.isAtRest else { return }
        for row in ranges.visible where row < world.items.count {
            let item = world.items[row].id
            guard !world.isFilled(item), requested.insert(item).inserted else { continue }
            scheduler.enqueue(item, priority: .visible)
        }
        startWaiting()
    }

    func handle(_ event: SimulationWorld.Event) {
        guard case .loaded(let serial, let item) = event, itemOfLoad.removeValue(forKey: serial) != nil else { return }
        scheduler.finish(item)
        requested.remove(item)
        arrivals.append(Arrival(serial: serial, item: item, target: item))
        startWaiting()
    }

    func deliverPending() {
        for arrival in arrivals {
            guard let view = world.view(of: arrival.item) else { continue }
            world.show(RowContent(item: arrival.item, load: arrival.serial), in: view)
        }
        arrivals = []
    }

    private func startWaiting() {
        for item in scheduler.startNext() { itemOfLoad[world.startLoadAndDecode(item)] = item }
    }
}
