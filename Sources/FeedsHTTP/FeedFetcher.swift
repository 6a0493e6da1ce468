import Feeds
import Foundation
import HTTPLoading

/// Fetches feeds politely, as Feeds' ``FeedFetching``: conditional GET (a 304 costs no
/// parsing), gzip and deflate, permanent redirects reported so that the stored address can
/// follow them, timeouts, a size limit, and a limit on how many feeds are fetched at once. The
/// transfer itself (redirects, limits, `file:` URLs, typed errors) is ``HTTPDataLoader``'s.
///
/// Call ``shutdown()`` before dropping the fetcher: it owns an HTTP client.
public final class FeedFetcher: FeedFetching {
    /// Limits.
    public struct Configuration: Sendable {
        /// The longest one request may take.
        public var timeout: Duration = .seconds(30)
        /// Redirects followed before giving up.
        public var maxRedirects = 5
        /// The largest feed accepted, after decompression; the parser's limit by default.
        public var maxBodySize = FeedParser.Configuration().maxFeedBytes
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

    /// ``Configuration/maxConcurrentFetches``.
    public var maxConcurrentFetches: Int { configuration.maxConcurrentFetches }

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
            return .opened(head, FeedBody(opening.body, limit: opening.body.limit, translatingErrors: Self.translate))
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
        guard let transfer = error as? HTTPLoadingError else { return FeedFetchError(error) }
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
        case .invalidHeaderValue: return .connectionFailed(transfer.description)
        case .cancelled: return .cancelled
        }
    }
}
