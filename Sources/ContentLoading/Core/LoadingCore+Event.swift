extension LoadingCore {
    /// What happens to a core: a consumer's command, or the outcome of work it asked for.
    public enum Event: Sendable {
        /// `consumer` asks for `request` at `priority`.
        ///
        /// - Precondition: `consumer` has no request under way for `request`.
        case request(Request, LoadPriority, ContentConsumerID)
        /// `consumer` changes the priority of its interest in `request`.
        case setPriority(Request, LoadPriority, ContentConsumerID)
        /// `consumer` wants `request` next among the work of its tier: a row that re-enters
        /// view is the newest thing the user asked for, even at an unchanged priority.
        case moveToFront(Request, ContentConsumerID)
        /// `consumer` withdraws its interest in `request`.
        case cancel(Request, ContentConsumerID)
        /// The disk cache answered ``Effect/readDisk(_:_:)``: the data, or nil for a miss.
        case diskRead(WorkID, [UInt8]?)
        /// A data load ended: its data, or why it failed. For a load the core cancelled, this
        /// is the report that the work has really stopped, whatever the outcome.
        case loaded(WorkID, Result<[UInt8], any Error>)
        /// A processing job ended. For a job the core cancelled, this is the report that the
        /// work has really stopped, whatever the outcome.
        case processed(WorkID, Result<Value, ContentError>)
        /// The time ``Effect/wake(at:)`` asked for has come (or any time: the core looks at
        /// what is due, and a tick with nothing due does nothing).
        case tick
    }

    /// What a core asks its driver to do. The driver performs effects in the order given.
    public enum Effect: Sendable {
        /// Read the data for the key from the disk cache, then report ``Event/diskRead(_:_:)``.
        case readDisk(WorkID, Request.DataKey)
        /// Load the data for the key, then report ``Event/loaded(_:_:)``.
        case load(WorkID, Request.DataKey)
        /// Store loaded data in the disk cache; nothing to report.
        case writeDisk(Request.DataKey, [UInt8])
        /// Stop the load (readDisk or load) under way; report ``Event/diskRead(_:_:)`` or
        /// ``Event/loaded(_:_:)`` once it has really stopped.
        case cancelLoad(WorkID)
        /// Process the data for the request, then report ``Event/processed(_:_:)``.
        case process(WorkID, Request, [UInt8])
        /// Stop the processing job under way; report ``Event/processed(_:_:)`` once it has
        /// really stopped.
        case cancelProcessing(WorkID)
        /// Hand a request's outcome to one consumer. Each consumer is answered at most once per
        /// request, and never after it cancelled.
        case deliver(ContentConsumerID, Request, Result<Value, ContentError>, RequestTimings)
        /// Send ``Event/tick`` at this time on the core's clock (a load will be due for its
        /// hedge, ``LoadHedging``). A later wake-up replaces an earlier one asked
        /// for and not yet due; a driver that ticks anyway (every frame) may ignore it.
        case wake(at: Duration)
    }
}
