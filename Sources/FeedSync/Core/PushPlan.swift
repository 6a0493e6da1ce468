/// The queue of local changes as the calls that push it: one call per action and batch of ids.
///
/// Changes are read in sequence order, and for each item the last change of each state wins
/// (read then unread pushes unread). The superseded changes are dequeued with their winner, so
/// that nothing earlier can be pushed after it.
struct PushPlan {
    struct Batch: Hashable {
        var action: SyncAction
        var ids: [RemoteItemID]
        /// The queue rows the batch settles: its winning changes and those they superseded.
        var sequences: [Int64]
    }

    private(set) var batches: [Batch]

    /// - Precondition: `maxIDs` is positive.
    /// - Complexity: O(n log n) for n queued changes.
    init(_ pending: [PendingChange], maxIDs: Int) {
        precondition(maxIDs > 0, "a mark carries at least one id")
        struct Key: Hashable {
            var id: RemoteItemID
            var isReadState: Bool
        }
        var keys: [Key] = []
        var latest: [Key: (action: SyncAction, sequences: [Int64])] = [:]
        for change in pending.sorted(by: { $0.sequence < $1.sequence }) {
            let key = Key(id: change.itemID, isReadState: change.action.isReadState)
            if latest[key] == nil { keys.append(key) }
            latest[key, default: (change.action, [])].action = change.action
            latest[key]!.sequences.append(change.sequence)
        }
        batches = []
        for action in SyncAction.allCases {
            let settled = keys.filter { latest[$0]!.action == action }
            var start = 0
            while start < settled.count {
                let chunk = settled[start..<min(start + maxIDs, settled.count)]
                batches.append(Batch(action: action, ids: chunk.map(\.id), sequences: chunk.flatMap { latest[$0]!.sequences }))
                start += maxIDs
            }
        }
    }

    var isEmpty: Bool { batches.isEmpty }
    var first: Batch? { batches.first }

    mutating func removeFirst() -> Batch { batches.removeFirst() }
}
