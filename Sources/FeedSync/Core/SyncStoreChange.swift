import Foundation
import Feeds

/// A change the runtime makes to the store, each in one transaction, in the order given.
///
/// "Synced entries" are the entries of the account's subscriptions, whose ids are
/// ``RemoteItemID``s. "Protected" means: with a change of that state (read or unread; starred
/// or unstarred) in the queue when the change is applied. The core never sends a server's
/// state for a protected entry's state to win: that is the conflict rule (see ``SyncCore``).
public enum SyncStoreChange: Sendable, Hashable {
    /// Keep the session token (in a file only the user can read), or forget it when nil.
    case saveToken(SyncSecret?)
    /// Delete these rows of the queue: the server has their changes (or a later change of the
    /// same state of the same item, which supersedes them).
    case dequeue([Int64])
    /// The server's whole subscription list: add the new ones, update the titles, sites and
    /// folders of the others, and remove the synced feeds not in it, with their entries.
    case replaceSubscriptions([RemoteSubscription])
    /// Every item is about to be pulled (a first sync): the store may set aside what costs
    /// more to keep up during many writes than to build once after them (its list index).
    /// Always followed, before the sync ends, by ``endBulkPull``.
    case startBulkPull
    /// The pull that ``startBulkPull`` began is over, or the sync ends: build again what the
    /// store set aside. The runtime may apply it while the next requests are under way.
    case endBulkPull
    /// Insert or update these entries of the stream's feed, by id; set each one's read and
    /// starred state to the given ones, except a protected state.
    case upsert(streamID: String, entries: [SyncedEntry])
    /// These are all the unread items: mark every synced entry in the set unread and every
    /// other one read, except protected ones.
    case setUnread(Set<RemoteItemID>)
    /// These are all the starred items: star every synced entry in the set and unstar every
    /// other one, except protected ones.
    case setStarred(Set<RemoteItemID>)
    /// Record the server-time mark the next sync asks for items after
    /// (``SyncSnapshot/itemsPulledUpTo``).
    case recordItemsPulled(upTo: Date)
    /// Record when the subscription list was fetched (``SyncSnapshot/subscriptionsFetched``).
    case recordSubscriptionsFetched(at: Date)
}

/// An entry as the server has it, with its states: the store's own type, which it stores.
public typealias SyncedEntry = SyncedEntryState

extension SyncedEntryState {
    /// The item as an entry (``RemoteItem/entry``) with its states.
    public init(_ item: RemoteItem) {
        self.init(entry: item.entry, isRead: item.isRead, isStarred: item.isStarred)
    }
}
