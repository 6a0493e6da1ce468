/// Every decision of a loading pipeline, as a synchronous state machine: events in, effects out.
///
/// The core knows nothing of tasks, threads or clocks. A driver feeds it events (consumers'
/// commands and the outcomes of work) with the current time, and performs the effects it
/// returns: ``ContentPipeline`` does so with real tasks, a simulation or a test does so step
/// by step in virtual time. Its decisions:
/// - a request is served from the memory cache when it can;
/// - equal requests share one processing job, and requests with equal data keys share one
///   data load; shared work runs at the highest priority among its consumers, and stops only
///   when its last consumer leaves: one consumer's cancel never cancels another's;
/// - work starts by priority tier, with separate concurrency limits for loading and
///   processing (``LoadScheduler`` is the policy of each stage);
/// - cancelled waiting work never starts; cancelled running work is told to stop, and keeps its
///   place against the limit until the driver reports that it has really stopped;
/// - a consumer is answered at most once, and never after it cancelled;
/// - with a disk cache, a load reads the disk first, and data loaded otherwise is written to it;
/// - with ``Configuration/hedging``, a load a row on screen waits for that runs longer than
///   most loads do is asked for a second time, the first answer wins, and a failure waits for
///   the other.
///
/// Being a value with no hidden inputs, two cores fed the same events return the same effects.
/// The memory cache is the one shared object: it is also read synchronously by the main-actor
/// front.
///
/// A simulation keeps its own clock and decides when each effect ends:
///
/// ```swift
/// var core = LoadingCore<ThumbnailRequest, PixelBuffer>(configuration: .init(maxConcurrentLoads: 4))
/// let row = ContentConsumerID()
/// var effects = core.handle(.request(request, .visible, row), at: .zero)
/// // effects == [.load(id, url)]: the simulated network answers 120 ms later.
/// effects = core.handle(.loaded(id, .success(bytes)), at: .milliseconds(120))
/// // effects == [.process(job, request, bytes)]: the decode takes what the processor's
/// // cost(of:for:) says, then .processed(job, ...) yields [.deliver(row, request, ...)].
/// ```
public struct LoadingCore<Request: ContentRequest, Value: Sendable> {
    /// The limits and weights in force.
    public let configuration: Configuration
    /// Where processed values are kept, or nil for none.
    public let memoryCache: MemoryCache<Request, Value>?
    /// Whether loads go through a disk cache.
    public let usesDiskCache: Bool
    /// The counters so far.
    public private(set) var metrics = ContentMetrics()

    private struct DataJob {
        let key: Request.DataKey
        /// The processing jobs waiting for this data, in the order they joined.
        var dependents: [WorkID] = []
        /// When its load from the network started (not a disk read), once it has.
        var started: Duration?
        /// Its hedge: a second load of the same data, waiting or running.
        var hedge: WorkID?
        /// Whether it was hedged: a job is hedged once.
        var wasHedged = false
        /// Why the first of its two loads failed, while the other may still answer.
        var failure: (any Error)?
    }

    private struct ProcessingJob {
        let request: Request
        /// The consumers and their priorities, in the order they joined: deliveries follow it.
        var consumers: [(id: ContentConsumerID, priority: LoadPriority)] = []
        /// The data job this job waits for, until its data arrives.
        var dataJob: WorkID?
        var data: [UInt8]?
        var timings: RequestTimings

        var priority: LoadPriority { consumers.lazy.map(\.priority).max() ?? .background }
    }

    private var loads: LoadScheduler<WorkID>
    private var processing: LoadScheduler<WorkID>
    private var dataJobs: [WorkID: DataJob] = [:]
    private var dataJobForKey: [Request.DataKey: WorkID] = [:]
    private var processingJobs: [WorkID: ProcessingJob] = [:]
    private var processingJobForRequest: [Request: WorkID] = [:]
    /// Each hedge load's data job, until the hedge reports that it stopped.
    private var hedgeOf: [WorkID: WorkID] = [:]
    /// The time of the last ``Effect/wake(at:)`` asked for.
    private var wakeAsked: Duration?
    /// The times of the last network loads that brought their data, oldest replaced first.
    private var loadTimes: [Duration] = []
    private var nextLoadTime = 0
    /// How long a load a row on screen waits for runs before it is hedged.
    public private(set) var hedgeDelay: Duration?
    private var lastID: UInt64 = 0

    /// Creates an idle core.
    ///
    /// - Precondition: both concurrency limits are positive.
    public init(configuration: Configuration = Configuration(), memoryCache: MemoryCache<Request, Value>? = nil, usesDiskCache: Bool = false) {
        self.configuration = configuration
        self.memoryCache = memoryCache
        self.usesDiskCache = usesDiskCache
        hedgeDelay = configuration.hedging?.initialDelay
        loads = LoadScheduler(maxConcurrent: configuration.maxConcurrentLoads, order: configuration.order)
        processing = LoadScheduler(maxConcurrent: configuration.maxConcurrentProcessing, order: configuration.order)
    }

    /// The data loads and processing jobs running: started and not yet reported stopped.
    public var runningCounts: (loads: Int, processing: Int) { (loads.running.count, processing.running.count) }

    /// The data loads and processing jobs waiting to start.
    public var waitingCounts: (loads: Int, processing: Int) { (loads.waitingCount, processing.waitingCount) }

    /// Whether the core has no work at all: nothing waits, runs or is still stopping.
    public var isIdle: Bool {
        dataJobs.isEmpty && processingJobs.isEmpty && loads.running.isEmpty && processing.running.isEmpty
    }

    /// Takes one event at time `now` (any monotonic time; the driver's clock decides) and
    /// returns the effects to perform, in order.
    ///
    /// - Complexity: O(c + k) for c consumers of the work concerned and k jobs started.
    public mutating func handle(_ event: Event, at now: Duration) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case let .request(request, priority, consumer):
            self.request(request, priority: priority, consumer: consumer, now: now, effects: &effects)
        case let .setPriority(request, priority, consumer):
            setPriority(priority, of: request, consumer: consumer)
        case let .moveToFront(request, consumer):
            moveToFront(request, consumer: consumer)
        case let .cancel(request, consumer):
            cancel(request, consumer: consumer, effects: &effects)
        case let .diskRead(id, data):
            diskRead(id, data, now: now, effects: &effects)
        case let .loaded(id, result):
            loadEnded(id, result, fromDisk: false, now: now, effects: &effects)
        case let .processed(id, result):
            processingEnded(id, result, now: now, effects: &effects)
        case .tick:
            break
        }
        if let after = hedgeDelay { hedgeLoads(runningLongerThan: after, now: now) }
        for id in loads.startNext() { startLoad(id, now: now, effects: &effects) }
        if let after = hedgeDelay { askWake(forHedgesAfter: after, now: now, effects: &effects) }
        for id in processing.startNext() { startProcessing(id, effects: &effects) }
        return effects
    }

    // MARK: - Consumers

    private mutating func request(
        _ request: Request, priority: LoadPriority, consumer: ContentConsumerID, now: Duration, effects: inout [Effect]
    ) {
        metrics.requests += 1
        if let value = memoryCache?.value(for: request) {
            metrics.memoryCacheHits += 1
            effects.append(.deliver(consumer, request, .success(value), RequestTimings(queued: now)))
            return
        }
        let id: WorkID
        if let existing = processingJobForRequest[request] {
            id = existing
            metrics.coalesced += 1
        } else {
            id = makeID()
            processingJobForRequest[request] = id
            processingJobs[id] = ProcessingJob(request: request, timings: RequestTimings(queued: now))
            attachToData(job: id, key: request.dataKey, priority: priority)
        }
        precondition(!processingJobs[id]!.consumers.contains { $0.id == consumer }, "consumer already waits for \(request)")
        processingJobs[id]!.consumers.append((consumer, priority))
        reprioritize(processingJob: id)
    }

    private mutating func setPriority(_ priority: LoadPriority, of request: Request, consumer: ContentConsumerID) {
        guard let id = processingJobForRequest[request],
              let index = processingJobs[id]!.consumers.firstIndex(where: { $0.id == consumer })
        else { return }
        processingJobs[id]!.consumers[index].priority = priority
        reprioritize(processingJob: id)
    }

    private mutating func moveToFront(_ request: Request, consumer: ContentConsumerID) {
        guard let id = processingJobForRequest[request], let job = processingJobs[id],
              job.consumers.contains(where: { $0.id == consumer })
        else { return }
        if let dataID = job.dataJob {
            loads.moveToFront(dataID)
        } else {
            processing.moveToFront(id)
        }
    }

    private mutating func cancel(_ request: Request, consumer: ContentConsumerID, effects: inout [Effect]) {
        guard let id = processingJobForRequest[request],
              let index = processingJobs[id]!.consumers.firstIndex(where: { $0.id == consumer })
        else { return }
        processingJobs[id]!.consumers.remove(at: index)
        if processingJobs[id]!.consumers.isEmpty {
            abandon(processingJob: id, effects: &effects)
        } else {
            reprioritize(processingJob: id)
        }
    }

    // MARK: - Data loading

    private mutating func attachToData(job: WorkID, key: Request.DataKey, priority: LoadPriority) {
        let dataID: WorkID
        if let existing = dataJobForKey[key] {
            dataID = existing
        } else {
            dataID = makeID()
            dataJobForKey[key] = dataID
            dataJobs[dataID] = DataJob(key: key)
            loads.enqueue(dataID, priority: priority)
        }
        dataJobs[dataID]!.dependents.append(job)
        processingJobs[job]!.dataJob = dataID
    }

    private mutating func startLoad(_ id: WorkID, now: Duration, effects: inout [Effect]) {
        metrics.loadsStarted += 1
        if let primary = hedgeOf[id] {
            // A hedge goes to the network: the disk was read before its first load.
            metrics.hedged += 1
            effects.append(.load(id, dataJobs[primary]!.key))
            return
        }
        let job = dataJobs[id]!
        for dependent in job.dependents { processingJobs[dependent]!.timings.loadStarted = now }
        if !usesDiskCache { dataJobs[id]!.started = now }
        effects.append(usesDiskCache ? .readDisk(id, job.key) : .load(id, job.key))
    }

    private mutating func diskRead(_ id: WorkID, _ data: [UInt8]?, now: Duration, effects: inout [Effect]) {
        guard let job = dataJobs[id] else {
            // Abandoned while the disk was read: the work has stopped, its place is free.
            loads.remove(id)
            return
        }
        if let data {
            metrics.diskCacheHits += 1
            loadEnded(id, .success(data), fromDisk: true, now: now, effects: &effects)
        } else {
            dataJobs[id]!.started = now
            effects.append(.load(id, job.key))
        }
    }

    private mutating func loadEnded(
        _ id: WorkID, _ result: Result<[UInt8], any Error>, fromDisk: Bool, now: Duration, effects: inout [Effect]
    ) {
        loads.remove(id)
        if let primary = hedgeOf.removeValue(forKey: id) {
            hedgeEnded(id, of: primary, result, now: now, effects: &effects)
            return
        }
        // A load abandoned by all its dependents was counted as cancelled when abandoned.
        guard let job = dataJobs[id] else { return }
        if case .failure(let error) = result, job.hedge != nil {
            // The hedge may still bring the data: the job waits for it.
            dataJobs[id]!.failure = error
            return
        }
        if let hedge = job.hedge { stopHedge(hedge, effects: &effects) }
        if case .success = result, !fromDisk, let started = job.started { noteLoadTime(now - started) }
        dataEnded(id, result, fromDisk: fromDisk, now: now, effects: &effects)
    }

    /// Keeps the time of a network load that brought its data, and reads the hedge delay
    /// again from the last ``LoadHedging/window`` of them.
    /// - Complexity: O(w log w) for a window of w.
    private mutating func noteLoadTime(_ time: Duration) {
        guard let hedging = configuration.hedging, hedging.window > 0 else { return }
        if loadTimes.count < hedging.window {
            loadTimes.append(time)
        } else {
            loadTimes[nextLoadTime] = time
            nextLoadTime = (nextLoadTime + 1) % hedging.window
        }
        guard loadTimes.count == hedging.window else { return }
        let sorted = loadTimes.sorted()
        let rank = min(sorted.count - 1, max(0, Int((hedging.percentile * Double(sorted.count)).rounded(.up)) - 1))
        hedgeDelay = max(hedging.minimumDelay, sorted[rank])
    }

    /// The hedge `id` of data job `primary` ended: it wins with data, or the job fails once
    /// both loads have.
    private mutating func hedgeEnded(
        _ id: WorkID, of primary: WorkID, _ result: Result<[UInt8], any Error>, now: Duration, effects: inout [Effect]
    ) {
        // A hedge stopped because its job ended or was abandoned changes nothing.
        guard let job = dataJobs[primary], job.hedge == id else { return }
        dataJobs[primary]!.hedge = nil
        switch result {
        case .success:
            metrics.hedgesWon += 1
            // What the row waited, from its first load: the slow load the hedge beat is the
            // time that counts, else the delay would settle lower and hedge more and more.
            if let started = job.started { noteLoadTime(now - started) }
            if loads.running[primary] != nil {
                // The first load's report, once it has stopped, finds no job and frees its place.
                effects.append(.cancelLoad(primary))
                metrics.cancelledInFlight += 1
            }
            dataEnded(primary, result, fromDisk: false, now: now, effects: &effects)
        case .failure:
            // The first load may still answer, unless it failed too.
            if job.failure != nil || loads.running[primary] == nil {
                dataEnded(primary, result, fromDisk: false, now: now, effects: &effects)
            }
        }
    }

    /// Stops a hedge whose job no longer needs it: cancelled if running (its report is then
    /// ignored), else taken out of the queue.
    private mutating func stopHedge(_ hedge: WorkID, effects: inout [Effect]) {
        if loads.running[hedge] != nil {
            effects.append(.cancelLoad(hedge))
            metrics.cancelledInFlight += 1
        } else {
            dropWaitingHedge(hedge)
        }
    }

    /// Takes a hedge that has not started out of the queue: it never starts.
    private mutating func dropWaitingHedge(_ hedge: WorkID) {
        loads.remove(hedge)
        hedgeOf[hedge] = nil
        metrics.cancelledBeforeStart += 1
    }

    /// The least priority of the loads that are hedged.
    private var hedgedPriority: LoadPriority { configuration.hedging?.priority ?? .visible }

    /// The running loads a row on screen waits for that are not hedged yet, with the time
    /// each is due for its hedge, in the order they were made (so that two cores fed the same
    /// events agree).
    /// - Complexity: O(r log r) for the r loads running, at most the concurrency limit.
    private func hedgeCandidates(after: Duration) -> [(id: WorkID, priority: LoadPriority, due: Duration)] {
        loads.running.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap { id, priority in
            guard priority >= hedgedPriority, hedgeOf[id] == nil, let job = dataJobs[id], !job.wasHedged,
                  job.failure == nil, let started = job.started
            else { return nil }
            return (id, priority, started + after)
        }
    }

    /// Hedges the loads a row on screen waits for that have run `after` or longer: each gets
    /// a second load of its data, first in its tier.
    private mutating func hedgeLoads(runningLongerThan after: Duration, now: Duration) {
        for candidate in hedgeCandidates(after: after) where candidate.due <= now {
            let hedge = makeID()
            hedgeOf[hedge] = candidate.id
            dataJobs[candidate.id]!.hedge = hedge
            dataJobs[candidate.id]!.wasHedged = true
            loads.enqueue(hedge, priority: candidate.priority)
            loads.moveToFront(hedge)
        }
    }

    /// Asks for a wake-up when the next load will be due for its hedge, unless one asked for
    /// is still to come at or before then.
    private mutating func askWake(forHedgesAfter after: Duration, now: Duration, effects: inout [Effect]) {
        guard let next = hedgeCandidates(after: after).map(\.due).min(),
              wakeAsked.map({ $0 <= now || next < $0 }) ?? true
        else { return }
        wakeAsked = next
        effects.append(.wake(at: next))
    }

    /// The data job `id` ends with `result`: its dependents process the data, or fail.
    private mutating func dataEnded(
        _ id: WorkID, _ result: Result<[UInt8], any Error>, fromDisk: Bool, now: Duration, effects: inout [Effect]
    ) {
        guard let job = dataJobs.removeValue(forKey: id) else { return }
        dataJobForKey[job.key] = nil
        switch result {
        case .success(let data):
            metrics.bytesLoaded += data.count
            if usesDiskCache, !fromDisk { effects.append(.writeDisk(job.key, data)) }
            for dependent in job.dependents {
                processingJobs[dependent]!.dataJob = nil
                processingJobs[dependent]!.data = data
                processingJobs[dependent]!.timings.loaded = now
                processing.enqueue(dependent, priority: processingJobs[dependent]!.priority)
            }
        case .failure(let error):
            metrics.failed += 1
            for dependent in job.dependents {
                finish(dependent, with: .failure(.loadingFailed(error)), now: now, effects: &effects)
            }
        }
    }

    // MARK: - Processing

    private mutating func startProcessing(_ id: WorkID, effects: inout [Effect]) {
        metrics.processingStarted += 1
        let data = processingJobs[id]!.data!
        processingJobs[id]!.data = nil
        effects.append(.process(id, processingJobs[id]!.request, data))
    }

    private mutating func processingEnded(
        _ id: WorkID, _ result: Result<Value, ContentError>, now: Duration, effects: inout [Effect]
    ) {
        processing.remove(id)
        guard let request = processingJobs[id]?.request else { return }
        switch result {
        case .success(let value):
            metrics.completed += 1
            memoryCache?.insert(value, for: request, cost: configuration.cost(value))
        case .failure:
            metrics.failed += 1
        }
        finish(id, with: result, now: now, effects: &effects)
    }

    private mutating func finish(_ id: WorkID, with result: Result<Value, ContentError>, now: Duration, effects: inout [Effect]) {
        guard var job = processingJobs.removeValue(forKey: id) else { return }
        processingJobForRequest[job.request] = nil
        job.timings.processed = now
        for consumer in job.consumers { effects.append(.deliver(consumer.id, job.request, result, job.timings)) }
    }

    // MARK: - Priorities and cancellation

    private mutating func reprioritize(processingJob id: WorkID) {
        guard let job = processingJobs[id] else { return }
        processing.setPriority(job.priority, of: id)
        if let dataID = job.dataJob { reprioritize(dataJob: dataID) }
    }

    private mutating func reprioritize(dataJob id: WorkID) {
        guard let job = dataJobs[id] else { return }
        var highest = LoadPriority.background
        for dependent in job.dependents {
            if let priority = processingJobs[dependent]?.priority, priority > highest { highest = priority }
        }
        loads.setPriority(highest, of: id)
        guard let hedge = job.hedge else { return }
        if highest < hedgedPriority, job.failure == nil, loads.running[hedge] == nil {
            // No row on screen waits for the data any more: a hedge not started never starts
            // (unless the first load failed, when it is the one left).
            dropWaitingHedge(hedge)
            dataJobs[id]!.hedge = nil
        } else {
            loads.setPriority(highest, of: hedge)
        }
    }

    private mutating func abandon(processingJob id: WorkID, effects: inout [Effect]) {
        let job = processingJobs.removeValue(forKey: id)!
        processingJobForRequest[job.request] = nil
        if let dataID = job.dataJob {
            dataJobs[dataID]!.dependents.removeAll { $0 == id }
            if dataJobs[dataID]!.dependents.isEmpty {
                abandon(dataJob: dataID, effects: &effects)
            } else {
                reprioritize(dataJob: dataID)
            }
        } else if processing.running[id] != nil {
            // Running: its place is freed when the work reports that it has stopped.
            effects.append(.cancelProcessing(id))
            metrics.cancelledInFlight += 1
        } else {
            processing.remove(id)
            metrics.cancelledBeforeStart += 1
        }
    }

    private mutating func abandon(dataJob id: WorkID, effects: inout [Effect]) {
        let job = dataJobs.removeValue(forKey: id)!
        dataJobForKey[job.key] = nil
        if let hedge = job.hedge { stopHedge(hedge, effects: &effects) }
        // Its first load failed and only the hedge was running: nothing else to stop.
        if job.failure != nil { return }
        if loads.running[id] != nil {
            effects.append(.cancelLoad(id))
            metrics.cancelledInFlight += 1
        } else {
            loads.remove(id)
            metrics.cancelledBeforeStart += 1
        }
    }

    private mutating func makeID() -> WorkID {
        lastID += 1
        return WorkID(rawValue: lastID)
    }
}
