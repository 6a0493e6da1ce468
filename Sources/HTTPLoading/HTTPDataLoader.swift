import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Loads data over HTTP(S) with AsyncHTTPClient, and from `file:` URLs.
///
/// - Timeouts: a connect timeout, a read timeout (no bytes for that long), and a deadline for
///   each attempt as a whole, redirects and body included: a server that trickles its body
///   fails at the deadline. The time a reader spends with each piece of the body is its own,
///   and moves the deadline later. A refused connection fails at once, and is not retried.
/// - Where requests go: ``RequestTarget`` judges every URL and every redirect (http and https
///   only, and no redirect from a public host to a local one).
/// - Redirects: followed up to ``Configuration/maxRedirects``, cycles refused; ``open(_:headers:)``
///   reports each one, so a caller can tell a permanent move from a temporary one. A POST
///   (``send(_:)``) follows fewer: see there.
/// - Credentials: `Authorization`, `Proxy-Authorization` and `Cookie` go only to the host and
///   port the request names, never from `https` down to `http`, and never into an error or a
///   description.
/// - Size: a body past ``Configuration/maxBodySize`` (after decompression) aborts the transfer
///   with ``HTTPLoadingError/bodyTooLarge(limit:)``, however the server declares its length.
/// - Cancellation: cancelling the calling task closes the connection, during the headers or
///   in the middle of the body.
/// - Retries: ``loadData(for:)`` retries transient failures (timeouts, connection errors, 5xx,
///   and 429, honouring `Retry-After`) with exponential backoff and jitter; other 4xx never are.
///
/// The HTTP client is made on the first load over HTTP: a loader that never fetches starts no
/// event loop and costs nothing at launch. Call ``shutdown()`` before dropping the loader.
public final class HTTPDataLoader: Sendable {
    /// Limits and retry policy.
    public struct Configuration: Sendable {
        /// Time to establish a connection.
        public var connectTimeout: Duration = .seconds(10)
        /// The longest wait for the next bytes.
        public var readTimeout: Duration = .seconds(30)
        /// The longest one attempt may take in all: connecting, redirects, the head and the body
        /// (not counting the time the body's reader spends with each piece).
        public var requestTimeout: Duration = .seconds(60)
        /// Redirects followed before giving up.
        public var maxRedirects = 5
        /// The largest body accepted, in bytes, after decompression; 20 MiB by default.
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
    /// The HTTP client, once made; shut down, nothing more is made.
    private let client = NIOLockedValueBox(ClientState.notMade)
    private let clock: any Clock<Duration>
    private let jitter: @Sendable () -> Double

    private enum ClientState {
        case notMade
        case made(HTTPClient)
        case shutDown
    }

    /// Creates a loader, which makes its own HTTP client when it first needs one.
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
    }

    /// The HTTP client's configuration, made with the client: its TLS defaults alone bring
    /// AsyncHTTPClient's and NIOSSL's code into memory, which a reader that fetches nothing over
    /// HTTP (a feed from a file, pictures from the disk cache) never needs.
    private var clientConfiguration: HTTPClient.Configuration {
        HTTPClient.Configuration(
            // Followed by hand, so that each hop can be reported.
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(configuration.connectTimeout), read: TimeAmount(configuration.readTimeout)),
            connectionPool: Self.connectionPool,
            decompression: .enabled(limit: .size(configuration.maxBodySize))
        )
    }

    /// The HTTP client, made now if it is the first one asked for.
    /// - Throws: `HTTPClientError.alreadyShutdown` after ``shutdown()``.
    private func httpClient() throws -> HTTPClient {
        try client.withLockedValue { state in
            switch state {
            case .made(let client):
                return client
            case .notMade:
                let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
                state = .made(client)
                return client
            case .shutDown:
                throw HTTPClientError.alreadyShutdown
            }
        }
    }

    /// Whether the HTTP client has been made: a loader that has loaded nothing over HTTP has
    /// none.
    var hasClient: Bool {
        client.withLockedValue { if case .made = $0 { true } else { false } }
    }

    /// The client's pool tries a failed connection once: by default it would try again until
    /// the connect timeout, so that a refused connection took 10 seconds to report. Transient
    /// failures are retried by ``loadData(for:)``, with backoff.
    private static var connectionPool: HTTPClient.Configuration.ConnectionPool {
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.retryConnectionEstablishment = false
        return pool
    }

    /// A loader given up without ``shutdown()`` (its owner failed on the way there, or was
    /// cancelled) still shuts its client down, in the background: the connections are closed,
    /// and AsyncHTTPClient, which traps on a client released while running, is satisfied (the
    /// shutdown under way keeps the client alive until it is done).
    deinit {
        guard case .made(let made) = client.withLockedValue({ $0 }) else { return }
        made.shutdown(queue: .global()) { _ in }
    }

    /// Shuts the HTTP client down, if one was made; loads after this fail.
    public func shutdown() async throws {
        let made = client.withLockedValue { state -> HTTPClient? in
            defer { state = .shutDown }
            if case .made(let client) = state { return client }
            return nil
        }
        try await made?.shutdown()
    }

    /// The whole body at `url`, retrying transient failures.
    ///
    /// - Throws: ``HTTPLoadingError``, or `CancellationError` when the calling task is cancelled.
    public func loadData(for url: URL) async throws -> [UInt8] {
        do {
            if url.isFileURL { return try await FileReader.read(url, limit: configuration.maxBodySize) }
            return try await loadWithRetries(url)
        } catch .cancelled {
            throw CancellationError()
        }
    }

    /// Opens `url` in one attempt: sends `headers`, follows redirects, and returns the final
    /// response, whatever its status, with a body to read as it arrives. A `file:` URL opens
    /// as a 200 with the file as its body.
    public func open(_ url: URL, headers: [(name: String, value: String)] = []) async throws(HTTPLoadingError) -> HTTPOpening {
        switch url.scheme?.lowercased() {
        case "http", "https":
            return try await openHTTP(Request(method: .get, url: url, headers: headers))
        case "file":
            // Streamed in pieces like a network body: a 20 MB feed file never sits in memory whole.
            return HTTPOpening(
                status: 200, headers: [], finalURL: url, redirects: [],
                body: HTTPBody(source: .file(try FileReader(path: url.path)), limit: configuration.maxBodySize))
        default:
            throw .unsupportedScheme(url.scheme ?? "")
        }
    }

    /// Sends `request` in one attempt and reads its whole reply, whatever its status: a 401 or
    /// a 500 is a reply with its body, for the caller to act on.
    ///
    /// The rules of ``open(_:headers:)`` hold: ``RequestTarget`` on the URL (so no `file:`) and
    /// on every redirect, one deadline over the whole exchange, the body limit. And:
    /// - A GET follows redirects. A POST follows only a 307 or 308 (which keep the method) to
    ///   its own host and port, not from `https` down to `http`, and sends its body again there;
    ///   any other redirect of a POST is the reply. Its body, which may hold a password, never
    ///   goes to another host or port, and it is never turned into a GET.
    /// - Nothing is retried: whether a failure is worth another try is the caller's to judge
    ///   (``HTTPLoadingError/isTransient``), since a POST may change something.
    ///
    /// - Throws: ``HTTPLoadingError``; ``HTTPLoadingError/bodyTooLarge(limit:)`` past
    ///   ``Configuration/maxBodySize``, whatever the status.
    ///
    /// The body is collected where it arrives, on the client's event loop (``BodyCollector``),
    /// and the calling task wakes once, when it is whole.
    public func send(_ request: Request) async throws(HTTPLoadingError) -> HTTPReply {
        let reply = try await collecting(request, successesOnly: false)
        return HTTPReply(status: reply.status, headers: reply.headers.map { ($0.name, $0.value) }, body: reply.body)
    }

    /// The final response to `request`, its body collected on the client's event loop
    /// (``BodyCollector``); with `successesOnly`, any other than a success or a redirect fails
    /// with ``HTTPLoadingError/status(_:retryAfter:)`` as its head arrives, its body unread.
    private func collecting(_ request: Request, successesOnly: Bool) async throws(HTTPLoadingError) -> HTTPHop<[UInt8]> {
        let limit = configuration.maxBodySize
        return try await following(request) { url, deadline in
            var outgoing = try HTTPClient.Request(url: url.absoluteString, method: request.method == .post ? .POST : .GET)
            for header in Self.headers(of: request, to: url) { outgoing.headers.add(name: header.name, value: header.value) }
            if request.method == .post { outgoing.body = .bytes(request.body) }
            let collector = BodyCollector(limit: limit, successesOnly: successesOnly)
            let task = try self.httpClient().execute(request: outgoing, delegate: collector, deadline: deadline)
            return try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        }.response
    }

    private func loadWithRetries(_ url: URL) async throws(HTTPLoadingError) -> [UInt8] {
        var attempt = 1
        while true {
            do {
                return try await loadOnce(url)
            } catch where error.isTransient && attempt < configuration.maxAttempts {
                do {
                    try await clock.sleep(for: delay(before: attempt + 1, after: error))
                } catch {
                    throw .cancelled
                }
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

    /// One attempt of ``loadData(for:)`` at a URL that is not a file's.
    private func loadOnce(_ url: URL) async throws(HTTPLoadingError) -> [UInt8] {
        guard ["http", "https"].contains(url.scheme?.lowercased()) else { throw .unsupportedScheme(url.scheme ?? "") }
        let response = try await collecting(Request(method: .get, url: url), successesOnly: true)
        // A redirect not followed (its `Location` no URL) is the final response.
        guard (200..<300).contains(response.status) else { throw Self.failure(status: response.status, headers: response.headers) }
        return response.body
    }

    /// The error a load that wants a body meets in a response with `status`, not a success:
    /// the status, and the delay its `Retry-After` asks for.
    static func failure(status: Int, headers: HTTPHeaders) -> HTTPLoadingError {
        .status(status, retryAfter: headers.first(name: "Retry-After").flatMap(retryAfterSeconds))
    }

    /// Whether a success's `Content-Length` declares a body past `limit`: it fails before its
    /// body is read.
    static func declaresTooLarge(status: Int, headers: HTTPHeaders, limit: Int) -> Bool {
        guard (200..<300).contains(status), let length = headers.first(name: "Content-Length").flatMap(Int.init) else { return false }
        return length > limit
    }

    private func openHTTP(_ request: Request) async throws(HTTPLoadingError) -> HTTPOpening {
        let (response, url, redirects, deadline) = try await following(request) { url, deadline in
            let response = try await self.httpClient().execute(Self.clientRequest(request, to: url), deadline: deadline)
            return HTTPHop(status: Int(response.status.code), headers: response.headers, body: response.body)
        }
        let limit = configuration.maxBodySize
        if Self.declaresTooLarge(status: response.status, headers: response.headers, limit: limit) { throw .bodyTooLarge(limit: limit) }
        return HTTPOpening(
            status: response.status, headers: response.headers.map { ($0.name, $0.value) }, finalURL: url,
            redirects: redirects, body: HTTPBody(source: .http(response.body, deadline: deadline), limit: limit))
    }

    /// One attempt at `request`: `exchange` sends it to a URL by a deadline and returns the
    /// response, its body as the exchange reads it; redirects are followed as ``send(_:)`` says,
    /// every URL under ``RequestTarget``, all before one deadline. The final response, its URL,
    /// the redirects followed and the deadline, which its body must meet too.
    private func following<Body: Sendable>(
        _ request: Request, _ exchange: (URL, NIODeadline) async throws -> HTTPHop<Body>
    ) async throws(HTTPLoadingError) -> (response: HTTPHop<Body>, url: URL, redirects: [Int], deadline: NIODeadline) {
        let start = request.url
        try RequestTarget.check(start)
        // Checked here, so that the HTTP client's own error, which quotes the values, never
        // carries a credential.
        if let invalid = request.headers.first(where: { !Self.isValidHeaderValue($0.value) }) {
            throw .invalidHeaderValue(invalid.name)
        }
        // One deadline for the whole attempt: every hop, the head and the body.
        let deadline = NIODeadline.now() + TimeAmount(configuration.requestTimeout)
        var url = start
        var visited: Set<URL> = [start]
        var redirects: [Int] = []
        for _ in 0...configuration.maxRedirects {
            let response: HTTPHop<Body>
            do {
                response = try await exchange(url, deadline)
            } catch {
                throw HTTPLoadingError(error, url: url, bodyLimit: configuration.maxBodySize)
            }
            let status = response.status
            if [301, 302, 303, 307, 308].contains(status),
               let location = response.headers.first(name: "Location"),
               let next = URL(string: location, relativeTo: url)?.absoluteURL,
               request.method == .get || ([307, 308].contains(status) && Self.mayReceiveCredentials(next, sentTo: start)) {
                try RequestTarget.check(next, redirectedFrom: url)
                guard visited.insert(next).inserted else { throw .tooManyRedirects }
                redirects.append(status)
                url = next
                continue
            }
            return (response, url, redirects, deadline)
        }
        throw .tooManyRedirects
    }

    /// `request` as the HTTP client sends it to `url`, its first URL or a redirect's: the
    /// credentials only where ``mayReceiveCredentials(_:sentTo:)``, the body with a POST.
    private static func clientRequest(_ request: Request, to url: URL) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = request.method == .post ? .POST : .GET
        for header in headers(of: request, to: url) { outgoing.headers.add(name: header.name, value: header.value) }
        if request.method == .post { outgoing.body = .bytes(request.body) }
        return outgoing
    }

    /// The headers of `request` that go to `url`, its first URL or a redirect's: the
    /// credentials only where ``mayReceiveCredentials(_:sentTo:)``.
    private static func headers(of request: Request, to url: URL) -> [(name: String, value: String)] {
        let withCredentials = mayReceiveCredentials(url, sentTo: request.url)
        return request.headers.filter { withCredentials || !Request.isCredential($0.name) }
    }

    /// Whether `url`, reached from the request's `start`, may receive its credentials and a
    /// POST's body: the same origin (scheme, host and port), as a browser or curl judges it; a
    /// server on another port of the same host is another service, maybe another user's. The
    /// one change allowed is the usual upgrade of a host to TLS, from `http` on its default
    /// port to `https` on its default port; never from `https` down to `http`.
    private static func mayReceiveCredentials(_ url: URL, sentTo start: URL) -> Bool {
        guard (url.host ?? "").lowercased() == (start.host ?? "").lowercased() else { return false }
        let from = start.scheme?.lowercased(), to = url.scheme?.lowercased()
        // A URL that is not fetched (`unix:`, `file:`) is never sent to: ``RequestTarget``
        // refuses it next, with its reason, as it did before ports were compared.
        guard RequestTarget.isFetchable(url) else { return !(from == "https" && to != "https") }
        let fromPort = effectivePort(start), toPort = effectivePort(url)
        if from == to { return fromPort != nil && fromPort == toPort }
        return from == "http" && to == "https" && fromPort == 80 && toPort == 443
    }

    /// The port `url` reaches: the one it names, or its scheme's default.
    private static func effectivePort(_ url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// Whether `value` may be sent as a header's value: no control character but a tab (RFC
    /// 9110, as the HTTP client checks it).
    private static func isValidHeaderValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
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
}
