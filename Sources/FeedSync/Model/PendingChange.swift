/// An absolute change of an item's state: applying it twice is applying it once.
public enum SyncAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Mark read.
    case read
    /// Mark unread.
    case unread
    /// Star.
    case starred
    /// Remove the star.
    case unstarred

    /// Whether the action sets the read state (else the starred state).
    public var isReadState: Bool { self == .read || self == .unread }
}

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
