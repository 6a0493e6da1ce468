import Foundation

/// What the store knows of the account when a sync starts: the core's only view of it.
public struct SyncSnapshot: Sendable, Hashable {
    /// The stored session token; nil to log in first.
    public var token: SyncSecret?
    /// The server-time mark of the last complete pull (``SyncStoreChange/recordItemsPulled(upTo:)``);
    /// nil before the first, which pulls every item the server has.
    public var itemsPulledUpTo: Date?
    /// When the subscription list was last fetched (``SyncStoreChange/recordSubscriptionsFetched(at:)``);
    /// nil before the first.
    public var subscriptionsFetched: Date?
    /// The stream ids of the stored subscriptions: an item of another stream makes the core
    /// fetch the subscription list first.
    public var knownStreams: Set<String>
    /// The queue of local changes, in any order (the core orders it by sequence).
    public var pending: [PendingChange]
    /// Subscription changes to make on the server in this sync, in order.
    public var subscriptionEdits: [SubscriptionEdit]
    /// Whether to fetch the subscription list whatever its age.
    public var refreshesSubscriptions: Bool
    /// Whether the store holds any item of the account (an entry of a synced feed). A first
    /// sync into a store that holds none knows every synced entry there will be: those it
    /// stores, with the states their pages gave them.
    public var holdsSyncedItems: Bool

    /// A snapshot; the defaults are those of an account never synced.
    public init(token: SyncSecret? = nil, itemsPulledUpTo: Date? = nil, subscriptionsFetched: Date? = nil,
                knownStreams: Set<String> = [], pending: [PendingChange] = [], subscriptionEdits: [SubscriptionEdit] = [],
                refreshesSubscriptions: Bool = false, holdsSyncedItems: Bool = false) {
        self.token = token
        self.itemsPulledUpTo = itemsPulledUpTo
        self.subscriptionsFetched = subscriptionsFetched
        self.knownStreams = knownStreams
        self.pending = pending
        self.subscriptionEdits = subscriptionEdits
        self.refreshesSubscriptions = refreshesSubscriptions
        self.holdsSyncedItems = holdsSyncedItems
    }
}
