import HeapModule
import ListViewport

/// The world a simulated strategy acts in: the row views and their reuse, the simulated
/// network with its seeded delays, virtual time, and the counters behind the figures.
///
/// Strategies start and cancel loads here and put values into views here; the world counts
/// what they do (loads, bytes, stale values, loads that reached the screen) the same way for
/// all of them.
@MainActor
final class SimulationWorld {
    /// A row view: the item it is displaying (nil when in the reuse pool) and what it shows.
    struct View {
        var item: Int?
        var content: RowContent?
    }

    /// Something that happens at a moment of virtual time.
    enum Event {
        /// A load's last byte arrived.
        case loaded(serial: Int, item: Int)
        /// Work a strategy scheduled (a decode) ends.
        case timer(token: Int)
    }

    private struct Scheduled: Comparable {
        let time: Duration
        let sequence: Int
        let event: Event

        static func < (lhs: Scheduled, rhs: Scheduled) -> Bool {
            (lhs.time, lhs.sequence) < (rhs.time, rhs.sequence)
        }

        static func == (lhs: Scheduled, rhs: Scheduled) -> Bool { lhs.sequence == rhs.sequence }
    }

    /// A load in flight.
    struct Load {
        let item: Int
        let start: Duration
        let end: Duration
        let bytes: Int
    }

    let latency: LatencyModel
    /// Loads started before this moment (the warm-up) are not counted.
    let measuringFrom: Duration
    private(set) var now: Duration = .zero
    /// The items of the list, as the viewport shows them.
    var items: [SimulatedRow] = []
    /// Whether the list is at rest (no glide, no drag, no animation).
    var isAtRest = true

    private(set) var views: [View] = []
    private(set) var viewOfItem: [Int: Int] = [:]
    private var pool = ReusePool<Int, Int>()
    private var queue = Heap<Scheduled>()
    private var sequence = 0
    private var inFlight: [Int: Load] = [:]
    private var attempts: [Int: Int] = [:]
    private var lastSerial = 0

    private(set) var loads = 0
    private(set) var bytes = 0
    private(set) var stale = 0
    private(set) var displays = 0
    private(set) var peakInFlight = 0
    private(set) var loadsWhileMoving = 0
    /// Counted loads that completed, with their item.
    private(set) var completed: [Int: Int] = [:]
    /// Counted loads whose value was on screen in a row showing its item.
    private(set) var shown: Set<Int> = []

    init(latency: LatencyModel, measuringFrom: Duration) {
        self.latency = latency
        self.measuringFrom = measuringFrom
    }

    private var counting: Bool { now >= measuringFrom }

    // MARK: Views

    /// `item` starts displaying: it gets a view from the pool (its content reset, as
    /// `prepareForReuse` does), which is returned.
    func display(_ item: Int) -> Int {
        let view = pool.dequeue(0) {
            views.append(View())
            return views.count - 1
        }
        views[view] = View(item: item, content: nil)
        viewOfItem[item] = view
        if counting { displays += 1 }
        return view
    }

    /// The view of `item`, if it is displayed.
    func view(of item: Int) -> Int? { viewOfItem[item] }

    /// `item` ends displaying: its view goes back to the pool, still holding what it showed.
    @discardableResult
    func endDisplay(_ item: Int) -> Int? {
        guard let view = viewOfItem.removeValue(forKey: item) else { return nil }
        views[view].item = nil
        pool.enqueue(view, kind: 0)
        return view
    }

    /// Puts `content` into `view`: stale if the view displays another item by now.
    func show(_ content: RowContent, in view: Int) {
        if let item = views[view].item, item != content.item { stale += 1 }
        views[view].content = content
    }

    /// Clears what `view` shows (a slot unbound).
    func clear(_ view: Int) {
        views[view].content = nil
    }

    /// Whether `item`'s view shows its content.
    func isFilled(_ item: Int) -> Bool {
        guard let view = viewOfItem[item], let content = views[view].content else { return false }
        return content.item == item
    }

    /// Whether `item`, on screen in this frame, shows its content; if so, the load behind it
    /// reached the screen.
    func drawnFilled(_ item: Int) -> Bool {
        guard let view = viewOfItem[item], let content = views[view].content, content.item == item else { return false }
        if content.load >= 0 { shown.insert(content.load) }
        return true
    }

    // MARK: Network

    /// Starts loading `item`'s content; ``Event/loaded(serial:item:)`` comes when its last byte
    /// arrives, plus `extra` (a decode the strategy does not queue).
    func startLoad(_ item: Int, extra: Duration = .zero) -> Int {
        lastSerial += 1
        let attempt = attempts[item, default: 0] + 1
        attempts[item] = attempt
        let end = now + latency.latency(item: item, attempt: attempt) + extra
        let load = Load(item: item, start: now, end: end, bytes: latency.size(item: item))
        inFlight[lastSerial] = load
        schedule(.loaded(serial: lastSerial, item: item), at: end)
        if counting {
            loads += 1
            if !isAtRest { loadsWhileMoving += 1 }
            peakInFlight = max(peakInFlight, inFlight.count)
        }
        return lastSerial
    }

    /// Stops a load in flight: it never ends, and the bytes it fetched so far count.
    func cancelLoad(_ serial: Int) {
        guard let load = inFlight.removeValue(forKey: serial) else { return }
        guard load.start >= measuringFrom else { return }
        let total = LatencyModel.milliseconds(load.end - load.start)
        let elapsed = LatencyModel.milliseconds(now - load.start)
        bytes += total > 0 ? Int(Double(load.bytes) * min(1, elapsed / total)) : 0
    }

    /// Calls `event` at `time`.
    func schedule(_ event: Event, at time: Duration) {
        sequence += 1
        queue.insert(Scheduled(time: time, sequence: sequence, event: event))
    }

    /// The next event due at or before `time`, with virtual time moved to it.
    func nextEvent(upTo time: Duration) -> Event? {
        while let first = queue.min, first.time <= time {
            _ = queue.popMin()
            now = max(now, first.time)
            if case .loaded(let serial, _) = first.event {
                // A cancelled load's event is dropped.
                guard let load = inFlight.removeValue(forKey: serial) else { continue }
                if load.start >= measuringFrom {
                    bytes += load.bytes
                    completed[serial] = load.item
                }
            }
            return first.event
        }
        now = max(now, time)
        return nil
    }
}
