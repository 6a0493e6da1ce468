import Foundation

/// What refreshing one feed did.
public struct FeedRefreshOutcome: Sendable, Equatable {
    /// How the refresh ended.
    public enum Status: Sendable, Equatable {
        /// The feed was fetched and parsed; its entries were stored with these changes.
        case refreshed(new: Int, modified: Int, unchanged: Int, malformed: Bool)
        /// The server said nothing changed since the last refresh (HTTP 304): nothing parsed.
        case notModified
        /// Fetching, parsing or storing failed; the feed's stored entries are untouched and
        /// the message is recorded as its last error.
        case failed(String)
    }

    /// The feed as it was before the refresh.
    public var feed: StoredFeed
    /// How the refresh ended.
    public var status: Status
    /// The feed's new address, if it moved permanently (the store now holds it).
    public var movedTo: URL?

    /// Creates an outcome.
    public init(feed: StoredFeed, status: Status, movedTo: URL?) {
        self.feed = feed
        self.status = status
        self.movedTo = movedTo
    }
}

/// What a refresh is doing, as it happens: for a status line, and for tests of the order.
///
/// For each feed: ``started(_:)``, then one ``batchStored(_:counts:)`` per transaction committed,
/// then exactly one of ``finished(_:)`` or ``failed(_:message:)``.
public enum FeedRefreshProgress: Sendable, Equatable {
    /// ``FeedRefresher/refreshAll(progress:)`` is about to refresh this many feeds; the first
    /// event of a refresh of all feeds.
    case planned(feeds: Int)
    /// The feed is being opened.
    case started(StoredFeed)
    /// A transaction of the feed's entries was committed, with what it changed.
    case batchStored(StoredFeed, counts: EntryChangeCounts)
    /// The feed was refreshed, or had not changed.
    case finished(FeedRefreshOutcome)
    /// Fetching, parsing or storing failed; the message was recorded as its last error.
    case failed(StoredFeed, message: String)
}

/// Refreshes stored feeds: fetch (conditionally), parse the body as it arrives, store its
/// entries a transaction at a time as they are parsed (see ``Transactions``), and record
/// validators or the error. Memory is bounded by a transaction's entries and a network read,
/// whatever the feed's size.
///
/// A refresh killed halfway loses nothing already stored: every transaction commits on its own,
/// and the validators are recorded only after the last one, so an interrupted refresh fetches
/// the whole feed again next time. Every store call suspends (``FeedStoring``), so a refresh
/// never holds a thread of the cooperative pool while SQLite waits.
public final class FeedRefresher: Sendable {
    /// Receives progress events; called from the refreshing tasks, in order for each feed.
    public typealias ProgressHandler = @Sendable (FeedRefreshProgress) -> Void

    private let store: any FeedStoring
    private let fetcher: any FeedFetching
    private let parsing: FeedParser.Configuration
    private let transactions: Transactions
    private let now: @Sendable () -> Date

    /// How many entries a refresh stores in one transaction.
    ///
    /// Entries are stored once the body read so far has given at least ``maxEntries`` of
    /// them, or once ``maxBytes`` of the body have been read since the last transaction, and at
    /// the end. Every commit writes the pages it changed again (SQLite's write-ahead log holds
    /// a copy per commit): stored ten at a time, as the parser hands them over, the commits were
    /// nearly half of a first refresh.
    public struct Transactions: Sendable, Hashable {
        /// Entries after which the ones read so far are stored.
        public var maxEntries = 200
        /// Bytes of the body after which the entries read from them are stored, however few:
        /// the bound on the memory they hold.
        public var maxBytes = 1 << 20

        /// The defaults described on each property.
        public init() {}

        /// A transaction as soon as `maxEntries` entries are read.
        public init(maxEntries: Int) {
            self.maxEntries = maxEntries
        }
    }

    /// Creates a refresher storing into `store` and fetching with `fetcher`.
    ///
    /// - Parameter now: the time recorded for refreshes and first sightings; tests inject it.
    public init(
        store: any FeedStoring, fetcher: any FeedFetching, parsing: FeedParser.Configuration = .init(),
        transactions: Transactions = .init(), now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.fetcher = fetcher
        self.parsing = parsing
        self.transactions = transactions
        self.now = now
    }

    /// Refreshes every stored feed, as many at once as the fetcher allows.
    ///
    /// - Parameter progress: told of each feed's start, stored batches and end as they happen.
    /// - Returns: one outcome per feed, in the store's order.
    public func refreshAll(progress: @escaping ProgressHandler = { _ in }) async throws(FeedStoreError) -> [FeedRefreshOutcome] {
        let feeds = try await store.feeds()
        progress(.planned(feeds: feeds.count))
        return await mapConcurrently(feeds, limit: fetcher.maxConcurrentFetches) { await self.refresh($0, progress: progress) }
    }

    /// Refreshes one feed: entries are parsed as the body arrives, and stored a transaction at
    /// a time (see ``Transactions``).
    public func refresh(_ feed: StoredFeed, progress: @escaping ProgressHandler = { _ in }) async -> FeedRefreshOutcome {
        progress(.started(feed))
        let outcome = await open(feed, progress: progress)
        if case .failed(let message) = outcome.status {
            progress(.failed(feed, message: message))
        } else {
            progress(.finished(outcome))
        }
        return outcome
    }

    private func open(_ feed: StoredFeed, progress: ProgressHandler) async -> FeedRefreshOutcome {
        let request = FeedFetchRequest(url: feed.url, etag: feed.etag, lastModified: feed.lastModified)
        let opening: FeedOpening
        do {
            opening = try await fetcher.open(request)
        } catch {
            return await fail(feed, error.description)
        }
        switch opening {
        case .notModified(let movedTo):
            let moved = await move(feed, to: movedTo)
            do {
                try await store.recordRefresh(feed: feed.id, etag: feed.etag, lastModified: feed.lastModified, info: nil, at: now())
            } catch {
                return await fail(feed, error.description)
            }
            return FeedRefreshOutcome(feed: feed, status: .notModified, movedTo: moved)
        case .opened(let response, let body):
            return await ingest(body, response: response, into: feed, progress: progress)
        }
    }

    private func ingest(_ body: FeedBody, response: FeedResponse, into feed: StoredFeed,
                        progress: ProgressHandler) async -> FeedRefreshOutcome {
        var parser = FeedParser(url: response.finalURL, charset: response.charset, configuration: parsing)
        var counts = EntryChangeCounts()
        var pending: [FeedEntry] = []
        var pendingBytes = 0
        func store(_ entries: [FeedEntry]) async throws(FeedStoreError) {
            guard !entries.isEmpty else { return }
            var batchCounts = EntryChangeCounts()
            batchCounts.add(try await self.store.upsert(entries: entries, feed: feed.id, now: now()))
            counts.add(batchCounts)
            progress(.batchStored(feed, counts: batchCounts))
        }
        do {
            let completion: FeedParser.Completion
            do {
                for try await piece in body {
                    for batch in try parser.consume(piece) { pending += batch }
                    pendingBytes += piece.count
                    if pending.count >= transactions.maxEntries || pendingBytes >= transactions.maxBytes {
                        try await store(pending)
                        pending = []
                        pendingBytes = 0
                    }
                }
                completion = try parser.finish()
            } catch let error as FeedStoreError {
                throw error
            } catch {
                // The body broke off or the document went wrong: the whole entries read before
                // are kept, as if each had been stored as it was read.
                try await store(pending)
                throw error
            }
            try await store(pending + completion.entries)
            let moved = await move(feed, to: response.permanentRedirect)
            try await self.store.recordRefresh(
                feed: feed.id, etag: response.etag, lastModified: response.lastModified, info: completion.info, at: now())
            return FeedRefreshOutcome(
                feed: feed,
                status: .refreshed(
                    new: counts.new, modified: counts.modified, unchanged: counts.unchanged,
                    malformed: completion.isMalformed),
                movedTo: moved)
        } catch let error as FeedFetchError {
            return await fail(feed, error.description)
        } catch let error as FeedParsingError {
            return await fail(feed, error.description)
        } catch let error as FeedStoreError {
            return await fail(feed, error.description)
        } catch {
            return await fail(feed, String(describing: error))
        }
    }

    /// Moves the stored feed to its new permanent address; a feed already stored at that
    /// address keeps the old one where it is.
    private func move(_ feed: StoredFeed, to url: URL?) async -> URL? {
        guard let url, url != feed.url else { return nil }
        do {
            try await store.moveFeed(feed.id, to: url)
            return url
        } catch {
            return nil
        }
    }

    /// Records a failure, unless the refresh was cancelled (the reader quit): a feed that was
    /// never really tried is not marked broken. (The store's writes also refuse to start in a
    /// cancelled task; this says so where the decision is made.)
    private func fail(_ feed: StoredFeed, _ message: String) async -> FeedRefreshOutcome {
        // Errors of other libraries (the HTTP client's, the system's) may quote a server too.
        let message = FeedText.line(message)
        if Task.isCancelled { return FeedRefreshOutcome(feed: feed, status: .failed("cancelled: " + message), movedTo: nil) }
        try? await store.recordFailure(feed: feed.id, message: message, at: now())
        return FeedRefreshOutcome(feed: feed, status: .failed(message), movedTo: nil)
    }
}
