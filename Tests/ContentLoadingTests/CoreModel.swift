import ContentLoading
import Testing

/// Drives a ``LoadingCore`` the way ``ContentPipeline`` does, but in virtual time and one step
/// at a time: every effect becomes work in flight that the test ends when it likes, and every
/// promise of the core is checked as its effects arrive.
///
/// The promises: a consumer is answered at most once, never after it cancelled, and with the
/// value of its own request; work is cancelled only when no consumer wants it any more; the
/// work in flight (cancelled work included, until it reports) never exceeds the limits, and
/// matches what the core counts as running; equal keys never load twice at once.
struct CoreModel {
    typealias Core = LoadingCore<TestRequest, String>

    struct Load {
        let id: WorkID
        let key: String
        var fromDisk: Bool
        var cancelled = false
    }

    struct Job {
        let id: WorkID
        let request: TestRequest
        var cancelled = false
    }

    private(set) var core: Core
    private(set) var now: Duration = .zero
    /// Disk reads and loads in flight, oldest first.
    private(set) var loads: [Load] = []
    /// Processing jobs in flight, oldest first.
    private(set) var jobs: [Job] = []
    /// What the simulated disk holds.
    private(set) var disk: [String: [UInt8]] = [:]
    /// Interests neither cancelled nor answered, in the order they were made.
    private(set) var active: [(consumer: ContentConsumerID, request: TestRequest)] = []
    private(set) var answered: Set<ContentConsumerID> = []
    /// Requests whose shared work waits for its data. Work for a request exists exactly while
    /// some consumer of it is active, so the model can follow it without looking inside.
    private var awaitingData: Set<TestRequest> = []
    private(set) var cancelled: Set<ContentConsumerID> = []
    /// Every effect so far, described, for replay comparisons.
    private(set) var log: [String] = []
    /// The keys whose loads started, in order.
    private(set) var loadsStarted: [String] = []
    /// Broken promises, described; empty when all is well.
    private(set) var violations: [String] = []

    init(configuration: Core.Configuration, memoryCache: MemoryCache<TestRequest, String>? = nil, disk: [String: [UInt8]]? = nil) {
        core = Core(configuration: configuration, memoryCache: memoryCache, usesDiskCache: disk != nil)
        self.disk = disk ?? [:]
    }

    // MARK: - Consumers

    /// A new consumer asks for `request`.
    @discardableResult
    mutating func request(_ request: TestRequest, _ priority: LoadPriority = .visible) -> ContentConsumerID {
        let consumer = ContentConsumerID()
        let joinsWork = active.contains { $0.request == request }
        active.append((consumer, request))
        send(.request(request, priority, consumer))
        // Unless served at once or joining work under way, the request waits for its data.
        if !joinsWork, !answered.contains(consumer) { awaitingData.insert(request) }
        return consumer
    }

    mutating func setPriority(_ priority: LoadPriority, of consumer: ContentConsumerID) {
        guard let interest = active.first(where: { $0.consumer == consumer }) else { return }
        send(.setPriority(interest.request, priority, consumer))
    }

    mutating func moveToFront(_ consumer: ContentConsumerID) {
        guard let interest = active.first(where: { $0.consumer == consumer }) else { return }
        send(.moveToFront(interest.request, consumer))
    }

    mutating func cancel(_ consumer: ContentConsumerID) {
        guard let index = active.firstIndex(where: { $0.consumer == consumer }) else { return }
        let interest = active.remove(at: index)
        cancelled.insert(consumer)
        if !active.contains(where: { $0.request == interest.request }) { awaitingData.remove(interest.request) }
        send(.cancel(interest.request, consumer))
    }

    // MARK: - Work ending

    /// Ends the load (or disk read) at `index` of ``loads``: a disk read answers from the
    /// simulated disk; a load succeeds with its key as data, or fails.
    mutating func endLoad(at index: Int, succeeding: Bool = true) {
        let load = loads.remove(at: index)
        let data = load.fromDisk ? disk[load.key] : succeeding ? Array(load.key.utf8) : nil
        // Data that arrives for live work reaches every request waiting for its key.
        if data != nil, !load.cancelled { awaitingData = awaitingData.filter { $0.dataKey != load.key } }
        if load.fromDisk {
            send(.diskRead(load.id, data))
        } else {
            send(.loaded(load.id, data.map { .success($0) } ?? .failure(LoadFailure())))
        }
    }

    /// Ends the load of `key` that started first.
    mutating func endLoad(_ key: String, succeeding: Bool = true) {
        guard let index = loads.firstIndex(where: { $0.key == key }) else {
            violations.append("no load of \(key) in flight")
            return
        }
        endLoad(at: index, succeeding: succeeding)
    }

    /// Ends the processing job at `index` of ``jobs``, with the echo of its data or a failure.
    mutating func endJob(at index: Int, succeeding: Bool = true) {
        let job = jobs.remove(at: index)
        let result: Result<String, ContentError> = succeeding ? .success(expectedValue(job.request)) : .failure(.processingFailed(LoadFailure()))
        send(.processed(job.id, result))
    }

    /// Ends all work, oldest first and successfully, until nothing is in flight.
    mutating func finishEverything() {
        while !loads.isEmpty || !jobs.isEmpty {
            if !loads.isEmpty { endLoad(at: 0) } else { endJob(at: 0) }
        }
    }

    // MARK: - Stepping

    private mutating func send(_ event: Core.Event) {
        now += .milliseconds(1)
        for effect in core.handle(event, at: now) { apply(effect) }
        check()
    }

    private mutating func apply(_ effect: Core.Effect) {
        log.append("\(effect)")
        switch effect {
        case let .readDisk(id, key), let .load(id, key):
            if loads.contains(where: { $0.id == id }) { violations.append("load \(id) started twice") }
            if loads.contains(where: { $0.key == key && !$0.cancelled }) { violations.append("two loads of \(key) at once") }
            // With a disk cache, a load is the second half of a start that read the disk first.
            if effect.isDiskRead || !core.usesDiskCache { loadsStarted.append(key) }
            loads.append(Load(id: id, key: key, fromDisk: effect.isDiskRead))
        case let .writeDisk(key, data):
            disk[key] = data
        case let .cancelLoad(id):
            guard let index = loads.firstIndex(where: { $0.id == id }) else {
                violations.append("cancelled load \(id), which is not in flight")
                return
            }
            if awaitingData.contains(where: { $0.dataKey == loads[index].key }) {
                violations.append("cancelled the load of \(loads[index].key), which a consumer still wants")
            }
            loads[index].cancelled = true
        case let .process(id, request, data):
            if data != Array(request.url.utf8) { violations.append("\(request) processes the data of another key") }
            if jobs.contains(where: { $0.request == request && !$0.cancelled }) { violations.append("two jobs for \(request) at once") }
            jobs.append(Job(id: id, request: request))
        case let .cancelProcessing(id):
            guard let index = jobs.firstIndex(where: { $0.id == id }) else {
                violations.append("cancelled job \(id), which is not in flight")
                return
            }
            if active.contains(where: { $0.request == jobs[index].request }) {
                violations.append("cancelled the job for \(jobs[index].request), which a consumer still wants")
            }
            jobs[index].cancelled = true
        case .wake:
            if core.configuration.hedging == nil { violations.append("a wake-up asked for with no hedging") }
        case let .deliver(consumer, request, result, timings):
            if cancelled.contains(consumer) { violations.append("delivered \(request) after its consumer cancelled") }
            if answered.contains(consumer) { violations.append("answered a consumer of \(request) twice") }
            guard let index = active.firstIndex(where: { $0.consumer == consumer && $0.request == request }) else {
                if !cancelled.contains(consumer), !answered.contains(consumer) { violations.append("delivered \(request) to a stranger") }
                return
            }
            active.remove(at: index)
            answered.insert(consumer)
            awaitingData.remove(request)
            if case .success(let value) = result, value != expectedValue(request) {
                violations.append("\(request) delivered \(value)")
            }
            let phases = [timings.queued, timings.loadStarted, timings.loaded, timings.processed].compactMap { $0 }
            if phases != phases.sorted() || phases.last! > now { violations.append("timings of \(request) out of order: \(timings)") }
        }
    }

    private mutating func check() {
        let running = core.runningCounts
        if running.loads != loads.count || running.processing != jobs.count {
            violations.append("the core counts \(running) running, \(loads.count) loads and \(jobs.count) jobs are in flight")
        }
        if loads.count > core.configuration.maxConcurrentLoads { violations.append("\(loads.count) loads at once") }
        if jobs.count > core.configuration.maxConcurrentProcessing { violations.append("\(jobs.count) jobs at once") }
    }
}

extension LoadingCore.Effect {
    fileprivate var isDiskRead: Bool {
        if case .readDisk = self { true } else { false }
    }
}
