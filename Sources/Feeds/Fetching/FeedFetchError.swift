/// Why a fetch failed.
public enum FeedFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedScheme(String)
    /// The feed's URL, or a redirect on the way, goes where no request may (see
    /// `RequestTarget`): the URL and why.
    case refused(String, reason: String)
    /// Nothing listens at the feed's host and port.
    case connectionRefused(String)
    case status(Int)
    case timedOut
    case tooManyRedirects
    case tooLarge(limit: Int)
    case connectionFailed(String)
    case fileUnreadable(String)
    /// The task fetching was cancelled.
    case cancelled

    /// Any failure of a transfer in the feed's terms: a ``FeedFetchError`` as it is, the task's
    /// cancellation as ``cancelled``, anything else as ``connectionFailed(_:)`` with its
    /// description. A fetcher maps the errors it knows better before this.
    public init(_ error: any Error) {
        if let error = error as? FeedFetchError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .connectionFailed(String(describing: error))
        }
    }

    /// The message, with whatever text of the document or server it quotes through ``FeedText``.
    public var description: String { FeedText.line(message) }

    private var message: String {
        switch self {
        case .unsupportedScheme(let scheme): "unsupported URL scheme \"\(scheme)\""
        case .refused(let url, let reason): "refused \(url): \(reason)"
        case .connectionRefused(let target): "connection refused by \(target)"
        case .status(let code): "the server answered HTTP \(code)"
        case .timedOut: "the request timed out"
        case .tooManyRedirects: "too many redirects"
        case .tooLarge(let limit): "the feed is larger than \(limit) bytes"
        case .connectionFailed(let reason): "the connection failed: \(reason)"
        case .fileUnreadable(let path): "cannot read \(path)"
        case .cancelled: "cancelled"
        }
    }
}
