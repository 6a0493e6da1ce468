/// Identifies one consumer's interest in one request: a slot's binding, a prefetch.
public struct ContentConsumerID: Hashable, Sendable {
    @usableFromInline let value: UInt64

    /// A new identity, unique across all pipelines and cores of the process.
    @inlinable
    public init() {
        value = consumerCounter.withLock { counter in
            counter += 1
            return counter
        }
    }
}

/// Consumer identities are unique across all pipelines of a process.
@usableFromInline let consumerCounter = Locked<UInt64>(0)
