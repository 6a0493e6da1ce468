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
}

/// A feed's body as it arrives: pieces of bytes, at most ``FeedFetcher/Configuration/maxBodySize``
/// in all (decompressed), failing with ``FeedFetchError`` on a broken or oversized transfer.
public struct FeedBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    enum Source: Sendable {
        case http(HTTPClientResponse.Body)
        case bytes([UInt8])
    }

    let source: Source
    let limit: Int

    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .http(let body): AsyncIterator(http: body.makeAsyncIterator(), bytes: nil, limit: limit)
        case .bytes(let bytes): AsyncIterator(http: nil, bytes: bytes, limit: limit)
        }
    }

    /// Hands out the body's pieces, counting them against the limit.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var http: HTTPClientResponse.Body.AsyncIterator?
        var bytes: [UInt8]?
        let limit: Int
        var received = 0

        init(http: HTTPClientResponse.Body.AsyncIterator?, bytes: [UInt8]?, limit: Int) {
            self.http = http
            self.bytes = bytes
            self.limit = limit
        }

        public mutating func next() async throws -> [UInt8]? {
            if let bytes {
                self.bytes = nil
                return bytes.isEmpty ? nil : bytes
            }
            guard http != nil else { return nil }
            let buffer: ByteBuffer?
            do {
                buffer = try await http!.next()
            } catch {
                throw FeedFetcher.translate(error)
            }
            guard let buffer else {
                http = nil
                return nil
            }
            received += buffer.readableBytes
            guard received <= limit else { throw FeedFetchError.tooLarge(limit: limit) }
            return Array(buffer.readableBytesView)
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
            let bytes = try readFile(request.url)
            let response = FeedResponse(charset: nil, etag: nil, lastModified: nil, finalURL: request.url, permanentRedirect: nil)
            return .opened(response, FeedBody(source: .bytes(bytes), limit: configuration.maxBodySize))
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

    private func readFile(_ url: URL) throws(FeedFetchError) -> [UInt8] {
        let limit = configuration.maxBodySize
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw .fileUnreadable(url.path) }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw .fileUnreadable(url.path)
        }
        guard data.count <= limit else { throw .tooLarge(limit: limit) }
        return [UInt8](data)
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
