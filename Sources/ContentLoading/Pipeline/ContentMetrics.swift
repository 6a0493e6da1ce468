/// Counters of what a pipeline did, cheap enough to leave on.
public struct ContentMetrics: Sendable, Equatable {
    /// Requests made by consumers (slots and prefetching).
    public var requests = 0
    /// Requests that joined work already under way for an equal request.
    public var coalesced = 0
    /// Requests served from the memory cache.
    public var memoryCacheHits = 0
    /// Data loads served from the disk cache.
    public var diskCacheHits = 0
    /// Data loads and processing jobs started.
    public var loadsStarted = 0
    public var processingStarted = 0
    /// Jobs cancelled before they started (they never start).
    public var cancelledBeforeStart = 0
    /// Jobs cancelled while running (their task is cancelled; their result is dropped).
    public var cancelledInFlight = 0
    /// Processing jobs that produced a value.
    public var completed = 0
    /// Loads or processing jobs that failed.
    public var failed = 0
    /// Hedges started: second loads of data a row on screen waited for too long
    /// (``LoadHedging``).
    public var hedged = 0
    /// Hedges that answered first.
    public var hedgesWon = 0
    /// Bytes loaded by data loads that finished.
    public var bytesLoaded = 0
    /// Data loads and processing jobs running now: a gauge, not a count.
    public var running = 0
    /// Data loads and processing jobs waiting for a free place now: a gauge, not a count.
    public var waiting = 0

    public init() {}
}

/// When one request went through each phase of the pipeline, as time since the pipeline was
/// created, on the pipeline's clock (virtual time, when a simulation drives a ``LoadingCore``).
public struct RequestTimings: Sendable, Equatable {
    /// When the request's work was created.
    public var queued: Duration
    /// When its data load started (nil if it joined a load under way or was served by a cache).
    public var loadStarted: Duration?
    /// When its data arrived.
    public var loaded: Duration?
    /// When processing finished.
    public var processed: Duration?
    /// When the value reached its consumer on the main actor.
    public var delivered: Duration?

    /// Timings of a request queued at `queued`, with no later phase yet.
    public init(queued: Duration) {
        self.queued = queued
    }
}

/// The pipeline's counters: the core's, and the memory-cache hits served synchronously to
/// callers outside the pipeline (the main-actor front).
@usableFromInline
struct MetricsTally: Sendable {
    var core = ContentMetrics()
    @usableFromInline var synchronousHits = 0

    @inlinable
    init() {}

    var metrics: ContentMetrics {
        var metrics = core
        metrics.requests += synchronousHits
        metrics.memoryCacheHits += synchronousHits
        return metrics
    }
}
