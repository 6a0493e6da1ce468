#if canImport(Darwin)
import Foundation

/// Loads data with URLSession, for Apple apps that want no NIO: `http:`, `https:` and `file:`
/// URLs, with URLSession's own redirects, caching and limits. Cancelling the calling task
/// cancels the transfer.
///
/// Apple platforms only; on Linux, ContentLoadingHTTP's `HTTPDataLoader` serves instead.
public struct URLSessionDataLoader: DataLoading {
    /// The session transfers go through.
    public let session: URLSession

    /// A loader over `session`.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// The body at `url`; a status outside 2xx throws `URLError(.badServerResponse)`.
    public func loadData(for url: URL) async throws -> [UInt8] {
        let (data, response) = try await session.data(from: url)
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw URLError(.badServerResponse)
        }
        return [UInt8](data)
    }
}
#endif
