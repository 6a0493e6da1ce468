/// The rule that makes a slot reuse-safe, as a value: every binding of a slot to a request is
/// a generation with a consumer identity of its own, and a result is taken only if it carries
/// the identity of the binding still current.
///
/// ``LoaderFront`` keeps this rule for ``ContentSlot``; the scroll simulation still follows it
/// on its own, until it drives a front too.
public struct SlotBinding<Request: ContentRequest>: Sendable {
    /// The binding in force: the request and the consumer identity of this generation.
    @inlinable
    public var current: (request: Request, consumer: ContentConsumerID)? { binding }

    @usableFromInline var binding: (request: Request, consumer: ContentConsumerID)?

    /// An unbound slot.
    @inlinable
    public init() {}

    /// Starts a new generation for `request` as `consumer`.
    ///
    /// - Precondition: no binding is in force (``end()`` it first and cancel its work).
    /// - Complexity: O(1).
    @inlinable
    public mutating func begin(_ request: Request, consumer: ContentConsumerID) {
        precondition(binding == nil, "SlotBinding: end the binding in force before beginning another")
        binding = (request, consumer)
    }

    /// Ends the current generation, if any.
    ///
    /// - Returns: the binding it ends, whose work the caller cancels.
    /// - Complexity: O(1).
    @inlinable
    @discardableResult
    public mutating func end() -> (request: Request, consumer: ContentConsumerID)? {
        defer { binding = nil }
        return binding
    }

    /// Takes a result that arrived for `consumer`: accepted only from the current generation,
    /// which it ends (a binding is answered once).
    ///
    /// - Returns: the request the result belongs to, or nil when it is stale and must be dropped.
    /// - Complexity: O(1).
    @inlinable
    public mutating func accept(from consumer: ContentConsumerID) -> Request? {
        guard let binding, binding.consumer == consumer else { return nil }
        self.binding = nil
        return binding.request
    }
}
