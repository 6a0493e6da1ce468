/// What an upsert did to one entry, so a list can animate exactly the entries that changed.
public struct EntryChange: Sendable, Hashable {
    /// How an entry compares with what was stored before the upsert.
    public enum State: Sendable, Hashable {
        /// The feed had no entry with this identifier.
        case new
        /// The entry was stored and at least one field from the feed differs; read, starred and
        /// first-seen are the reader's, not the feed's, so they never count.
        case modified
        /// The entry was stored with exactly these fields; nothing was written.
        case unchanged
    }

    /// The entry's identifier within its feed (``FeedEntry/id``).
    public var entryID: String
    /// What happened to it.
    public var state: State

    /// A change report for the entry `entryID`.
    public init(entryID: String, state: State) {
        self.entryID = entryID
        self.state = state
    }
}

/// How many entries of an ingest were new, modified or unchanged.
public struct EntryChangeCounts: Sendable, Hashable {
    public var new = 0
    public var modified = 0
    public var unchanged = 0

    /// No changes counted yet.
    public init() {}

    /// Adds counts kept elsewhere (another batch's).
    public mutating func add(_ other: EntryChangeCounts) {
        new += other.new
        modified += other.modified
        unchanged += other.unchanged
    }

    /// Counts the changes one upsert reported.
    public mutating func add(_ changes: [EntryChange]) {
        for change in changes {
            switch change.state {
            case .new: new += 1
            case .modified: modified += 1
            case .unchanged: unchanged += 1
            }
        }
    }
}
