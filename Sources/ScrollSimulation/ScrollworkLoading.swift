import ContentLoading
import ListViewport

/// ``LoadingStrategy/scrollwork``: each frame's ``ViewportRanges/rowsToLoad`` prefetched at
/// their priorities through ContentLoading's real ``LoadingCore`` (tiers, newest first within
/// a tier, shared work, cancellation, a memory cache), and one reuse-safe slot per row view
/// following the real ``SlotBinding`` rule, stepped in virtual time.
///
/// It plays the part of ``ContentLoader``: slots bind when their row starts displaying and
/// unbind when it ends; prefetches start, change priority and stop as ``LoadPlan`` says;
/// values wait in a mailbox for the next frame tick. A slot binds
/// in the background tier: the rows to load give the priority, and a displayed row that would
/// flash by during a glide loads only if nothing else waits.
@MainActor
final class ScrollworkLoading: SimulatedStrategy {
    private typealias Core = LoadingCore<RowContentRequest, RowContent>

    private let world: SimulationWorld
    private var core: Core
    private var slots: [SlotBinding<RowContentRequest>] = []
    private var viewOfConsumer: [ContentConsumerID: Int] = [:]
    private var plan = LoadPlan<Int>()
    private var prefetching: [Int: ContentConsumerID] = [:]
    private var prefetchOfConsumer: [ContentConsumerID: Int] = [:]
    private var mailbox: [(ContentConsumerID, Result<RowContent, ContentError>)] = []
    private var workOfLoad: [Int: WorkID] = [:]
    private var loadOfWork: [WorkID: Int] = [:]
    private var decodes: [Int: (work: WorkID, content: RowContent)] = [:]
    private var decodeOfWork: [WorkID: Int] = [:]
    private var lastToken = 0

    init(world: SimulationWorld, configuration: ScrollSimulation.Configuration) {
        self.world = world
        core = Core(configuration: .init(maxConcurrentLoads: configuration.maxConcurrentLoads,
                                         maxConcurrentProcessing: configuration.maxConcurrentProcessing, order: .lifo),
                    memoryCache: MemoryCache(limits: .init(totalCost: configuration.cacheCount, count: configuration.cacheCount)))
    }

    func willDisplay(_ item: Int, row: Int, view: Int) {
        while slots.count <= view { slots.append(SlotBinding()) }
        unbind(view)
        let request = RowContentRequest(item: item)
        if let value = core.memoryCache?.value(for: request) {
            world.show(value, in: view)
            return
        }
        let consumer = ContentConsumerID()
        slots[view].begin(request, consumer: consumer)
        viewOfConsumer[consumer] = view
        send(.request(request, .background, consumer))
    }

    func didEndDisplaying(_ item: Int, view: Int) {
        unbind(view)
        world.clear(view)
    }

    func frame(_ ranges: ViewportRanges) {
        let items = world.items
        let changes = plan.update(ranges) { items[$0].id }
        for item in changes.stop {
            guard let consumer = prefetching.removeValue(forKey: item) else { continue }
            prefetchOfConsumer[consumer] = nil
            send(.cancel(RowContentRequest(item: item), consumer))
        }
        for (item, priority) in changes.reprioritize {
            guard let consumer = prefetching[item] else { continue }
            send(.setPriority(RowContentRequest(item: item), priority, consumer))
        }
        for (item, priority) in changes.start where prefetching[item] == nil {
            let request = RowContentRequest(item: item)
            guard core.memoryCache?.value(for: request) == nil else { continue }
            let consumer = ContentConsumerID()
            prefetching[item] = consumer
            prefetchOfConsumer[consumer] = item
            send(.request(request, priority, consumer))
        }
    }

    func handle(_ event: SimulationWorld.Event) {
        switch event {
        case let .loaded(serial, _):
            guard let work = workOfLoad.removeValue(forKey: serial) else { return }
            loadOfWork[work] = nil
            send(.loaded(work, .success(Self.encode(serial: serial))))
        case let .timer(token):
            guard let decode = decodes.removeValue(forKey: token) else { return }
            decodeOfWork[decode.work] = nil
            send(.processed(decode.work, .success(decode.content)))
        }
    }

    func deliverPending() {
        let arrivals = mailbox
        mailbox = []
        for (consumer, result) in arrivals {
            if let item = prefetchOfConsumer.removeValue(forKey: consumer) {
                // Its value is in the cache now; the slot that wants it got it too.
                prefetching[item] = nil
                continue
            }
            guard let view = viewOfConsumer.removeValue(forKey: consumer),
                  slots[view].accept(from: consumer) != nil, case .success(let content) = result
            else { continue }
            world.show(content, in: view)
        }
    }

    // MARK: Driving the core

    private func unbind(_ view: Int) {
        guard let ended = slots[view].end() else { return }
        viewOfConsumer[ended.consumer] = nil
        send(.cancel(ended.request, ended.consumer))
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
                    mailbox.append((consumer, result))
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
