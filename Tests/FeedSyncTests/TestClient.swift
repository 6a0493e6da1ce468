import Feeds
import FeedSync
import Foundation

/// A device: an in-memory store that applies ``SyncStoreChange``s by their contract, and a
/// synchronous runtime that drives a ``SyncCore`` against a ``FakeReaderServer``.
struct TestClient {
    struct Entry {
        var stream: String
        var entry: FeedEntry
        var isRead: Bool
        var isStarred: Bool
    }

    var configuration = SyncCore.Configuration()
    var api: any SyncServerAPI = GoogleReaderAPI()
    var password: String? = "apipass123"
    var token: SyncSecret?
    var itemsPulledUpTo: Date?
    var subscriptionsFetched: Date?
    var now = Date(timeIntervalSince1970: 1_795_735_300)
    var feeds: [String: RemoteSubscription] = [:]
    var entries: [RemoteItemID: Entry] = [:]
    var queue: [PendingChange] = []
    /// Whether a bulk pull started and has not ended: what the store set aside is missing.
    private(set) var inBulkPull = false
    private var nextSequence: Int64 = 1
    /// The effects of the last sync, in order.
    private(set) var effects: [SyncCore.Effect] = []

    /// How many requests the last sync sent.
    var requestsMade: Int {
        effects.count { if case .send = $0 { true } else { false } }
    }

    /// The requests the last sync sent, by path.
    var sentPaths: [String] {
        effects.compactMap { if case let .send(request) = $0 { request.path } else { nil } }
    }

    /// The store changes the last sync made.
    var storeChanges: [SyncStoreChange] {
        effects.compactMap { if case let .apply(change) = $0 { change } else { nil } }
    }

    /// What the user does: the state changes at once, and the change waits in the queue.
    mutating func mark(_ id: RemoteItemID, _ action: SyncAction) {
        switch action {
        case .read, .unread: entries[id]?.isRead = action == .read
        case .starred, .unstarred: entries[id]?.isStarred = action == .starred
        }
        queue.append(PendingChange(sequence: nextSequence, itemID: id, action: action))
        nextSequence += 1
    }

    /// Syncs, and returns the last effect (finished or failed). `beforeReply` runs before each
    /// reply reaches the core, with the request answered: a user acting during a sync.
    @discardableResult
    mutating func sync(with server: FakeReaderServer, edits: [SubscriptionEdit] = [], refreshesSubscriptions: Bool = false,
                       beforeReply: (inout TestClient, SyncRequest) -> Void = { _, _ in }) -> SyncCore.Effect {
        var core = SyncCore(api: api, username: "alice", configuration: configuration)
        let snapshot = SyncSnapshot(token: token, itemsPulledUpTo: itemsPulledUpTo, subscriptionsFetched: subscriptionsFetched,
                                    knownStreams: Set(feeds.keys), pending: queue, subscriptionEdits: edits,
                                    refreshesSubscriptions: refreshesSubscriptions, holdsSyncedItems: !entries.isEmpty)
        effects = []
        var pending = core.handle(.start(snapshot, now: now))
        // The request sent, answered once the effects before its answer are done (the core may
        // proceed while it waits).
        var sent: (request: SyncRequest, reply: SyncReply)?
        while true {
            if pending.isEmpty, let (request, reply) = sent {
                sent = nil
                beforeReply(&self, request)
                pending += core.handle(.replied(reply))
            }
            guard !pending.isEmpty else { break }
            let effect = pending.removeFirst()
            effects.append(effect)
            switch effect {
            case .askPassword:
                pending += core.handle(password.map { .password(SyncSecret($0)) } ?? .passwordUnavailable(reason: "cancelled"))
            case let .send(request):
                sent = (request, server.answer(request))
            case .proceedWhileWaiting:
                pending += core.handle(.proceed)
            case let .findUnstored(ids):
                pending += core.handle(.unstored(ids.filter { entries[$0] == nil }))
            case let .apply(change):
                apply(change)
            case .progress:
                break
            case .finished, .failed:
                return effect
            }
        }
        fatalError("the core stopped without finishing")
    }

    /// Whether a change of this state of the item waits in the queue.
    private func isProtected(_ id: RemoteItemID, readState: Bool) -> Bool {
        queue.contains { $0.itemID == id && $0.action.isReadState == readState }
    }

    private mutating func apply(_ change: SyncStoreChange) {
        switch change {
        case let .saveToken(token):
            self.token = token
        case let .dequeue(sequences):
            let settled = Set(sequences)
            queue.removeAll { settled.contains($0.sequence) }
        case let .replaceSubscriptions(subscriptions):
            feeds = Dictionary(uniqueKeysWithValues: subscriptions.map { ($0.streamID, $0) })
            entries = entries.filter { feeds[$0.value.stream] != nil }
        case .startBulkPull:
            precondition(!inBulkPull, "a bulk pull started twice")
            inBulkPull = true
        case .endBulkPull:
            precondition(inBulkPull, "a bulk pull ended without starting")
            inBulkPull = false
        case let .upsert(stream, synced):
            for item in synced {
                let id = RemoteItemID(item.entry.id)
                let old = entries[id]
                entries[id] = Entry(
                    stream: stream, entry: item.entry,
                    isRead: old != nil && isProtected(id, readState: true) ? old!.isRead : item.isRead,
                    isStarred: old != nil && isProtected(id, readState: false) ? old!.isStarred : item.isStarred
                )
            }
        case let .setUnread(unread):
            for id in entries.keys where !isProtected(id, readState: true) { entries[id]!.isRead = !unread.contains(id) }
        case let .setStarred(starred):
            for id in entries.keys where !isProtected(id, readState: false) { entries[id]!.isStarred = starred.contains(id) }
        case let .recordItemsPulled(mark):
            itemsPulledUpTo = mark
        case let .recordSubscriptionsFetched(date):
            subscriptionsFetched = date
        }
    }
}
