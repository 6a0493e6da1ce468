import Foundation

/// The coordinator of all loading work: it owns every scheduling decision, while loads and
/// processing run elsewhere (network I/O in the data loader, CPU work on detached tasks).
///
/// Consumers (slots, prefetching) ask for a request with a priority and a delivery callback,
/// and may later change the priority or cancel. The pipeline:
/// - serves a request from the memory cache when it can;
/// - shares work between equal requests (processing) and equal data keys (loading); shared
///   work runs at the highest priority among its consumers, and stops only when its last
///   consumer leaves: one consumer's cancel never cancels another's;
/// - starts work by priority tier, newest first within a tier by default, with separate
///   concurrency limits for loading and processing (see ``LoadScheduler``);
/// - never starts cancelled work, cancels the task of cancelled running work, and never
///   delivers to a consumer after it cancelled.
///
/// Delivery callbacks run on the pipeline's executor; keep them short (the main-actor front,
/// ``ContentLoader``, only appends to a mailbox).
public actor ContentPipeline<Request: ContentRequest, Value: Sendable> {
    /// Receives a request's outcome exactly once, unless the consumer cancels first.
    public typealias Delivery = @Sendable (Result<Value, ContentError>, RequestTimings) -> Void

    /// What a pipeline needs and how much it may run at once.
    public struct Configuration: Sendable {
        /// The most data loads at once; 6, like a browser's connections per host.
        public var maxConcurrentLoads: Int
        /// The most processing jobs at once; by default one per core, as they are CPU-bound.
        public var maxConcurrentProcessing: Int
        /// The order within a priority tier.
        public var order: QueueOrder
        /// The memory-cache cost of a value (bytes, for images); 1 by default.
        public var cost: @Sendable (Value) -> Int

        /// Creates a configuration with the defaults above.
        public init(
            maxConcurrentLoads: Int = 6,
            maxConcurrentProcessing: Int = max(1, ProcessInfo.processInfo.activeProcessorCount),
            order: QueueOrder = .lifo,
            cost: @escaping @Sendable (Value) -> Int = { _ in 1 }
        ) {
            self.maxConcurrentLoads = maxConcurrentLoads
            self.maxConcurrentProcessing = maxConcurrentProcessing
            self.order = order
            self.cost = cost
        }
    }

    private struct Consumer {
        var priority: LoadPriority
        let deliver: Delivery
    }

    private struct DataJob {
        let key: Request.DataKey
        var dependents: Set<UInt64> = []
        var task: Task<Void, Never>?
    }

    private struct ProcessingJob {
        let request: Request
        var consumers: [ContentConsumerID: Consumer] = [:]
        /// The data job this job waits for, until its data arrives.
        var dataJob: UInt64?
        var data: [UInt8]?
        var task: Task<Void, Never>?
        var timings: RequestTimings

        var priority: LoadPriority {
            var highest = LoadPriority.background
            for consumer in consumers.values where consumer.priority > highest { highest = consumer.priority }
            return highest
        }
    }

    private let loader: any DataLoading<Request.DataKey>
    private let processor: any ContentProcessing<Request, Value>
    private let diskCache: (any DataCaching<Request.DataKey>)?
    /// The cache of processed values, shared with the main-actor front for synchronous hits.
    public nonisolated let memoryCache: MemoryCache<Request, Value>?
    private let configuration: Configuration
    private let clock = ContinuousClock()

    private var loads: LoadScheduler<UInt64>
    private var processing: LoadScheduler<UInt64>
    private var dataJobs: [UInt64: DataJob] = [:]
    private var dataJobForKey: [Request.DataKey: UInt64] = [:]
    private var processingJobs: [UInt64: ProcessingJob] = [:]
    private var processingJobForRequest: [Request: UInt64] = [:]
    private var nextNumber: UInt64 = 0
    @usableFromInline let metricsBox = Locked(ContentMetrics())

    /// Creates a pipeline.
    ///
    /// - Parameters:
    ///   - loader: loads the data behind each ``ContentRequest/dataKey``.
    ///   - processor: turns data into values.
    ///   - memoryCache: where processed values are kept, or `nil` for none.
    ///   - diskCache: where loaded data is kept across launches, or `nil` for none. Its
    ///     blocking I/O runs on a serial queue of its own, never on the cooperative pool.
    public init(
        loader: some DataLoading<Request.DataKey>,
        processor: some ContentProcessing<Request, Value>,
        memoryCache: MemoryCache<Request, Value>? = MemoryCache(),
        diskCache: (any DataCaching<Request.DataKey>)? = nil,
        configuration: Configuration = Configuration()
    ) {
        self.loader = loader
        self.processor = processor
        self.diskCache = diskCache
        self.memoryCache = memoryCache
        self.configuration = configuration
        loads = LoadScheduler(maxConcurrent: configuration.maxConcurrentLoads, order: configuration.order)
        processing = LoadScheduler(maxConcurrent: configuration.maxConcurrentProcessing, order: configuration.order)
    }

    /// The counters so far; readable from any thread.
    public nonisolated var metrics: ContentMetrics { metricsBox.withLock { $0 } }

    /// A new consumer identity; each consumer uses its own for each request it makes.
    @inlinable
    public nonisolated func makeConsumerID() -> ContentConsumerID {
        ContentConsumerID(value: consumerCounter.withLock { counter in
            counter += 1
            return counter
        })
    }

    /// The number of data loads and processing jobs running (started and not yet stopped).
    public var runningCounts: (loads: Int, processing: Int) { (loads.running.count, processing.running.count) }

    /// The cached value for `request`, counted as a request served by the memory cache; for
    /// consumers that can take a value synchronously.
    public nonisolated func cachedValue(for request: Request) -> Value? {
        guard let value = memoryCache?.value(for: request) else { return nil }
        count { metrics in
            metrics.requests += 1
            metrics.memoryCacheHits += 1
        }
        return value
    }

    /// Asks for `request` on behalf of `consumer`, who receives the outcome through `deliver`.
    ///
    /// - Precondition: `consumer` has no request under way for `request`.
    public func request(_ request: Request, priority: LoadPriority, consumer: ContentConsumerID, deliver: @escaping Delivery) {
        count { $0.requests += 1 }
        if let value = memoryCache?.value(for: request) {
            count { $0.memoryCacheHits += 1 }
            deliver(.success(value), RequestTimings(queued: clock.now))
            return
        }
        let number: UInt64
        if let existing = processingJobForRequest[request] {
            number = existing
            count { $0.coalesced += 1 }
        } else {
            number = makeNumber()
            processingJobForRequest[request] = number
            processingJobs[number] = ProcessingJob(request: request, timings: RequestTimings(queued: clock.now))
            attachToData(job: number, key: request.dataKey, priority: priority)
        }
        precondition(processingJobs[number]!.consumers[consumer] == nil, "consumer already waits for \(request)")
        processingJobs[number]!.consumers[consumer] = Consumer(priority: priority, deliver: deliver)
        reprioritize(processingJob: number)
        pump()
    }

    /// Changes the priority of `consumer`'s interest in `request`; shared work follows the
    /// highest priority among its consumers. Does nothing if the consumer has no such request.
    public func setPriority(_ priority: LoadPriority, of request: Request, consumer: ContentConsumerID) {
        guard let number = processingJobForRequest[request], processingJobs[number]?.consumers[consumer] != nil else { return }
        processingJobs[number]!.consumers[consumer]!.priority = priority
        reprioritize(processingJob: number)
        pump()
    }

    /// Withdraws `consumer`'s interest in `request`: it will not be delivered. Work that no
    /// consumer wants any more stops: if waiting, it never starts; if running, its task is
    /// cancelled. Does nothing if the consumer has no such request.
    public func cancel(_ request: Request, consumer: ContentConsumerID) {
        guard let number = processingJobForRequest[request],
              processingJobs[number]?.consumers.removeValue(forKey: consumer) != nil
        else { return }
        if processingJobs[number]!.consumers.isEmpty {
            abandon(processingJob: number)
        } else {
            reprioritize(processingJob: number)
        }
        pump()
    }

    // MARK: - Data loading

    private func attachToData(job: UInt64, key: Request.DataKey, priority: LoadPriority) {
        let dataNumber: UInt64
        if let existing = dataJobForKey[key] {
            dataNumber = existing
        } else {
            dataNumber = makeNumber()
            dataJobForKey[key] = dataNumber
            dataJobs[dataNumber] = DataJob(key: key)
            loads.enqueue(dataNumber, priority: priority)
        }
        dataJobs[dataNumber]!.dependents.insert(job)
        processingJobs[job]!.dataJob = dataNumber
    }

    private func startLoad(_ number: UInt64) {
        guard let key = dataJobs[number]?.key else { return }
        count { $0.loadsStarted += 1 }
        let started = clock.now
        for dependent in dataJobs[number]!.dependents { processingJobs[dependent]?.timings.loadStarted = started }
        let (loader, diskCache) = (self.loader, self.diskCache)
        dataJobs[number]!.task = Task {
            if let diskCache, let cached = await DiskQueue.run({ diskCache.data(for: key) }) {
                self.count { $0.diskCacheHits += 1 }
                self.loadFinished(number, .success(cached))
                return
            }
            let result: Result<[UInt8], any Error>
            do {
                let data = try await loader.loadData(for: key)
                if let diskCache { DiskQueue.enqueue { diskCache.store(data, for: key) } }
                result = .success(data)
            } catch {
                result = .failure(error)
            }
            self.loadFinished(number, result)
        }
    }

    private func loadFinished(_ number: UInt64, _ result: Result<[UInt8], any Error>) {
        loads.remove(number)
        defer { pump() }
        // A load abandoned by all its dependents was counted as cancelled when abandoned.
        guard let job = dataJobs.removeValue(forKey: number) else { return }
        dataJobForKey[job.key] = nil
        let now = clock.now
        switch result {
        case .success(let data):
            count { $0.bytesLoaded += data.count }
            for dependent in job.dependents {
                guard var processingJob = processingJobs[dependent] else { continue }
                processingJob.dataJob = nil
                processingJob.data = data
                processingJob.timings.loaded = now
                processingJobs[dependent] = processingJob
                processing.enqueue(dependent, priority: processingJob.priority)
            }
        case .failure(let error):
            count { $0.failed += 1 }
            for dependent in job.dependents {
                finishProcessingJob(dependent, with: .failure(.loadingFailed(error)))
            }
        }
    }

    // MARK: - Processing

    private func startProcessing(_ number: UInt64) {
        guard let job = processingJobs[number], let data = job.data else { return }
        count { $0.processingStarted += 1 }
        let processor = self.processor
        let request = job.request
        processingJobs[number]!.data = nil
        processingJobs[number]!.task = Task.detached {
            let result: Result<Value, ContentError>
            do {
                result = .success(try processor.process(data, for: request, isCancelled: { Task.isCancelled }))
            } catch {
                result = .failure(.processingFailed(error))
            }
            await self.processingFinished(number, result)
        }
    }

    private func processingFinished(_ number: UInt64, _ result: Result<Value, ContentError>) {
        processing.remove(number)
        defer { pump() }
        guard processingJobs[number] != nil else { return }
        switch result {
        case .success(let value):
            count { $0.completed += 1 }
            memoryCache?.insert(value, for: processingJobs[number]!.request, cost: configuration.cost(value))
        case .failure:
            count { $0.failed += 1 }
        }
        finishProcessingJob(number, with: result)
    }

    private func finishProcessingJob(_ number: UInt64, with result: Result<Value, ContentError>) {
        guard var job = processingJobs.removeValue(forKey: number) else { return }
        processingJobForRequest[job.request] = nil
        job.timings.processed = clock.now
        for consumer in job.consumers.values { consumer.deliver(result, job.timings) }
    }

    // MARK: - Priorities and cancellation

    private func reprioritize(processingJob number: UInt64) {
        guard let job = processingJobs[number] else { return }
        processing.setPriority(job.priority, of: number)
        if let dataNumber = job.dataJob { reprioritize(dataJob: dataNumber) }
    }

    private func reprioritize(dataJob number: UInt64) {
        guard let job = dataJobs[number] else { return }
        var highest = LoadPriority.background
        for dependent in job.dependents {
            if let priority = processingJobs[dependent]?.priority, priority > highest { highest = priority }
        }
        loads.setPriority(highest, of: number)
    }

    private func abandon(processingJob number: UInt64) {
        guard let job = processingJobs.removeValue(forKey: number) else { return }
        processingJobForRequest[job.request] = nil
        if let dataNumber = job.dataJob {
            dataJobs[dataNumber]?.dependents.remove(number)
            if dataJobs[dataNumber]?.dependents.isEmpty == true {
                abandon(dataJob: dataNumber)
            } else {
                reprioritize(dataJob: dataNumber)
            }
        } else if let task = job.task {
            // Running: its place is freed when the task really ends (processingFinished).
            task.cancel()
            count { $0.cancelledInFlight += 1 }
        } else {
            processing.remove(number)
            count { $0.cancelledBeforeStart += 1 }
        }
    }

    private func abandon(dataJob number: UInt64) {
        guard let job = dataJobs.removeValue(forKey: number) else { return }
        dataJobForKey[job.key] = nil
        if let task = job.task {
            task.cancel()
            count { $0.cancelledInFlight += 1 }
        } else {
            loads.remove(number)
            count { $0.cancelledBeforeStart += 1 }
        }
    }

    // MARK: - Driving the schedulers

    private func pump() {
        for number in loads.startNext() { startLoad(number) }
        for number in processing.startNext() { startProcessing(number) }
    }

    private func makeNumber() -> UInt64 {
        nextNumber += 1
        return nextNumber
    }

    nonisolated func count(_ update: (inout ContentMetrics) -> Void) {
        metricsBox.withLock(update)
    }
}

/// The one serial queue for disk-cache I/O: blocking file calls stay off the cooperative
/// thread pool, and reads and writes of one entry happen in order.
enum DiskQueue {
    private static let queue = DispatchQueue(label: "Scrollwork.ContentLoading.disk")

    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    static func enqueue(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}

/// Identifies one consumer's interest in one request: a slot's binding, a prefetch.
public struct ContentConsumerID: Hashable, Sendable {
    @usableFromInline let value: UInt64

    @inlinable
    init(value: UInt64) { self.value = value }
}

/// Consumer identities are unique across all pipelines of a process.
@usableFromInline let consumerCounter = Locked<UInt64>(0)
