/// The synchronous front that slots and prefetches share: who wants what, as a value with no
/// concurrency inside.
///
/// A front keeps the consumers of a ``LoadingCore``: one binding per slot, each binding a
/// generation with a consumer identity of its own, and one consumer per prefetched request.
/// Binding, unbinding and prefetching emit ``ConsumerCommand``s, which its driver takes
/// (``takeCommands()``) and hands to the core in order; the outcomes the core delivers come
/// back through ``accept(from:)``, which lets a result reach a slot only if that slot is still
/// bound to it in the same binding, so a reused row never shows what it asked for before.
///
/// ``ContentLoader`` drives a front over a ``ContentPipeline`` on real time; a simulation
/// drives one over a ``LoadingCore`` in virtual time, so what it measures is this code, not a
/// model of it.
///
/// - `Slot` is how the driver names a slot: an object's identity, a view's index.
public struct LoaderFront<Request: ContentRequest, Value: Sendable, Slot: Hashable> {
    /// What ``bind(_:to:priority:)`` did.
    public enum BindOutcome {
        /// The value was in the memory cache: show it. Nothing loads, and the slot is left
        /// unbound, as after a delivery.
        case cached(Value)
        /// The request was asked for: show a placeholder until its outcome is accepted.
        case loading
        /// The slot was already bound to this request (a row that re-enters view): its
        /// priority changed and its work, if it waits, moved to the front of its tier. What the
        /// slot shows is unchanged.
        case renewed
    }

    @usableFromInline
    struct Binding {
        @usableFromInline let request: Request
        @usableFromInline let consumer: ContentConsumerID

        @inlinable
        init(request: Request, consumer: ContentConsumerID) {
            self.request = request
            self.consumer = consumer
        }
    }

    /// The cache that answers a bind or a prefetch at once, or nil for none; the core's own.
    public let memoryCache: MemoryCache<Request, Value>?
    @usableFromInline var bindings: [Slot: Binding] = [:]
    @usableFromInline var slotOfConsumer: [ContentConsumerID: Slot] = [:]
    @usableFromInline var prefetching: [Request: ContentConsumerID] = [:]
    @usableFromInline var prefetchOfConsumer: [ContentConsumerID: Request] = [:]
    @usableFromInline var commands: [ConsumerCommand<Request>] = []

    /// A front with no slot bound and nothing prefetched, answering from `memoryCache`.
    public init(memoryCache: MemoryCache<Request, Value>?) {
        self.memoryCache = memoryCache
    }

    /// Whether commands wait for ``takeCommands()``.
    @inlinable
    public var hasCommands: Bool { !commands.isEmpty }

    /// The commands emitted since the last call, in the order the core must take them.
    /// - Complexity: O(1).
    @inlinable
    public mutating func takeCommands() -> [ConsumerCommand<Request>] {
        defer { commands = [] }
        return commands
    }

    // MARK: - Slots

    /// The request `slot` is bound to and waits for, if any.
    @inlinable
    public func request(of slot: Slot) -> Request? { bindings[slot]?.request }

    /// Binds `slot` to `request` at `priority`, ending the binding it had (its work is
    /// cancelled unless someone else wants it).
    ///
    /// A slot already waiting for `request` keeps its binding: the front emits a change of
    /// priority and a move to the front of its tier, as it is the newest thing the user asked
    /// for. Otherwise a value in the memory cache is returned at once, or a new binding asks
    /// for the request.
    /// - Complexity: O(1) amortized.
    @inlinable
    public mutating func bind(_ slot: Slot, to request: Request, priority: LoadPriority) -> BindOutcome {
        if let binding = bindings[slot], binding.request == request {
            commands.append(.setPriority(request, priority, binding.consumer))
            commands.append(.moveToFront(request, binding.consumer))
            return .renewed
        }
        unbind(slot)
        if let value = memoryCache?.value(for: request) { return .cached(value) }
        let consumer = ContentConsumerID()
        bindings[slot] = Binding(request: request, consumer: consumer)
        slotOfConsumer[consumer] = slot
        commands.append(.request(request, priority, consumer))
        return .loading
    }

    /// Changes the priority of `slot`'s binding, if it has one (a row moving between ranges).
    /// - Complexity: O(1).
    @inlinable
    public mutating func setPriority(_ priority: LoadPriority, of slot: Slot) {
        guard let binding = bindings[slot] else { return }
        commands.append(.setPriority(binding.request, priority, binding.consumer))
    }

    /// Ends `slot`'s binding, if it has one: its work is cancelled unless someone else wants
    /// it, and a result already on its way is dropped.
    /// - Complexity: O(1) amortized.
    @inlinable
    public mutating func unbind(_ slot: Slot) {
        guard let ended = bindings.removeValue(forKey: slot) else { return }
        slotOfConsumer[ended.consumer] = nil
        commands.append(.cancel(ended.request, ended.consumer))
    }

    /// Ends every binding and every prefetch, for a front whose owner goes away: their work is
    /// cancelled unless another front wants it, and results on their way are dropped.
    /// - Complexity: O(b + p) for b bindings and p prefetches.
    public mutating func leaveAll() {
        for (_, binding) in bindings { commands.append(.cancel(binding.request, binding.consumer)) }
        for (request, consumer) in prefetching { commands.append(.cancel(request, consumer)) }
        bindings = [:]
        slotOfConsumer = [:]
        prefetching = [:]
        prefetchOfConsumer = [:]
    }

    // MARK: - Prefetches

    /// Starts prefetching `requests` at `priority`, except those prefetched already (they keep
    /// their priority: see ``setPrefetchPriority(_:for:)``) and those in the memory cache. A
    /// slot that binds one of them later joins the work under way and raises its priority.
    /// - Complexity: O(n) amortized for n requests.
    @inlinable
    public mutating func startPrefetching(_ requests: some Sequence<Request>, priority: LoadPriority) {
        for request in requests where prefetching[request] == nil {
            if memoryCache?.value(for: request) != nil { continue }
            let consumer = ContentConsumerID()
            prefetching[request] = consumer
            prefetchOfConsumer[consumer] = request
            commands.append(.request(request, priority, consumer))
        }
    }

    /// Changes the priority of the prefetches of `requests` under way; other requests are
    /// ignored.
    /// - Complexity: O(n) for n requests.
    @inlinable
    public mutating func setPrefetchPriority(_ priority: LoadPriority, for requests: some Sequence<Request>) {
        for request in requests {
            guard let consumer = prefetching[request] else { continue }
            commands.append(.setPriority(request, priority, consumer))
        }
    }

    /// Stops prefetching `requests`; work that a slot also wants goes on.
    /// - Complexity: O(n) amortized for n requests.
    @inlinable
    public mutating func stopPrefetching(_ requests: some Sequence<Request>) {
        for request in requests {
            guard let consumer = prefetching.removeValue(forKey: request) else { continue }
            prefetchOfConsumer[consumer] = nil
            commands.append(.cancel(request, consumer))
        }
    }

    /// Applies a frame's prefetch changes: stops first, then changes of priority, then starts,
    /// each in the order given (the most urgent last, so that a newest-first queue starts it
    /// first).
    /// - Complexity: O(c) amortized for the c changes.
    @inlinable
    public mutating func apply(_ changes: PrefetchChanges<Request>) {
        stopPrefetching(changes.stop)
        for (request, priority) in changes.reprioritize { setPrefetchPriority(priority, for: CollectionOfOne(request)) }
        for (request, priority) in changes.start { startPrefetching(CollectionOfOne(request), priority: priority) }
    }

    // MARK: - Arrivals

    /// Takes the outcome the core delivered to `consumer`, and says where it goes.
    ///
    /// A prefetch's outcome goes nowhere: its value is in the memory cache now, and the
    /// prefetch is over. A slot's goes to the slot only if the binding it was asked for is
    /// still the slot's current one; that binding then ends (a binding is answered once).
    /// Anything else is stale and dropped.
    ///
    /// - Returns: the slot to hand the outcome to, with the request it answers; nil to drop it.
    /// - Complexity: O(1) amortized.
    @inlinable
    public mutating func accept(from consumer: ContentConsumerID) -> (slot: Slot, request: Request)? {
        if let request = prefetchOfConsumer.removeValue(forKey: consumer) {
            prefetching[request] = nil
            return nil
        }
        guard let slot = slotOfConsumer.removeValue(forKey: consumer),
              let binding = bindings[slot], binding.consumer == consumer
        else { return nil }
        bindings[slot] = nil
        return (slot, binding.request)
    }
}

/// A frame's changes to what is prefetched, as requests: what ``LoaderFront/apply(_:)`` and
/// ``ContentLoader/apply(_:)`` take.
public struct PrefetchChanges<Request: ContentRequest>: Sendable {
    /// Requests no longer to prefetch.
    public var stop: [Request]
    /// Prefetches under way whose priority changed, the most urgent last.
    public var reprioritize: [(request: Request, priority: LoadPriority)]
    /// Requests to start prefetching, the most urgent last.
    public var start: [(request: Request, priority: LoadPriority)]

    /// Changes that stop, change and start the given requests.
    public init(stop: [Request] = [], reprioritize: [(request: Request, priority: LoadPriority)] = [],
                start: [(request: Request, priority: LoadPriority)] = []) {
        self.stop = stop
        self.reprioritize = reprioritize
        self.start = start
    }
}
