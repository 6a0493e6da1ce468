/// Opening feeds for a refresh: what ``FeedRefresher`` needs of a fetcher (FeedsHTTP's over
/// HTTP and from files), and what tests replace with bodies they script.
public protocol FeedFetching: Sendable {
    /// How many feeds a refresh of all of them opens at once.
    var maxConcurrentFetches: Int { get }

    /// Opens one feed: its response, and a body to read as it arrives; or that it has not
    /// changed since the request's validators.
    func open(_ request: FeedFetchRequest) async throws(FeedFetchError) -> FeedOpening
}
