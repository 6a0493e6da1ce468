/// The main-actor front of a ``ContentPipeline``: reuse-safe slots for row views, prefetching,
/// and delivery of values in one batch per frame.
///
/// Who wants what is a ``LoaderFront``, the same value a simulation drives in virtual time;
/// this class drives it on real time. Main-actor work is kept to a minimum. Binding a slot
/// either takes a cached value at once or adds a command to the front; the commands of one
/// main-actor turn (a layout pass that binds a screenful of rows) go to the pipeline together,
/// in order, in one hop. Values come back through a mailbox that ``deliverPending()`` empties
/// once per frame tick, so a refresh that completes a hundred thumbnails costs one main-actor
/// turn, not a hundred.
@MainActor
public final class ContentLoader<Request: ContentRequest, Value: Sendable> {
    /// The pipeline doing the work.
    public let pipeline: ContentPipeline<Request, Value>

    /// Yields whenever values start waiting in the mailbox, so a frame loop that sleeps while
    /// nothing changes knows to schedule a tick and call ``deliverPending()``.
    public let deliveriesPending: AsyncStream<Void>

    /// Called on the main actor with each value's timings as it is delivered.
    public var timingsObserver: ((Request, RequestTimings) -> Void)?

    // The pipeline's counters, held here too: reading an actor's properties from the main
    // actor costs a run-time metadata lookup (about 1 us) on every bind. The front holds its
    // memory cache for the same reason.
    @usableFromInline let metricsBox: Locked<MetricsTally>
    @usableFromInline let inbox: Inbox<Request, Value>
    @usableFromInline let mailbox: Mailbox<Value>
    @usableFromInline var front: LoaderFront<Request, Value, SlotReference>
    @usableFromInline var flushScheduled = false
    @usableFromInline let elapsed: ElapsedTime

    /// A slot as the front knows it: by identity, with an unretained reference (a slot holds
    /// its loader). The reference is safe to follow while the front has a binding for it: a
    /// slot unbinds itself when it is deinitialized, on the main actor, before it is freed.
    /// A weak reference would cost the slot a side table, allocated on its first bind, which
    /// doubled the time of binding a slot (`bench loader`).
    @usableFromInline
    struct SlotReference: Hashable {
        @usableFromInline let id: ObjectIdentifier
        @usableFromInline let unretained: Unmanaged<ContentSlot<Request, Value>>?

        @inlinable
        init(_ slot: ContentSlot<Request, Value>) {
            id = ObjectIdentifier(slot)
            unretained = Unmanaged.passUnretained(slot)
        }

        /// The slot, while the front binds it.
        @inlinable
        var slot: ContentSlot<Request, Value>? { unretained?.takeUnretainedValue() }

        /// A key that finds the slot with identity `id`, naming no slot itself: for a lookup,
        /// and for a slot being deinitialized, which no weak reference may name.
        @inlinable
        init(id: ObjectIdentifier) {
            self.id = id
            unretained = nil
        }

        @inlinable
        static func == (lhs: SlotReference, rhs: SlotReference) -> Bool { lhs.id == rhs.id }

        @inlinable
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// The pipeline's counters, with the requests this front served from the memory cache
    /// itself; the gauges (`running`, `waiting`) are as of the pipeline's last event.
    public var metrics: ContentMetrics { metricsBox.withLock { $0.metrics } }

    /// Creates a front for `pipeline`.
    public init(pipeline: ContentPipeline<Request, Value>) {
        self.pipeline = pipeline
        front = LoaderFront(memoryCache: pipeline.memoryCache)
        metricsBox = pipeline.metricsBox
        elapsed = pipeline.elapsed
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        deliveriesPending = stream
        mailbox = Mailbox(signal: continuation)
        inbox = Inbox()
    }

    // A front that goes away leaves the pipeline nothing to do for it. Its slots are gone
    // (each holds its front), but their last unbinds may not have been sent, and its
    // prefetches are under way: all are cancelled, so that no load, and no task waiting on
    // one, outlives the screen that asked for it.
    isolated deinit {
        front.leaveAll()
        flush()
    }

    /// A new slot for a row view (one per image, avatar, ... the row shows).
    public func makeSlot() -> ContentSlot<Request, Value> {
        ContentSlot(loader: self)
    }

    /// Starts loading `requests` at `priority`, for rows about to come into view (or, at
    /// ``LoadPriority/landing``, where a fling will stop). A slot that later binds one of them
    /// joins the work under way and raises its priority. Requests already prefetched keep
    /// their priority: change it with ``setPrefetchPriority(_:for:)``.
    public func startPrefetching(_ requests: some Sequence<Request>, priority: LoadPriority = .prefetch) {
        front.startPrefetching(requests, priority: priority)
        scheduleFlush()
    }

    /// Raises or lowers the priority of prefetches under way (a predicted landing range that
    /// moves, a preload range that becomes the display range); other requests are ignored.
    public func setPrefetchPriority(_ priority: LoadPriority, for requests: some Sequence<Request>) {
        front.setPrefetchPriority(priority, for: requests)
        scheduleFlush()
    }

    /// Stops prefetching `requests` (rows that left the preload range); work that a slot also
    /// wants goes on.
    public func stopPrefetching(_ requests: some Sequence<Request>) {
        front.stopPrefetching(requests)
        scheduleFlush()
    }

    /// Hands a frame's prefetch changes to the pipeline: stops first, then changes of
    /// priority, then starts (see ``LoaderFront/apply(_:)``). Slots bound to the same requests
    /// join the work.
    /// - Complexity: O(c) for the c changes.
    public func apply(_ changes: PrefetchChanges<Request>) {
        front.apply(changes)
        scheduleFlush()
    }

    /// Hands every value that arrived since the last call to its slot, if the slot is still
    /// bound to that request in that binding; drops the rest. Call once per frame tick.
    ///
    /// - Returns: the number of values delivered to slots.
    @inlinable
    @discardableResult
    public func deliverPending() -> Int {
        let arrivals = mailbox.takeAll()
        guard !arrivals.isEmpty else { return 0 }
        let now = elapsed()
        var delivered = 0
        for arrival in arrivals {
            guard let (reference, request) = front.accept(from: arrival.consumer), let slot = reference.slot else { continue }
            slot.receive(arrival.result, for: request)
            delivered += 1
            if let timingsObserver {
                var timings = arrival.timings
                timings.delivered = now
                timingsObserver(request, timings)
            }
        }
        return delivered
    }

    /// Returns once every command sent so far has been performed and the pipeline has settled
    /// (see ``ContentPipeline/settled()``). Values delivered meanwhile wait in the mailbox for
    /// ``deliverPending()``.
    public func settled() async {
        flush()
        await pipeline.wait(for: inbox, untilIdle: true)
    }

    /// Returns once every command sent so far has been performed, whatever work is under way:
    /// for tests whose loads wait for the test.
    func commandsPerformed() async {
        flush()
        await pipeline.wait(for: inbox, untilIdle: false)
    }

    // MARK: - For slots

    @inlinable
    func bind(_ slot: ContentSlot<Request, Value>, to request: Request, priority: LoadPriority) -> LoaderFront<Request, Value, SlotReference>.BindOutcome {
        let outcome = front.bind(SlotReference(slot), to: request, priority: priority)
        if case .cached = outcome { metricsBox.withLock { $0.synchronousHits += 1 } }
        scheduleFlush()
        return outcome
    }

    @inlinable
    func setPriority(_ priority: LoadPriority, of slot: ContentSlot<Request, Value>) {
        front.setPriority(priority, of: SlotReference(id: ObjectIdentifier(slot)))
        scheduleFlush()
    }

    @inlinable
    func unbind(_ slot: ObjectIdentifier) {
        front.unbind(SlotReference(id: slot))
        scheduleFlush()
    }

    /// Schedules, once per main-actor turn with commands, the flush that sends them all after
    /// the turn.
    @inlinable
    func scheduleFlush() {
        guard !flushScheduled, front.hasCommands else { return }
        flushScheduled = true
        Task { @MainActor [weak self] in self?.flush() }
    }

    /// Hands the queued commands to the pipeline, starting a drain unless one is under way.
    @inlinable
    func flush() {
        flushScheduled = false
        guard front.hasCommands else { return }
        let startDrain = inbox.append(contentsOf: front.takeCommands())
        guard startDrain else { return }
        let (pipeline, inbox, mailbox) = (pipeline, inbox, mailbox)
        Task { await pipeline.drain(inbox, into: mailbox) }
    }
}

extension ContentPipeline {
    /// Performs the commands in `inbox`, in order, until it is empty.
    @usableFromInline
    func drain(_ inbox: Inbox<Request, Value>, into mailbox: Mailbox<Value>) {
        while let commands = inbox.takeAll() {
            for command in commands {
                switch command {
                case let .request(request, priority, consumer):
                    self.request(request, priority: priority, consumer: consumer) { result, timings in
                        mailbox.post(consumer: consumer, result: result, timings: timings)
                    }
                case let .setPriority(request, priority, consumer):
                    setPriority(priority, of: request, consumer: consumer)
                case let .moveToFront(request, consumer):
                    moveToFront(request, consumer: consumer)
                case let .cancel(request, consumer):
                    cancel(request, consumer: consumer)
                }
            }
        }
        resumeWaiters()
    }
}

/// Commands from the main actor to the pipeline, kept in order, drained in batches.
@usableFromInline
final class Inbox<Request: ContentRequest, Value: Sendable>: Sendable {
    @usableFromInline
    typealias Command = ConsumerCommand<Request>

    @usableFromInline
    struct State {
        @usableFromInline var commands: [Command] = []
        @usableFromInline var draining = false

        @inlinable
        init() {}
    }

    @usableFromInline let state = Locked(State())

    @inlinable
    init() {}

    /// Queues commands; returns whether a drain must be started (none is under way).
    @inlinable
    func append(contentsOf commands: [Command]) -> Bool {
        state.withLock { state in
            state.commands += commands
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
    }

    /// Whether commands are queued or being performed.
    var isBusy: Bool { state.withLock { $0.draining } }

    /// Takes every queued command, or returns nil and ends the drain when there are none.
    func takeAll() -> [Command]? {
        state.withLock { state in
            guard !state.commands.isEmpty else {
                state.draining = false
                return nil
            }
            defer { state.commands = [] }
            return state.commands
        }
    }
}

/// Values from the pipeline to the main actor, taken in one batch per frame tick.
@usableFromInline
final class Mailbox<Value: Sendable>: Sendable {
    @usableFromInline
    struct Arrival: Sendable {
        @usableFromInline let consumer: ContentConsumerID
        @usableFromInline let result: Result<Value, ContentError>
        @usableFromInline let timings: RequestTimings
    }

    @usableFromInline let arrivals = Locked<[Arrival]>([])
    private let signal: AsyncStream<Void>.Continuation

    init(signal: AsyncStream<Void>.Continuation) {
        self.signal = signal
    }

    func post(consumer: ContentConsumerID, result: Result<Value, ContentError>, timings: RequestTimings) {
        let wasEmpty = arrivals.withLock { arrivals in
            arrivals.append(Arrival(consumer: consumer, result: result, timings: timings))
            return arrivals.count == 1
        }
        if wasEmpty { signal.yield() }
    }

    @inlinable
    func takeAll() -> [Arrival] {
        arrivals.withLock { arrivals in
            defer { arrivals = [] }
            return arrivals
        }
    }
}
