import Feeds

/// An absolute change of an item's state (read, unread, starred, unstarred): applying it twice
/// is applying it once. The store's own type, which its queue keeps.
public typealias SyncAction = StateChange

/// A local change waiting in the durable queue to be pushed to the server.
public struct PendingChange: Sendable, Hashable {
    /// The queue's own key for the change, increasing in the order changes were made: the core
    /// dequeues by it (``SyncStoreChange/dequeue(_:)``), and a later change of the same state
    /// of the same item supersedes an earlier one.
    public var sequence: Int64
    /// The item changed.
    public var itemID: RemoteItemID
    /// What was done to it.
    public var action: SyncAction

    /// A queued change.
    public init(sequence: Int64, itemID: RemoteItemID, action: SyncAction) {
        self.sequence = sequence
        self.itemID = itemID
        self.action = action
    }
}
