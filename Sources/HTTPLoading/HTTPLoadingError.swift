import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTPCompression
import NIOPosix

/// Why an HTTP or file load failed.
public enum HTTPLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is neither `http:`, `https:` nor `file:`.
    case unsupportedScheme(String)
    /// ``RequestTarget`` refuses this URL (given, or reached by a redirect), for `reason`.
    case refused(String, reason: String)
    /// The server answered with a status outside 2xx (and, for 429 and 503, maybe a delay).
    case status(Int, retryAfter: Int?)
    /// The body is larger than the limit.
    case bodyTooLarge(limit: Int)
    /// The connection, a read, or the whole attempt took too long.
    case timedOut
    /// Too many redirects, or a redirect cycle.
    case tooManyRedirects
    /// Nothing listens at the host and port: the host answered at once that it refuses.
    case connectionRefused(String)
    /// The connection could not be made or broke.
    case connectionFailed(String)
    /// A `file:` URL that cannot be read.
    case fileUnreadable(String)
    /// The value of the header named here holds a character HTTP forbids (a line break or
    /// another control character); the value itself, maybe a credential, is never repeated.
    case invalidHeaderValue(String)
    /// The task loading was cancelled.
    case cancelled

    /// Whether trying again may help: timeouts, connection errors other than a refusal, 5xx
    /// and 429.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionFailed: true
        case .status(let code, _): code == 429 || (500..<600).contains(code)
        case .unsupportedScheme, .refused, .connectionRefused, .bodyTooLarge, .tooManyRedirects, .fileUnreadable,
             .invalidHeaderValue, .cancelled: false
        }
    }

    public var description: String {
        switch self {
        case .unsupportedScheme(let scheme): "unsupported URL scheme \"\(scheme)\""
        case .refused(let url, let reason): "refused \(url): \(reason)"
        case .connectionRefused(let target): "connection refused by \(target)"
        case .status(let code, _): "the server answered HTTP \(code)"
        case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
        case .timedOut: "the request timed out"
        case .tooManyRedirects: "too many redirects"
        case .connectionFailed(let reason): "the connection failed: \(reason)"
        case .fileUnreadable(let path): "cannot read \(path)"
        case .invalidHeaderValue(let name): "the value of header \(name) holds a character HTTP forbids"
        case .cancelled: "cancelled"
        }
    }

    /// The one mapping of the HTTP client's and the task's errors to this type; `url` names
    /// the target of a refused connection, `bodyLimit` the most bytes the body could have once
    /// decompressed.
    init(_ error: any Error, url: URL? = nil, bodyLimit: Int) {
        if let error = error as? HTTPLoadingError {
            self = error
        } else if let error = error as? NIOHTTPDecompression.DecompressionError {
            // The client decompresses up to the body's limit: a body that expands past it is
            // too large (not a failed connection, which would be tried again).
            self = error == .limit ? .bodyTooLarge(limit: bodyLimit) : .connectionFailed("the body's compression is broken")
        } else if error is NIOHTTPDecompression.ExtraDecompressionError {
            self = .connectionFailed("the body's compression is broken")
        } else if error is CancellationError {
            self = .cancelled
        } else if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: self = .cancelled
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: self = .timedOut
            case .redirectLimitReached, .redirectCycleDetected: self = .tooManyRedirects
            default: self = .connectionFailed(String(describing: error))
            }
        } else if let code = Self.errno(of: error) {
            let target = url.map { "\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")" } ?? "the host"
            switch code {
            case ECONNREFUSED: self = .connectionRefused(target)
            case EHOSTUNREACH, ENETUNREACH: self = .connectionFailed("\(target) is unreachable")
            case ECONNRESET: self = .connectionFailed("\(target) reset the connection")
            default: self = .connectionFailed("\(target): \(String(cString: strerror(code)))")
            }
        } else {
            self = .connectionFailed(String(describing: error))
        }
    }

    /// The system error behind a failed connection, if that is what `error` is.
    private static func errno(of error: any Error) -> Int32? {
        if let error = error as? IOError { return error.errnoCode }
        if let error = error as? NIOConnectionError {
            // Every address tried (IPv4 and IPv6) failed; the first says why.
            return error.connectionErrors.lazy.compactMap { ($0.error as? IOError)?.errnoCode }.first
        }
        return nil
    }
}
