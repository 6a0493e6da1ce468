import AsyncHTTPClient
import Foundation
import NIOCore

/// Loads data over HTTP(S) with AsyncHTTPClient, and from `file:` URLs.
///
/// - Timeouts: a connect timeout, a read timeout (no bytes for that long), and a deadline for
///   each attempt as a whole.
/// - Redirects: followed up to ``Configuration/maxRedirects``, cycles refused.
/// - Size: a body past ``Configuration/maxBodySize`` aborts the transfer with
///   ``HTTPLoadingError/bodyTooLarge(limit:)``, however the server declares its length.
/// - Cancellation: cancelling the calling task closes the connection, during the headers or
///   in the middle of the body, and the call throws `CancellationError`.
/// - Retries: transient failures (timeouts, connection errors, 5xx, and 429, honouring
///   `Retry-After`) are retried with exponential backoff and jitter; other 4xx never are.
///
/// Call ``shutdown()`` before dropping the loader: it owns an HTTP client.
public final class HTTPDataLoader: DataLoading, Sendable {
    public typealias Key = URL

    /// Limits and retry policy.
    public struct Configuration: Sendable {
        /// Time to establish a connection.
        public var connectTimeout: Duration = .seconds(10)
        /// The longest wait for the next bytes.
        public var readTimeout: Duration = .seconds(30)
        /// The longest one attempt may take in all.
        public var requestTimeout: Duration = .seconds(60)
        /// Redirects followed before giving up.
        public var maxRedirects = 5
        /// The largest body accepted, in bytes; 20 MiB by default.
        public var maxBodySize = 20 << 20
        /// Attempts in all for a transient failure, the first included.
        public var maxAttempts = 3
        /// The delay before the first retry; each further retry doubles it.
        public var baseRetryDelay: Duration = .milliseconds(250)
        /// The longest delay between attempts, `Retry-After` included.
        public var maxRetryDelay: Duration = .seconds(10)

        /// The defaults above.
        public init() {}
    }

    /// The limits in force.
    public let configuration: Configuration
    private let client: HTTPClient
    private let clock: any Clock<Duration>
    private let jitter: @Sendable () -> Double

    /// Creates a loader with its own HTTP client.
    ///
    /// - Parameters:
    ///   - clock: waits between retries; tests pass one that does not really wait.
    ///   - jitter: a random number in 0...1 per retry; the delay is scaled by 0.5 plus half of it.
    public init(
        configuration: Configuration = Configuration(),
        clock: any Clock<Duration> = ContinuousClock(),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.jitter = jitter
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .follow(max: configuration.maxRedirects, allowCycles: false),
                timeout: .init(connect: TimeAmount(configuration.connectTimeout), read: TimeAmount(configuration.readTimeout))
            )
        )
    }

    /// Shuts the HTTP client down; loads after this fail.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func loadData(for url: URL) async throws -> [UInt8] {
        switch url.scheme?.lowercased() {
        case "http", "https":
            return try await loadWithRetries(url)
        case "file":
            return try await loadFile(url)
        default:
            throw HTTPLoadingError.unsupportedScheme(url.scheme ?? "")
        }
    }

    private func loadWithRetries(_ url: URL) async throws -> [UInt8] {
        var attempt = 1
        while true {
            do {
                return try await loadOnce(url)
            } catch let error as HTTPLoadingError where error.isTransient && attempt < configuration.maxAttempts {
                try await clock.sleep(for: delay(before: attempt + 1, after: error))
                attempt += 1
            }
        }
    }

    /// The wait before `attempt`: `Retry-After` if the server said so, else exponential
    /// backoff with jitter; never longer than the maximum.
    func delay(before attempt: Int, after error: HTTPLoadingError) -> Duration {
        if case .status(_, let retryAfter?) = error {
            return min(.seconds(retryAfter), configuration.maxRetryDelay)
        }
        let exponential = configuration.baseRetryDelay * (1 << min(attempt - 2, 20))
        let jittered = exponential * (0.5 + 0.5 * min(max(jitter(), 0), 1))
        return min(jittered, configuration.maxRetryDelay)
    }

    private func loadOnce(_ url: URL) async throws -> [UInt8] {
        let request = HTTPClientRequest(url: url.absoluteString)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: TimeAmount(configuration.requestTimeout))
        } catch {
            throw Self.translate(error)
        }
        guard (200..<300).contains(response.status.code) else {
            let retryAfter = response.headers.first(name: "Retry-After").flatMap(Self.retryAfterSeconds)
            throw HTTPLoadingError.status(Int(response.status.code), retryAfter: retryAfter)
        }
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > configuration.maxBodySize {
            throw HTTPLoadingError.bodyTooLarge(limit: configuration.maxBodySize)
        }
        var body: [UInt8] = []
        do {
            for try await buffer in response.body {
                guard body.count + buffer.readableBytes <= configuration.maxBodySize else {
                    throw HTTPLoadingError.bodyTooLarge(limit: configuration.maxBodySize)
                }
                body += buffer.readableBytesView
            }
        } catch {
            throw Self.translate(error)
        }
        return body
    }

    private func loadFile(_ url: URL) async throws -> [UInt8] {
        let limit = configuration.maxBodySize
        let result: Result<[UInt8], HTTPLoadingError> = await DiskQueue.run {
            guard let handle = FileHandle(forReadingAtPath: url.path) else {
                return .failure(.fileUnreadable(url.path))
            }
            defer { try? handle.close() }
            guard let data = try? handle.read(upToCount: limit + 1) else { return .success([]) }
            return data.count > limit ? .failure(.bodyTooLarge(limit: limit)) : .success([UInt8](data))
        }
        try Task.checkCancellation()
        return try result.get()
    }

    /// `Retry-After` as delay seconds or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Int? {
        if let seconds = Int(value.trimmingCharacters(in: .whitespaces)) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, Int(date.timeIntervalSinceNow.rounded(.up)))
    }

    private static func translate(_ error: any Error) -> any Error {
        if error is CancellationError || error is HTTPLoadingError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return CancellationError()
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return HTTPLoadingError.timedOut
            case .redirectLimitReached, .redirectCycleDetected: return HTTPLoadingError.tooManyRedirects
            default: return HTTPLoadingError.connectionFailed(String(describing: error))
            }
        }
        return HTTPLoadingError.connectionFailed(String(describing: error))
    }
}

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

    /// Whether trying again may help: timeouts, connection errors, 5xx and 429.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionFailed: true
        case .status(let code, _): code == 429 || (500..<600).contains(code)
        case .unsupportedScheme, .bodyTooLarge, .tooManyRedirects, .fileUnreadable: false
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
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
