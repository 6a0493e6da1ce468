import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

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

/// A feed's bytes as fetched, with what the reader should remember for next time.
public struct FetchedFeed: Sendable {
    /// The body, decompressed.
    public var body: [UInt8]
    /// The charset the server declared in `Content-Type`, for the parser.
    public var charset: String?
    /// Validators for the next conditional fetch.
    public var etag: String?
    public var lastModified: String?
    /// Where the feed was finally found, after redirects.
    public var finalURL: URL
    /// The feed's new address, when every redirect on the way was permanent (301 or 308): the
    /// stored address should change to it.
    public var permanentRedirect: URL?
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

    enum Source: Sendable {
        case http(HTTPClientResponse.Body)
        case file(FileChunkReader)
        case stream(AsyncThrowingStream<[UInt8], any Error>)
    }

    let source: Source
    let limit: Int

    init(source: Source, limit: Int) {
        self.source = source
        self.limit = limit
    }

    /// A body made of the pieces `stream` yields, at most `limit` bytes in all: for fetchers
    /// other than ``FeedFetcher``, and for tests that script a transfer.
    public init(_ stream: AsyncThrowingStream<[UInt8], any Error>, limit: Int = FeedFetcher.Configuration().maxBodySize) {
        self.init(source: .stream(stream), limit: limit)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .http(let body): AsyncIterator(piece: .http(body.makeAsyncIterator()), limit: limit)
        case .file(let reader): AsyncIterator(piece: .file(reader), limit: limit)
        case .stream(let stream): AsyncIterator(piece: .stream(stream.makeAsyncIterator()), limit: limit)
        }
    }

    /// Hands out the body's pieces, counting them against the limit.
    public struct AsyncIterator: AsyncIteratorProtocol {
        enum Piece {
            case http(HTTPClientResponse.Body.AsyncIterator)
            case file(FileChunkReader)
            case stream(AsyncThrowingStream<[UInt8], any Error>.AsyncIterator)
            case finished
        }

        var piece: Piece
        let limit: Int
        var received = 0

        public mutating func next() async throws -> [UInt8]? {
            let bytes: [UInt8]?
            do {
                switch piece {
                case .http(var iterator):
                    bytes = try await iterator.next().map { Array($0.readableBytesView) }
                    piece = .http(iterator)
                case .file(let reader):
                    bytes = try await reader.next()
                case .stream(var iterator):
                    bytes = try await iterator.next()
                    piece = .stream(iterator)
                case .finished:
                    return nil
                }
            } catch {
                piece = .finished
                throw FeedFetcher.translate(error)
            }
            guard let bytes else {
                piece = .finished
                return nil
            }
            received += bytes.count
            guard received <= limit else {
                piece = .finished
                throw FeedFetchError.tooLarge(limit: limit)
            }
            return bytes
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

/// The outcome of a fetch.
public enum FeedFetchResult: Sendable {
    /// The feed has not changed since the validators were given (HTTP 304): nothing to parse.
    case notModified(permanentRedirect: URL?)
    /// The feed's bytes.
    case fetched(FetchedFeed)
}

/// Why a fetch failed.
public enum FeedFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedScheme(String)
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
/// redirects followed by hand so that permanent ones can update the stored address, timeouts,
/// a size limit, and a limit on how many feeds are fetched at once.
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
        /// How many feeds ``fetchAll(_:)`` fetches at once.
        public var maxConcurrentFetches = 4
        /// Sent as `User-Agent`.
        public var userAgent = "Scrollwork (feed reader)"

        /// The defaults above.
        public init() {}
    }

    /// The limits in force.
    public let configuration: Configuration
    private let client: HTTPClient

    /// Creates a fetcher with its own HTTP client.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: .seconds(10), read: .seconds(30)),
                decompression: .enabled(limit: .size(configuration.maxBodySize))
            )
        )
    }

    /// Shuts the HTTP client down; fetches after this fail.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Fetches one feed, its whole body in memory (at most ``Configuration/maxBodySize``).
    public func fetch(_ request: FeedFetchRequest) async throws(FeedFetchError) -> FeedFetchResult {
        switch try await open(request) {
        case .notModified(let moved):
            return .notModified(permanentRedirect: moved)
        case .opened(let response, let body):
            var bytes: [UInt8] = []
            do {
                for try await piece in body { bytes += piece }
            } catch let error as FeedFetchError {
                throw error
            } catch {
                throw Self.translate(error)
            }
            return .fetched(FetchedFeed(
                body: bytes, charset: response.charset, etag: response.etag, lastModified: response.lastModified,
                finalURL: response.finalURL, permanentRedirect: response.permanentRedirect))
        }
    }

    /// Opens one feed: follows redirects, sends the validators, and returns the response with
    /// a body to read as it arrives, so parsing can start before the download ends.
    public func open(_ request: FeedFetchRequest) async throws(FeedFetchError) -> FeedOpening {
        switch request.url.scheme?.lowercased() {
        case "http", "https":
            return try await openHTTP(request)
        case "file":
            let reader = try FileChunkReader(path: request.url.path)
            let response = FeedResponse(charset: nil, etag: nil, lastModified: nil, finalURL: request.url, permanentRedirect: nil)
            return .opened(response, FeedBody(source: .file(reader), limit: configuration.maxBodySize))
        default:
            throw .unsupportedScheme(request.url.scheme ?? "")
        }
    }

    /// Fetches many feeds, at most ``Configuration/maxConcurrentFetches`` at once.
    ///
    /// - Returns: one result per request, in the order of `requests`.
    public func fetchAll(_ requests: [FeedFetchRequest]) async -> [Result<FeedFetchResult, FeedFetchError>] {
        await mapConcurrently(requests, limit: configuration.maxConcurrentFetches) { request in
            do throws(FeedFetchError) {
                return .success(try await self.fetch(request))
            } catch {
                return .failure(error)
            }
        }
    }

    private func openHTTP(_ request: FeedFetchRequest) async throws(FeedFetchError) -> FeedOpening {
        var url = request.url
        var allPermanent = true
        for _ in 0...configuration.maxRedirects {
            var httpRequest = HTTPClientRequest(url: url.absoluteString)
            httpRequest.headers.add(name: "User-Agent", value: configuration.userAgent)
            httpRequest.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            httpRequest.headers.add(name: "Accept", value: "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8")
            if let etag = request.etag { httpRequest.headers.add(name: "If-None-Match", value: etag) }
            if let lastModified = request.lastModified { httpRequest.headers.add(name: "If-Modified-Since", value: lastModified) }
            let response: HTTPClientResponse
            do {
                response = try await client.execute(httpRequest, timeout: TimeAmount.nanoseconds(Self.nanoseconds(configuration.timeout)))
            } catch {
                throw Self.translate(error)
            }
            let status = Int(response.status.code)
            let moved = allPermanent && url != request.url ? url : nil
            switch status {
            case 301, 302, 303, 307, 308:
                guard let location = response.headers.first(name: "Location"),
                      let next = URL(string: location, relativeTo: url)?.absoluteURL
                else { throw .status(status) }
                allPermanent = allPermanent && (status == 301 || status == 308)
                url = next
                continue
            case 304:
                return .notModified(permanentRedirect: moved)
            case 200..<300:
                let limit = configuration.maxBodySize
                if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
                    throw .tooLarge(limit: limit)
                }
                let head = FeedResponse(
                    charset: response.headers.first(name: "Content-Type").flatMap(Self.charset),
                    etag: response.headers.first(name: "ETag"),
                    lastModified: response.headers.first(name: "Last-Modified"),
                    finalURL: url,
                    permanentRedirect: moved)
                return .opened(head, FeedBody(source: .http(response.body), limit: limit))
            default:
                throw .status(status)
            }
        }
        throw .tooManyRedirects
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

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    static func translate(_ error: any Error) -> FeedFetchError {
        if let error = error as? FeedFetchError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return .timedOut
            default: return .connectionFailed(String(describing: error))
            }
        }
        return .connectionFailed(String(describing: error))
    }
}
