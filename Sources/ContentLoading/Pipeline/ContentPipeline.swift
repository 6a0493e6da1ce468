import Foundation
import WorkerThreads

/// The coordinator of all loading work: a thin actor around a ``LoadingCore``, which makes
/// every decision, while loads and processing run elsewhere (network I/O in the data loader,
/// disk I/O on a serial queue, CPU work on threads of the pipeline's own).
///
/// Consumers (slots, prefetching) ask for a request with a priority and a delivery callback,
/// and may later change the priority, move it to the front of its tier, or cancel. The
/// pipeline feeds each command to the core, performs the effects the core returns, and feeds
/// each outcome back; see ``LoadingCore`` for the rules it follows: coalescing, priorities,
/// concurrency limits, cancellation.
///
/// Processing runs on at most ``LoadingCore/Configuration/maxConcurrentProcessing`` threads
/// of the pipeline's own, never on the cooperative pool, as decoding blocks its thread.
///
/// Delivery callbacks run on the pipeline's executor; keep them short (the main-actor front,
/// ``ContentLoader``, only appends to a mailbox).
public actor ContentPipeline<Request: ContentRequest, Value: Sendable> {
    /// Receives a request's outcome exactly once, unless the consumer cancels first.
    public typealias Delivery = @Sendable (Result<Value, ContentError>, RequestTimings) -> Void

    /// What a pipeline may run at once, and how it orders and weighs its work.
    public typealias Configuration = LoadingCore<Request, Value>.Configuration

    /// A caller of ``settled()`` or of a front's wait for its commands.
    private struct Waiter {
        /// The front whose commands must have been performed, if any.
        let inbox: Inbox<Request, Value>?
        /// Whether all work must have ended too, or only the commands.
        let untilIdle: Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct Interest: Hashable {
        let request: Request
        let consumer: ContentConsumerID
    }

    private let loader: any DataLoading<Request.DataKey>
    private let processor: any ContentProcessing<Request, Value>
    private let diskCache: (any DataCaching<Request.DataKey>)?
    /// The cache of processed values, shared with the main-actor front for synchronous hits.
    public nonisolated let memoryCache: MemoryCache<Request, Value>?
    /// The pipeline's clock, as time since the pipeline was created.
    @usableFromInline nonisolated let elapsed: ElapsedTime
    private let threads: WorkerThreads

    private var core: LoadingCore<Request, Value>
    private var deliveries: [Interest: Delivery] = [:]
    /// Disk reads and loads under way, by data job.
    private var loadTasks: [WorkID: Task<Void, Never>] = [:]
    private var processingFlags: [WorkID: CancellationFlag] = [:]
    private var diskWrites = 0
    /// The wake-up the core asked for last, sleeping on the pipeline's clock.
    private var wakeTask: Task<Void, Never>?
    private var waiters: [Waiter] = []
    @usableFromInline let metricsBox = Locked(MetricsTally())

    /// Creates a pipeline.
    ///
    /// - Parameters:
    ///   - loader: loads the data behind each ``ContentRequest/dataKey``.
    ///   - processor: turns data into values.
    ///   - memoryCache: where processed values are kept, or `nil` for none.
    ///   - diskCache: where loaded data is kept across launches, or `nil` for none. Its
    ///     blocking I/O runs on a serial queue of its own, never on the cooperative pool.
    ///   - clock: the clock of ``RequestTimings``; tests and simulations pass their own.
    public init(
        loader: some DataLoading<Request.DataKey>,
        processor: some ContentProcessing<Request, Value>,
        memoryCache: MemoryCache<Request, Value>? = MemoryCache(),
        diskCache: (any DataCaching<Request.DataKey>)? = nil,
        configuration: Configuration = Configuration(),
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.loader = loader
        self.processor = processor
        self.diskCache = diskCache
        self.memoryCache = memoryCache
        elapsed = ElapsedTime(on: clock)
        threads = WorkerThreads(limit: configuration.maxConcurrentProcessing, name: "scrollwork.proc")
        core = LoadingCore(configuration: configuration, memoryCache: memoryCache, usesDiskCache: diskCache != nil)
    }

    deinit {
        wakeTask?.cancel()
        threads.shutdown()
    }

    /// The counters so far; readable from any thread.
    public nonisolated var metrics: ContentMetrics { metricsBox.withLock { $0.metrics } }

    /// The number of data loads and processing jobs running (started and not yet stopped).
    package var runningCounts: (loads: Int, processing: Int) { core.runningCounts }

    /// The cached value for `request`, counted as a request served by the memory cache; for
    /// consumers that can take a value synchronously.
    package nonisolated func cachedValue(for request: Request) -> Value? {
        guard let value = memoryCache?.value(for: request) else { return nil }
        metricsBox.withLock { $0.synchronousHits += 1 }
        return value
    }

    /// Asks for `request` on behalf of `consumer`, who receives the outcome through `deliver`.
    ///
    /// - Precondition: `consumer` has no request under way for `request`.
    public func request(_ request: Request, priority: LoadPriority, consumer: ContentConsumerID, deliver: @escaping Delivery) {
        deliveries[Interest(request: request, consumer: consumer)] = deliver
        handle(.request(request, priority, consumer))
    }

    /// Changes the priority of `consumer`'s interest in `request`; shared work follows the
    /// highest priority among its consumers. Does nothing if the consumer has no such request.
    public func setPriority(_ priority: LoadPriority, of request: Request, consumer: ContentConsumerID) {
        handle(.setPriority(request, priority, consumer))
    }

    /// Makes `consumer`'s work for `request`, if it waits, the next to start among its tier.
    /// Does nothing if the consumer has no such request.
    public func moveToFront(_ request: Request, consumer: ContentConsumerID) {
        handle(.moveToFront(request, consumer))
    }

    /// Withdraws `consumer`'s interest in `request`: it will not be delivered. Work that no
    /// consumer wants any more stops: if waiting, it never starts; if running, it is cancelled.
    /// Does nothing if the consumer has no such request.
    public func cancel(_ request: Request, consumer: ContentConsumerID) {
        deliveries[Interest(request: request, consumer: consumer)] = nil
        handle(.cancel(request, consumer))
    }

    /// Returns once the pipeline has no command and no effect in flight: every command
    /// performed, every load, disk read, disk write and processing job ended (cancelled ones
    /// included). For tests and tools; it never waits on a clock, and never returns while a
    /// load waits for a data loader that will not answer.
    package func settled() async {
        await wait(for: nil, untilIdle: true)
    }

    /// Returns once the commands queued in `inbox` have been performed and, if `untilIdle`,
    /// the pipeline has settled.
    func wait(for inbox: Inbox<Request, Value>?, untilIdle: Bool) async {
        if isReady(inbox, untilIdle: untilIdle) { return }
        await withCheckedContinuation { waiters.append(Waiter(inbox: inbox, untilIdle: untilIdle, continuation: $0)) }
    }

    // MARK: - Driving the core

    private func handle(_ event: LoadingCore<Request, Value>.Event) {
        let effects = core.handle(event, at: elapsed())
        var metrics = core.metrics
        metrics.running = core.runningCounts.loads + core.runningCounts.processing
        metrics.waiting = core.waitingCounts.loads + core.waitingCounts.processing
        metricsBox.withLock { $0.core = metrics }
        for effect in effects { perform(effect) }
        resumeWaiters()
    }

    private func perform(_ effect: LoadingCore<Request, Value>.Effect) {
        switch effect {
        case let .readDisk(id, key):
            let diskCache = diskCache!
            loadTasks[id] = Task {
                let data = await DiskQueue.run { diskCache.data(for: key) }
                self.loadReport(id, .diskRead(id, data))
            }
        case let .load(id, key):
            let loader = loader
            loadTasks[id] = Task {
                let result: Result<[UInt8], any Error>
                do {
                    result = .success(try await loader.loadData(for: key))
                } catch {
                    result = .failure(error)
                }
                self.loadReport(id, .loaded(id, result))
            }
        case let .writeDisk(key, data):
            let diskCache = diskCache!
            diskWrites += 1
            // Queued now, so that a later read of the same entry finds it.
            DiskQueue.enqueue {
                diskCache.store(data, for: key)
                Task { await self.diskWriteFinished() }
            }
        case let .cancelLoad(id):
            loadTasks[id]?.cancel()
        case let .process(id, request, data):
            let (processor, flag) = (processor, CancellationFlag())
            processingFlags[id] = flag
            threads.submit {
                let result: Result<Value, ContentError>
                do {
                    result = .success(try processor.process(data, for: request, isCancelled: { flag.isSet }))
                } catch {
                    result = .failure(.processingFailed(error))
                }
                Task { await self.processingReport(id, result) }
            }
        case let .cancelProcessing(id):
            processingFlags[id]?.set()
        case let .deliver(consumer, request, result, timings):
            deliveries.removeValue(forKey: Interest(request: request, consumer: consumer))?(result, timings)
        case .wake(let time):
            wakeTask?.cancel()
            let elapsed = elapsed
            wakeTask = Task { [weak self] in
                guard (try? await elapsed.sleep(until: time)) != nil else { return }
                await self?.tick()
            }
        }
    }

    private func loadReport(_ id: WorkID, _ event: LoadingCore<Request, Value>.Event) {
        loadTasks[id] = nil
        handle(event)
    }

    private func processingReport(_ id: WorkID, _ result: Result<Value, ContentError>) {
        processingFlags[id] = nil
        handle(.processed(id, result))
    }

    private func tick() {
        handle(.tick)
    }

    private func diskWriteFinished() {
        diskWrites -= 1
        resumeWaiters()
    }

    private func isReady(_ inbox: Inbox<Request, Value>?, untilIdle: Bool) -> Bool {
        guard inbox?.isBusy != true else { return false }
        // Idle: the core has no job waiting, running or stopping, and no task of ours is out.
        return !untilIdle || (core.isIdle && loadTasks.isEmpty && processingFlags.isEmpty && diskWrites == 0)
    }

    func resumeWaiters() {
        guard !waiters.isEmpty else { return }
        var stillWaiting: [Waiter] = []
        for waiter in waiters {
            if isReady(waiter.inbox, untilIdle: waiter.untilIdle) {
                waiter.continuation.resume()
            } else {
                stillWaiting.append(waiter)
            }
        }
        waiters = stillWaiting
    }
}
