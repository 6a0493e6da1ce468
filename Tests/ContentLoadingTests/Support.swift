import ContentLoading
import Foundation

/// A request for `url` rendered at `size`; requests with one URL share its data.
struct TestRequest: ContentRequest, CustomStringConvertible {
    var url: String
    var size: Int = 1

    var dataKey: String { url }
    var description: String { "\(url)@\(size)" }
}

/// The value every request must end up with: proof of which data and which request made it.
func expectedValue(_ request: TestRequest) -> String { "\(request.url)@\(request.size)" }

/// Turns the loaded bytes (the URL itself) into `url@size`.
struct EchoProcessor: ContentProcessing {
    func process(_ data: [UInt8], for request: TestRequest, isCancelled: () -> Bool) throws -> String {
        "\(String(decoding: data, as: UTF8.self))@\(request.size)"
    }
}

struct LoadFailure: Error, Equatable {}

/// A processor whose jobs wait for the test: each announces that it started, blocks its
/// thread until ``release()``, then reports whether it was cancelled meanwhile.
final class GatedProcessor: ContentProcessing, @unchecked Sendable {
    struct Cancelled: Error {}

    let started: AsyncStream<Void>
    private let sink: AsyncStream<Void>.Continuation
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var sawCancellation: [Bool] = []

    init() {
        (started, sink) = AsyncStream<Void>.makeStream()
    }

    /// For each job that ended, whether it saw its cancellation.
    var cancellationsSeen: [Bool] { lock.withLock { sawCancellation } }

    /// Lets one waiting job go on.
    func release() { gate.signal() }

    func process(_ data: [UInt8], for request: TestRequest, isCancelled: () -> Bool) throws -> String {
        sink.yield()
        gate.wait()
        let cancelled = isCancelled()
        lock.withLock { sawCancellation.append(cancelled) }
        if cancelled { throw Cancelled() }
        return expectedValue(request)
    }
}

/// Echoes like ``EchoProcessor``, and records where each job ran: on which system thread, and
/// whether inside a Swift task (as on the cooperative pool) or not.
final class ThreadRecordingProcessor: ContentProcessing, @unchecked Sendable {
    struct Place: Hashable {
        let thread: String
        let inTask: Bool
    }

    private let lock = NSLock()
    private var recorded: [Place] = []

    var places: [Place] { lock.withLock { recorded } }

    func process(_ data: [UInt8], for request: TestRequest, isCancelled: () -> Bool) throws -> String {
        let place = Place(thread: "\(pthread_self())", inTask: withUnsafeCurrentTask { $0 != nil })
        lock.withLock { recorded.append(place) }
        return try EchoProcessor().process(data, for: request, isCancelled: isCancelled)
    }
}

/// A clock that moves only when the test advances it, or when something sleeps on it: a
/// sleep (a pipeline's wake-up for a hedge) moves it to the deadline at once.
final class ManualClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(by duration: Duration) {
        lock.withLock { current = current.advanced(by: duration) }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        lock.withLock { current = max(current, deadline) }
    }
}

/// A data loader that answers at once: its key as data, or a failure for the keys in `failing`.
struct ImmediateLoader: DataLoading {
    var failing: Set<String> = []

    func loadData(for key: String) async throws -> [UInt8] {
        if failing.contains(key) { throw LoadFailure() }
        return Array(key.utf8)
    }
}

/// A data loader whose loads finish only when the test says so.
///
/// Every load waits until ``complete(_:)`` or ``fail(_:)``; cancelling the loading task ends
/// it at once with `CancellationError`, as a real transfer that closes its connection.
final class ControlledLoader: DataLoading, @unchecked Sendable {
    enum Event: Equatable, Sendable {
        case started(String)
        case cancelled(String)
    }

    private struct Pending {
        let id: Int
        let key: String
        let continuation: CheckedContinuation<[UInt8], any Error>
    }

    private struct State {
        var pending: [Pending] = []
        var nextID = 0
        var log: [Event] = []
    }

    private let lock = NSLock()
    private var state = State()
    let events: AsyncStream<Event>
    private let sink: AsyncStream<Event>.Continuation

    init() {
        (events, sink) = AsyncStream<Event>.makeStream()
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    func loadData(for key: String) async throws -> [UInt8] {
        let id = locked { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelledAlready = locked { state -> Bool in
                    if Task.isCancelled { return true }
                    state.pending.append(Pending(id: id, key: key, continuation: continuation))
                    state.log.append(.started(key))
                    return false
                }
                if cancelledAlready {
                    continuation.resume(throwing: CancellationError())
                } else {
                    sink.yield(.started(key))
                }
            }
        } onCancel: {
            let cancelled = locked { state -> Pending? in
                guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return nil }
                state.log.append(.cancelled(key))
                return state.pending.remove(at: index)
            }
            if let cancelled {
                cancelled.continuation.resume(throwing: CancellationError())
                sink.yield(.cancelled(key))
            }
        }
    }

    /// The keys of the loads in flight, oldest first.
    var inFlight: [String] { locked { $0.pending.map(\.key) } }

    /// Everything that happened, in order.
    var log: [Event] { locked { $0.log } }

    /// Finishes the oldest load of `key` with its own name as data.
    func complete(_ key: String) {
        take(key)?.resume(returning: Array(key.utf8))
    }

    /// Fails the oldest load of `key`.
    func fail(_ key: String) {
        take(key)?.resume(throwing: LoadFailure())
    }

    private func take(_ key: String) -> CheckedContinuation<[UInt8], any Error>? {
        locked { state in
            guard let index = state.pending.firstIndex(where: { $0.key == key }) else { return nil }
            return state.pending.remove(at: index).continuation
        }
    }
}

/// Collects what a pipeline delivers to consumers made by the test.
final class Deliveries: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [(ContentConsumerID, Result<String, ContentError>)] = []
    let arrivals: AsyncStream<Void>
    private let sink: AsyncStream<Void>.Continuation

    init() {
        (arrivals, sink) = AsyncStream<Void>.makeStream()
    }

    func callback(for consumer: ContentConsumerID) -> ContentPipeline<TestRequest, String>.Delivery {
        { [self] result, _ in
            lock.lock()
            received.append((consumer, result))
            lock.unlock()
            sink.yield()
        }
    }

    var values: [ContentConsumerID: String] {
        lock.lock()
        defer { lock.unlock() }
        var values: [ContentConsumerID: String] = [:]
        for (consumer, result) in received { if case .success(let value) = result { values[consumer] = value } }
        return values
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return received.count
    }

    /// Waits for `count` deliveries in all.
    func wait(for count: Int) async {
        var iterator = arrivals.makeAsyncIterator()
        while self.count < count { _ = await iterator.next() }
    }
}

extension AsyncStream where Element == ControlledLoader.Event {
    /// The next event, which the test knows is coming.
    func next() async -> Element? {
        var iterator = makeAsyncIterator()
        return await iterator.next()
    }
}
