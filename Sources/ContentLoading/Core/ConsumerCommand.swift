/// What a consumer asks of a ``LoadingCore``: the commands a ``LoaderFront`` emits for its
/// driver to hand to the core, in order.
public enum ConsumerCommand<Request: ContentRequest>: Sendable {
    /// `consumer` asks for `request` at `priority`.
    case request(Request, LoadPriority, ContentConsumerID)
    /// `consumer` changes the priority of its interest in `request`.
    case setPriority(Request, LoadPriority, ContentConsumerID)
    /// `consumer` wants its work for `request` next among the work of its tier.
    case moveToFront(Request, ContentConsumerID)
    /// `consumer` withdraws its interest in `request`.
    case cancel(Request, ContentConsumerID)
}

extension LoadingCore.Event {
    /// The event that performs `command`.
    /// - Complexity: O(1).
    @inlinable
    public init(_ command: ConsumerCommand<Request>) {
        switch command {
        case let .request(request, priority, consumer): self = .request(request, priority, consumer)
        case let .setPriority(request, priority, consumer): self = .setPriority(request, priority, consumer)
        case let .moveToFront(request, consumer): self = .moveToFront(request, consumer)
        case let .cancel(request, consumer): self = .cancel(request, consumer)
        }
    }
}
