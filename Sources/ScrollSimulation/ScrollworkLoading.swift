import ContentLoading
import ListViewport
import ViewportLoading

/// ``LoadingStrategy/scrollwork``: each frame's ``ViewportRanges/rowsToLoad`` prefetched at
/// their priorities through ContentLoading's real ``LoadingCore`` (tiers, newest first within
/// a tier, shared work, cancellation, a memory cache), and a reuse-safe slot per row view,
/// both kept by ContentLoading's real ``LoaderFront``, stepped in virtual time.
///
/// It drives the front as ``ContentLoader`` does: slots bind when their row starts displaying
/// and unbind when it ends; prefetches start, change priority and stop as ``PrefetchPlan`` says;
/// values wait for the next frame tick, and the front says which reach their view. A slot
/// binds in the background tier: the rows to load give the priority, and a displayed row that
/// would flash by during a glide loads only if nothing else waits. What is its own is the
/// simulated world's: loads by serial, and decodes by timer.
@MainActor
final class ScrollworkLoading: SimulatedStrategy {
    private typealias Core = LoadingCore<RowContentRequest, RowContent>

    private let world: SimulationWorld
    private var core: Core
    /// Slots are named by the world's row views.
    private var front: LoaderFront<RowContentRequest, RowContent, Int>
    private var prefetches = PrefetchPlan<Int, RowContentRequest>()
    /// What the core delivered since the last frame tick.
    private var arrivals: [(ContentConsumerID, Result<RowContent, ContentError>)] = []
    private var workOfLoad: [Int: WorkID] = [:]
    private var loadOfWork: [WorkID: Int] = [:]
    private var decodes: [Int: (work: WorkID, content: RowContent)] = [:]
    private var decodeOfWork: [WorkID: Int] = [:]
    private var lastToken = 0
    /// The timers of the core's wake-ups.
    private var wakes: Set<Int> = []

    init(world: SimulationWorld, configuration: ScrollSimulation.Configuration) {
        self.world = world
        core = Core(configuration: .init(maxConcurrentLoads: configuration.maxConcurrentLoads,
                                         maxConcurrentProcessing: configuration.maxConcurrentProcessing, order: .lifo,
                                         hedging: configuration.hedging),
                    memoryCache: MemoryCache(limits: .init(totalCost: configuration.cacheCount, count: configuration.cacheCount)))
        front = LoaderFront(memoryCache: core.memoryCache)
    }

    func willDisplay(_ item: Int, row: Int, view: Int) {
        if case .cached(let value) = front.bind(view, to: RowContentRequest(item: item), priority: .background) {
            world.show(value, in: view)
        }
        sendCommands()
    }

    func didEndDisplaying(_ item: Int, view: Int) {
        front.unbind(view)
        sendCommands()
        world.clear(view)
    }

    func frame(_ ranges: ViewportRanges) {
        let items = world.items
        front.apply(prefetches.update(ranges, id: { items[$0].id }, request: { RowContentRequest(item: items[$0].id) }))
        sendCommands()
    }

    func handle(_ event: SimulationWorld.Event) {
        switch event {
        case let .loaded(serial, _):
            guard let work = workOfLoad.removeValue(forKey: serial) else { return }
            loadOfWork[work] = nil
            send(.loaded(work, .success(Self.encode(serial: serial))))
        case let .timer(token):
            if wakes.remove(token) != nil {
                send(.tick)
                return
            }
            guard let decode = decodes.removeValue(forKey: token) else { return }
            decodeOfWork[decode.work] = nil
            send(.processed(decode.work, .success(decode.content)))
        }
    }

    func deliverPending() {
        let delivered = arrivals
        arrivals = []
        for (consumer, result) in delivered {
            guard let (view, _) = front.accept(from: consumer), case .success(let content) = result else { continue }
            world.show(content, in: view)
        }
    }

    // MARK: Driving the core

    /// Hands the front's commands to the core, in order.
    private func sendCommands() {
        for command in front.takeCommands() { send(Core.Event(command)) }
    }

    /// Feeds `event` to the core at the world's time and performs the effects, feeding back
    /// at once the outcomes that take no time (a cancelled load or decode stops at once).
    private func send(_ event: Core.Event) {
        var events = [event]
        while !events.isEmpty {
            let next = events.removeFirst()
            for effect in core.handle(next, at: world.now) {
                switch effect {
                case let .load(work, item):
                    let serial = world.startLoad(item)
                    workOfLoad[serial] = work
                    loadOfWork[work] = serial
                case let .cancelLoad(work):
                    if let serial = loadOfWork.removeValue(forKey: work) {
                        workOfLoad[serial] = nil
                        world.cancelLoad(serial)
                    }
                    events.append(.loaded(work, .failure(CancellationError())))
                case let .process(work, request, data):
                    lastToken += 1
                    let content = RowContent(item: request.item, load: Self.serial(decoding: data))
                    decodes[lastToken] = (work, content)
                    decodeOfWork[work] = lastToken
                    let bytes = world.latency.size(item: request.item)
                    world.schedule(.timer(token: lastToken), at: world.now + world.latency.decodeTime(bytes: bytes))
                case let .cancelProcessing(work):
                    if let token = decodeOfWork.removeValue(forKey: work) { decodes[token] = nil }
                    events.append(.processed(work, .failure(.processingFailed(CancellationError()))))
                case let .deliver(consumer, _, result, _):
                    arrivals.append((consumer, result))
                case .wake(let time):
                    lastToken += 1
                    wakes.insert(lastToken)
                    world.schedule(.timer(token: lastToken), at: max(time, world.now))
                case .readDisk, .writeDisk:
                    preconditionFailure("the simulated core has no disk cache")
                }
            }
        }
    }

    /// The load's number travels in its data, as the decoded value must name it.
    private static func encode(serial: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt64(serial).littleEndian, Array.init)
    }

    private static func serial(decoding data: [UInt8]) -> Int {
        Int(data.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian)
    }
}
