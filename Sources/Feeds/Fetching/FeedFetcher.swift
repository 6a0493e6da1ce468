import Foundation
import HTTPLoading

/// What to fetch: a feed's address and the validators of its last fetch.
public struct FeedFetchRequest: Hashable, Sendable {
    /// The feed's address: `http:`, `https:` or `file:`.
    public var url: URL
    /// The `ETag` of the last response, sent as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` of the last response, sent as `If-Modified-Since`.
    public var lastModified: String?

    /// Creates a request; without validators the fetch is unconditional.
    public init(url: URL, etag: String? = nil, lastModified: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// What a server said about a feed it is sending, before the body.
public struct FeedResponse: Sendable, Hashable {
    /// The charset declared in `Content-Type`, for the parser.
    public var charset: String?
    /// Validators for the next conditional fetch.
    public var etag: String?
    public var lastModified: String?
    /// Where the feed was finally found, after redirects.
    public var finalURL: URL
    /// The feed's new address, when every redirect on the way was permanent.
    public var permanentRedirect: URL?

    /// A response; without a charset the parser reads the document's own declaration.
    public init(charset: String? = nil, etag: String? = nil, lastModified: String? = nil, finalURL: URL,
                permanentRedirect: URL? = nil) {
        self.charset = charset
        self.etag = etag
        self.lastModified = lastModified
        self.finalURL = finalURL
        self.permanentRedirect = permanentRedirect
    }
}

/// A feed's body as it arrives: pieces of bytes, at most ``FeedFetcher/Configuration/maxBodySize``
/// in all (decompressed), failing with ``FeedFetchError`` on a broken or oversized transfer.
public struct FeedBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    let body: HTTPBody

    init(body: HTTPBody) {
        self.body = body
    }

    /// A body made of the pieces `stream` yields, at most `limit` bytes in all: for fetchers
    /// other than ``FeedFetcher``, and for tests that script a transfer.
    public init(_ stream: AsyncThrowingStream<[UInt8], any Error>, limit: Int = FeedFetcher.Configuration().maxBodySize) {
        body = HTTPBody(stream, limit: limit)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator())
    }

    /// Hands out the body's pieces, counting them against the limit.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator

        public mutating func next() async throws -> [UInt8]? {
            do {
                return try await base.next()
            } catch {
                throw FeedFetcher.translate(error)
            }
        }
    }
}

/// The outcome of opening a feed: nothing new, or its response and a body still arriving.
public enum FeedOpening: Sendable {
    /// The feed has not changed since the validators were given (HTTP 304).
    case notModified(permanentRedirect: URL?)
    /// The feed's response; read ``FeedBody`` to receive its bytes as they arrive.
    case opened(FeedResponse, FeedBody)
}

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

/// Fetches feeds politely: conditional GET (a 304 costs no parsing), gzip and deflate,
/// permanent redirects reported so that the stored address can follow them, timeouts, a size
/// limit, and a limit on how many feeds are fetched at once. The transfer itself (redirects,
/// limits, `file:` URLs, typed errors) is ``HTTPDataLoader``'s.
///
/// Call ``shutdown()`` before dropping the fetcher: it owns an HTTP client.
public final class FeedFetcher: Sendable {
    /// Limits.
    public struct Configuration: Sendable {
        /// The longest one request may take.
        public var timeout: Duration = .seconds(30)
        /// Redirects followed before giving up.
        public var maxRedirects = 5
        /// The largest feed accepted, after decompression; the parser's limit by default.
        public var maxBodySize = 64 << 20
        /// How many feeds a refresh of all of them fetches at once.
        public var maxConcurrentFetches = 4
        /// Sent as `User-Agent`.
        public var userAgent = "Scrollwork (feed reader)"

        /// The defaults above.
        public init() {}
    }

    /// The limits in force.
    public let configuration: Configuration
    private let loader: HTTPDataLoader

    /// Creates a fetcher with its own HTTP client.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var transfer = HTTPDataLoader.Configuration()
        transfer.requestTimeout = configuration.timeout
        transfer.maxRedirects = configuration.maxRedirects
        transfer.maxBodySize = configuration.maxBodySize
        loader = HTTPDataLoader(configuration: transfer)
    }

    /// Shuts the HTTP client down; fetches after this fail.
    public func shutdown() async throws {
        try await loader.shutdown()
    }

    /// Opens one feed: follows redirects, sends the validators, and returns the response with
    /// a body to read as it arrives, so parsing can start before the download ends.
    public func open(_ request: FeedFetchRequest) async throws(FeedFetchError) -> FeedOpening {
        var headers = [
            (name: "User-Agent", value: configuration.userAgent),
            ("Accept-Encoding", "gzip, deflate"),
            ("Accept", "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8"),
        ]
        if let etag = request.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = request.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        let opening: HTTPOpening
        do {
            opening = try await loader.open(request.url, headers: headers)
        } catch {
            throw Self.translate(error)
        }
        let allPermanent = opening.redirects.allSatisfy { $0 == 301 || $0 == 308 }
        let moved = allPermanent && !opening.redirects.isEmpty ? opening.finalURL : nil
        switch opening.status {
        case 304:
            return .notModified(permanentRedirect: moved)
        case 200..<300:
            let head = FeedResponse(
                charset: opening.header("Content-Type").flatMap(Self.charset),
                etag: opening.header("ETag"),
                lastModified: opening.header("Last-Modified"),
                finalURL: opening.finalURL,
                permanentRedirect: moved)
            return .opened(head, FeedBody(body: opening.body))
        default:
            throw .status(opening.status)
        }
    }

    /// The `charset` parameter of a `Content-Type` value.
    static func charset(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
        }
        return nil
    }

    /// A transfer's failure in the feed's terms.
    static func translate(_ error: any Error) -> FeedFetchError {
        if let error = error as? FeedFetchError { return error }
        let transfer = error as? HTTPLoadingError ?? (error is CancellationError ? .cancelled : .connectionFailed(String(describing: error)))
        switch transfer {
        case .unsupportedScheme(let scheme): return .unsupportedScheme(scheme)
        case .refused(let url, let reason): return .refused(url, reason: reason)
        case .connectionRefused(let target): return .connectionRefused(target)
        case .status(let code, _): return .status(code)
        case .bodyTooLarge(let limit): return .tooLarge(limit: limit)
        case .timedOut: return .timedOut
        case .tooManyRedirects: return .tooManyRedirects
        case .connectionFailed(let reason): return .connectionFailed(reason)
        case .fileUnreadable(let path): return .fileUnreadable(path)
        case .cancelled: return .cancelled
        }
    }
}
