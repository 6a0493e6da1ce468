import Feeds
import Foundation

// A whole feed in memory, for tests that check what a fetcher received; the product reads a
// feed's body as it arrives (`FeedFetching.open`), parsing as it goes.

/// A feed's bytes as fetched, with what the reader remembers for next time.
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

/// The outcome of a fetch.
public enum FeedFetchResult: Sendable {
    /// The feed has not changed since the validators were given (HTTP 304): nothing to parse.
    case notModified(permanentRedirect: URL?)
    /// The feed's bytes.
    case fetched(FetchedFeed)
}

extension FeedFetching {
    /// Opens one feed and reads its whole body (at most the fetcher's body limit).
    public func fetch(_ request: FeedFetchRequest) async throws(FeedFetchError) -> FeedFetchResult {
        switch try await open(request) {
        case .notModified(let moved):
            return .notModified(permanentRedirect: moved)
        case .opened(let response, let body):
            var bytes: [UInt8] = []
            do {
                for try await piece in body { bytes += piece }
            } catch {
                // FeedBody fails with FeedFetchError alone.
                throw error as? FeedFetchError ?? .connectionFailed(String(describing: error))
            }
            return .fetched(FetchedFeed(
                body: bytes, charset: response.charset, etag: response.etag, lastModified: response.lastModified,
                finalURL: response.finalURL, permanentRedirect: response.permanentRedirect))
        }
    }
}
