import Foundation

extension SyncCore {
    /// Page sizes, batch sizes and the ages that decide what a sync asks for.
    public struct Configuration: Sendable, Hashable {
        /// Items per page of new items; 250 (servers give up to 1,000 at once). The pages of a
        /// first sync are written while the next one comes (``SyncRuntime``): halving the page
        /// halves what waits at both ends, and what is held at once. Measured against FreshRSS
        /// (`bench sync`), 10,000 items took 2.4× the server's time in pages of 500, 2.6–3×
        /// in pages of 1,000, for 10 more requests; later, pages of 250 took as long as pages
        /// of 500 against the same requests (1.9–2.7× against 1.9–2.1×, the floor's time
        /// moving by half between runs) and held 38.0–38.3 MB at the process's peak against
        /// 39.1–41.5, for 20 more requests.
        public var itemsPerPage: Int
        /// Ids per page of the lists of new, unread and starred ids; 50,000 (about 1.5 MB of
        /// JSON), so most accounts need one request for each. A server that gives fewer at once
        /// gives a continuation, and the list takes more pages.
        public var idsPerPage: Int
        /// Item ids per `mark` call; 250 keeps a form well under the usual 1 MB request limit.
        public var maxIDsPerMark: Int
        /// Item ids per fetch of items by id; 1,000, as many as a page of items.
        public var maxIDsPerFetch: Int
        /// How old the subscription list may be before a sync fetches it again; an hour.
        /// Subscribing or unsubscribing elsewhere shows within this time, or at once when an
        /// item of a new feed arrives.
        public var subscriptionRefreshInterval: TimeInterval
        /// How far before the last mark new items are asked for; two minutes. A server stamps an
        /// item when its fetch of the feed starts and shows it when the fetch commits, so an
        /// item can appear after a sync with a time before that sync's mark. Items asked twice
        /// are upserted twice, which changes nothing.
        public var pullOverlap: TimeInterval

        /// The defaults above.
        public init(itemsPerPage: Int = 250, idsPerPage: Int = 50_000, maxIDsPerMark: Int = 250, maxIDsPerFetch: Int = 1000,
                    subscriptionRefreshInterval: TimeInterval = 3600, pullOverlap: TimeInterval = 120) {
            self.itemsPerPage = itemsPerPage
            self.idsPerPage = idsPerPage
            self.maxIDsPerMark = maxIDsPerMark
            self.maxIDsPerFetch = maxIDsPerFetch
            self.subscriptionRefreshInterval = subscriptionRefreshInterval
            self.pullOverlap = pullOverlap
        }
    }
}
