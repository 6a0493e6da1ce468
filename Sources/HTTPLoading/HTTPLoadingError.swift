import AsyncHTTPClient

/// Why an HTTP or file load failed.
public enum HTTPLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is neither `http:`, `https:` nor `file:`.
    case unsupportedScheme(String)
    /// The server answered with a status outside 2xx (and, for 429 and 503, maybe a delay).
    case status(Int, retryAfter: Int?)
    /// The body is larger than the limit.
    case bodyTooLarge(limit: Int)
    /// The connection, a read, or the whole attempt took too long.
    case timedOut
    /// Too many redirects, or a redirect cycle.
    case tooManyRedirects
    /// The connection could not be made or broke.
    case connectionFailed(String)
    /// A `file:` URL that cannot be read.
    case fileUnreadable(String)
    /// The task loading was cancelled.
    case cancelled

    /// Whether trying again may help: timeouts, connection errors, 5xx and 429.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionFailed: true
        case .status(let code, _): code == 429 || (500..<600).contains(code)
        case .unsupportedScheme, .bodyTooLarge, .tooManyRedirects, .fileUnreadable, .cancelled: false
        }
    }

    public var description: String {
        switch self {
        case .unsupportedScheme(let scheme): "unsupported URL scheme \"\(scheme)\""
        case .status(let code, _): "the server answered HTTP \(code)"
        case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
        case .timedOut: "the request timed out"
        case .tooManyRedirects: "too many redirects"
        case .connectionFailed(let reason): "the connection failed: \(reason)"
        case .fileUnreadable(let path): "cannot read \(path)"
        case .cancelled: "cancelled"
        }
    }

    /// The one mapping of the HTTP client's and the task's errors to this type.
    init(_ error: any Error) {
        if let error = error as? HTTPLoadingError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: self = .cancelled
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: self = .timedOut
            case .redirectLimitReached, .redirectCycleDetected: self = .tooManyRedirects
            default: self = .connectionFailed(String(describing: error))
            }
        } else {
            self = .connectionFailed(String(describing: error))
        }
    }
}
