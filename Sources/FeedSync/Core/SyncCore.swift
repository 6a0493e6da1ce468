import Foundation

/// Every decision of a sync with a feed server, as a synchronous state machine: events in,
/// effects out.
///
/// The core knows nothing of HTTP, the store or time: a runtime starts it with a
/// ``SyncSnapshot`` of the store, performs the effects it returns (requests built by its
/// ``SyncServerAPI``, store changes, questions) and feeds it the answers. Being a value with no
/// hidden inputs, two cores fed the same events return the same effects. One request is in
/// flight at a time. While a first sync pulls every item, the next page is asked for as soon as
/// a page arrives, with its continuation read ahead (``SyncServerAPI/continuationAhead(ofItems:)``),
/// and the page is decoded while the request is under way (``Effect/proceedWhileWaiting``): the
/// server never waits for the decoding. A continuation read ahead that the decode contradicts
/// costs the request sent on it: its reply is dropped, and the right page asked for.
///
/// A sync runs in this order:
/// 1. **Log in** when there is no token. A refused token (401) is renewed with one fresh login
///    and the refused request repeated; a second refusal fails the sync with
///    ``SyncError/unauthorized``.
/// 2. **Push** the queue: the write token (fetched only when there is something to write),
///    then one call per action and batch of ids (``PushPlan``). Each call's changes are
///    dequeued as soon as it succeeds, and only then.
/// 3. **Edit subscriptions** (``SyncSnapshot/subscriptionEdits``).
/// 4. **Fetch the subscription list**, only when the store has none, when it is older than
///    ``Configuration/subscriptionRefreshInterval``, when asked, after an edit, or when an
///    item of an unknown stream arrives (the page waits for the list).
/// 5. **Pull.** The first sync pulls every item, page by page, each page one
///    ``SyncStoreChange/upsert(streamID:entries:)`` per stream, between
///    ``SyncStoreChange/startBulkPull`` and ``SyncStoreChange/endBulkPull`` (which also comes
///    before a failure that ends the sync in the middle). A later one lists only the ids
///    of the items the server fetched after the last mark (less
///    ``Configuration/pullOverlap``). Then come the unread and the starred id sets, each applied
///    whole, and last the items of all these ids that the store lacks, fetched by id (the
///    store is not asked about the items this sync stored: a first sync asks nothing). A
///    first sync into a store that held no item of the account applies the sets only when
///    they differ from the states the pages gave the items it stored (an item read on another
///    device meanwhile): otherwise applying them, a pass over every synced entry, would
///    change nothing.
/// 6. **Record** the new mark: the server's time at the first page of items or ids.
///
/// A sync with nothing queued, nothing new and a recent subscription list makes three
/// requests: the ids of new items, of unread ones, of starred ones. Items the overlap lists
/// again cost an id each, not a download.
///
/// **The conflict rule.** A local change not yet pushed wins over the server's state; once
/// pushed, the server's state wins. The core keeps it so: the push comes before any pull, a
/// change is dequeued only once the server took it, and a failed push ends the sync before
/// anything is pulled. Changes queued while a sync runs are protected by the store changes'
/// contract: they never touch a state that has a change in the queue when they are applied.
///
/// Any failed request ends the sync with a ``SyncFailure`` naming the step; whatever was
/// applied stays (upserts and state sets are idempotent, and the mark is recorded last), and
/// the queue keeps every change not dequeued.
public struct SyncCore: Sendable {
    /// The server's API.
    public let api: any SyncServerAPI
    /// The account's user name, for logging in.
    public let username: String
    /// Page and batch sizes, and ages.
    public let configuration: Configuration
    /// What the core has counted so far: requests, items received, changes pushed.
    public private(set) var summary = SyncSummary()

    private enum Call {
        case logIn
        case operation(SyncOperation)
    }

    private enum Phase {
        case idle, running, awaitingPassword, awaitingUnstored, finished
        case awaitingReply(Call)
    }

    private enum Pull {
        case items(continuation: String?)
        case newIDs(continuation: String?)
        case unreadIDs(continuation: String?)
        case starredIDs(continuation: String?)
        case lookUp
        case fetch

        /// Whether this is the pull of every item, page by page.
        var isItems: Bool {
            if case .items = self { return true }
            return false
        }
    }

    /// An item's read and starred states, as a page gave them.
    private struct States {
        var isRead: Bool
        var isStarred: Bool
    }

    private var phase = Phase.idle
    private var now = Date(timeIntervalSince1970: 0)
    private var token: SyncSecret?
    private var writeToken: SyncSecret?
    private var password: SyncSecret?
    private var hasRenewedSession = false
    private var pushes = PushPlan([], maxIDs: 1)
    private var edits: [SubscriptionEdit] = []
    private var needsSubscriptions = false
    private var fetchedSubscriptions = false
    private var knownStreams: Set<String> = []
    /// A page with an item of an unknown stream, waiting for the subscription list.
    private var heldItems: [RemoteItem]?
    private var pull = Pull.items(continuation: nil)
    private var pullSince: Date?
    /// Whether a ``SyncStoreChange/startBulkPull`` waits for its end.
    private var inBulkPull = false
    /// A page of items whose next page was asked for before it was decoded, with the
    /// continuation it was asked with and whether it is the first page.
    private var undecoded: (reply: SyncReply, operation: SyncOperation, continuation: String, isFirstPage: Bool)?
    /// Whether the reply under way answers a request sent ahead on a wrong continuation.
    private var dropsReply = false
    private var serverTime: Date?
    private var newestCrawl: Date?
    private var new: Set<RemoteItemID> = []
    private var unread: Set<RemoteItemID> = []
    private var starred: Set<RemoteItemID> = []
    private var fetches: [[RemoteItemID]] = []
    /// The items this sync has stored (sent in upserts), with the states their pages gave
    /// them: the store has them, so the ids of unread and starred items among them need no
    /// lookup.
    private var storedNow: [RemoteItemID: States] = [:]
    /// Whether the store held an item of the account when the sync started.
    private var storeHeldItems = true

    /// A core that has not started.
    ///
    /// - Precondition: every size of `configuration` is positive.
    public init(api: any SyncServerAPI, username: String, configuration: Configuration = Configuration()) {
        precondition(configuration.itemsPerPage > 0 && configuration.idsPerPage > 0 && configuration.maxIDsPerFetch > 0,
                     "page and batch sizes are positive")
        self.api = api
        self.username = username
        self.configuration = configuration
    }

    /// Whether the sync has ended, done or failed.
    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// Takes one event and returns the effects to perform, in order.
    ///
    /// - Precondition: the event answers the last effect that asked something (``Event/start(_:now:)``
    ///   first), and the sync has not ended.
    /// - Complexity: O(n) in the size of the reply or snapshot the event holds (O(n log n) for
    ///   the queue, sorted once).
    public mutating func handle(_ event: Event) -> [Effect] {
        var effects: [Effect] = []
        switch (event, phase) {
        case let (.start(snapshot, now), .idle):
            start(snapshot, now: now)
        case let (.password(password), .awaitingPassword):
            self.password = password
            phase = .running
        case let (.passwordUnavailable(reason), .awaitingPassword):
            fail(.logIn, .passwordUnavailable(reason: reason), &effects)
        case (.proceed, .awaitingReply):
            decodeAhead(&effects)
        case let (.replied(reply), .awaitingReply(call)):
            // The page before, if a runtime did not proceed while waiting, is decoded first; a
            // reply to a request sent ahead on a wrong continuation is dropped.
            guard decodedAheadKeepsReply(&effects) else { break }
            phase = .running
            receive(reply, for: call, &effects)
        case let (.requestFailed(reason), .awaitingReply(call)):
            guard decodedAheadKeepsReply(&effects) else { break }
            fail(step(of: call), .transport(reason: reason), &effects)
        case let (.unstored(ids), .awaitingUnstored):
            let ids = ids.sorted()
            fetches = stride(from: 0, to: ids.count, by: configuration.maxIDsPerFetch).map {
                Array(ids[$0..<min($0 + configuration.maxIDsPerFetch, ids.count)])
            }
            pull = .fetch
            phase = .running
        default:
            preconditionFailure("\(event) does not answer what the sync core waits for")
        }
        if case .running = phase {
            advance(&effects)
            if undecoded != nil { effects.append(.proceedWhileWaiting) }
        }
        return effects
    }

    private mutating func start(_ snapshot: SyncSnapshot, now: Date) {
        self.now = now
        token = snapshot.token
        pushes = PushPlan(snapshot.pending, maxIDs: configuration.maxIDsPerMark)
        edits = snapshot.subscriptionEdits
        knownStreams = snapshot.knownStreams
        storeHeldItems = snapshot.holdsSyncedItems
        needsSubscriptions = snapshot.refreshesSubscriptions
            || snapshot.subscriptionsFetched.map { now.timeIntervalSince($0) >= configuration.subscriptionRefreshInterval } ?? true
        pullSince = snapshot.itemsPulledUpTo.map { $0.addingTimeInterval(-configuration.pullOverlap) }
        pull = pullSince == nil ? .items(continuation: nil) : .newIDs(continuation: nil)
        phase = .running
    }

    // MARK: - What to ask next

    private mutating func advance(_ effects: inout [Effect]) {
        guard token != nil else {
            if let password {
                send(.logIn, api.logInRequest(username: username, password: password), &effects)
            } else {
                phase = .awaitingPassword
                effects.append(.askPassword)
            }
            return
        }
        if !(pushes.isEmpty && edits.isEmpty), api.usesWriteToken, writeToken == nil { return send(.writeToken, &effects) }
        if let batch = pushes.first { return send(.mark(batch.ids, batch.action), &effects) }
        if let edit = edits.first { return send(.edit(edit), &effects) }
        if needsSubscriptions { return send(.subscriptions, &effects) }
        if inBulkPull, heldItems == nil, !pull.isItems {
            inBulkPull = false
            effects.append(.apply(.endBulkPull))
        }
        switch pull {
        case let .items(continuation):
            if pullSince == nil, continuation == nil, !inBulkPull {
                inBulkPull = true
                effects.append(.apply(.startBulkPull))
            }
            send(.items(since: pullSince, count: configuration.itemsPerPage, continuation: continuation), &effects)
        case let .newIDs(continuation):
            send(.itemIDs(since: pullSince, count: configuration.idsPerPage, continuation: continuation), &effects)
        case let .unreadIDs(continuation):
            send(.unreadIDs(count: configuration.idsPerPage, continuation: continuation), &effects)
        case let .starredIDs(continuation):
            send(.starredIDs(count: configuration.idsPerPage, continuation: continuation), &effects)
        case .lookUp:
            // Looked up one by one rather than united whole: in a first sync every id of these
            // sets is among those stored.
            var ids: Set<RemoteItemID> = []
            for set in [new, unread, starred] {
                for id in set where storedNow[id] == nil { ids.insert(id) }
            }
            storedNow = [:]
            if ids.isEmpty { return finish(&effects) }
            phase = .awaitingUnstored
            effects.append(.findUnstored(ids.sorted()))
        case .fetch:
            if let ids = fetches.first { send(.itemsByID(ids), &effects) } else { finish(&effects) }
        }
    }

    private mutating func send(_ operation: SyncOperation, _ effects: inout [Effect]) {
        guard let token else { preconditionFailure("an operation is sent with a session token") }
        send(.operation(operation), api.request(for: operation, token: token, writeToken: writeToken), &effects)
    }

    private mutating func send(_ call: Call, _ request: SyncRequest, _ effects: inout [Effect]) {
        summary.requests += 1
        effects.append(.progress(step(of: call), summary))
        effects.append(.send(request))
        phase = .awaitingReply(call)
    }

    private mutating func finish(_ effects: inout [Effect]) {
        if let mark = serverTime ?? newestCrawl { effects.append(.apply(.recordItemsPulled(upTo: mark))) }
        effects.append(.finished(summary))
        end()
    }

    private mutating func fail(_ step: SyncStep, _ error: SyncError, _ effects: inout [Effect]) {
        if inBulkPull { effects.append(.apply(.endBulkPull)) }
        effects.append(.failed(SyncFailure(step: step, error: error), summary))
        end()
    }

    /// Forgets the secrets and every set: a finished core holds nothing.
    private mutating func end() {
        phase = .finished
        inBulkPull = false
        undecoded = nil
        dropsReply = false
        password = nil
        token = nil
        writeToken = nil
        heldItems = nil
        new = []
        unread = []
        starred = []
        fetches = []
        storedNow = [:]
    }

    // MARK: - What a reply changes

    private mutating func receive(_ reply: SyncReply, for call: Call, _ effects: inout [Effect]) {
        guard case let .operation(operation) = call else {
            do {
                token = try api.decodeLogIn(reply)
            } catch {
                return fail(.logIn, error, &effects)
            }
            writeToken = nil
            effects.append(.apply(.saveToken(token)))
            return
        }
        if case let .items(continuation: asked) = pull, case .items = operation, fetchedSubscriptions,
           pushes.isEmpty, edits.isEmpty, !needsSubscriptions, let next = api.continuationAhead(ofItems: reply) {
            // The next page is asked for now (advance), and this one decoded while it comes.
            undecoded = (reply, operation, next, asked == nil)
            pull = .items(continuation: next)
            return
        }
        let result: SyncResult
        do {
            result = try api.decode(reply, of: operation)
        } catch .unauthorized where !hasRenewedSession {
            // The stored token expired or was revoked: log in once more, then repeat the
            // request, which stays first in line because nothing was taken off a plan.
            hasRenewedSession = true
            token = nil
            writeToken = nil
            effects.append(.apply(.saveToken(nil)))
            return
        } catch {
            return fail(step(of: call), error, &effects)
        }
        apply(result, of: operation, &effects)
    }

    private mutating func apply(_ result: SyncResult, of operation: SyncOperation, _ effects: inout [Effect]) {
        switch (operation, result) {
        case let (.writeToken, .writeToken(token)):
            writeToken = token
        case (.mark, .done):
            let batch = pushes.removeFirst()
            summary.pushed += batch.ids.count
            effects.append(.apply(.dequeue(batch.sequences)))
        case (.edit, .done):
            edits.removeFirst()
            needsSubscriptions = true
        case let (.subscriptions, .subscriptions(subscriptions)):
            needsSubscriptions = false
            fetchedSubscriptions = true
            knownStreams = Set(subscriptions.lazy.map(\.streamID))
            effects.append(.apply(.replaceSubscriptions(subscriptions)))
            effects.append(.apply(.recordSubscriptionsFetched(at: now)))
            if let held = heldItems {
                heldItems = nil
                store(held, &effects)
            }
        case let (.items, .items(page)):
            if case .items(continuation: nil) = pull { serverTime = page.serverTime }
            pull = Self.nextPull(after: page)
            receive(page.items, &effects)
        case let (.itemIDs, .itemIDs(page)):
            if case .newIDs(continuation: nil) = pull { serverTime = page.serverTime }
            new.formUnion(page.ids)
            pull = page.continuation != nil && !page.ids.isEmpty ? .newIDs(continuation: page.continuation) : .unreadIDs(continuation: nil)
        case let (.itemsByID, .items(page)):
            fetches.removeFirst()
            receive(page.items, &effects)
        case let (.unreadIDs, .itemIDs(page)):
            unread.formUnion(page.ids)
            pull = page.continuation != nil && !page.ids.isEmpty ? .unreadIDs(continuation: page.continuation) : .starredIDs(continuation: nil)
        case let (.starredIDs, .itemIDs(page)):
            starred.formUnion(page.ids)
            if page.continuation != nil && !page.ids.isEmpty {
                pull = .starredIDs(continuation: page.continuation)
            } else {
                if !setsChangeNothing() {
                    effects.append(.apply(.setUnread(unread)))
                    effects.append(.apply(.setStarred(starred)))
                }
                pull = .lookUp
            }
        default:
            preconditionFailure("\(type(of: api)) decoded \(operation) as \(result)")
        }
    }

    /// Whether applying the unread and starred sets would change nothing in the store: in a
    /// first sync into a store that held no item of the account, every synced entry is one
    /// this sync stored, with its page's states (or a queued change's, which the sets would
    /// not override either); when the sets name exactly the stored items whose pages gave
    /// them as unread and as starred, they change none.
    ///
    /// - Complexity: O(n) in the items stored, with no store access; applying the sets reads
    ///   every synced entry of the store.
    private func setsChangeNothing() -> Bool {
        guard pullSince == nil, !storeHeldItems else { return false }
        var unreadStored = 0
        var starredStored = 0
        for flags in storedNow.values {
            if !flags.isRead { unreadStored += 1 }
            if flags.isStarred { starredStored += 1 }
        }
        return unreadStored == unread.count && starredStored == starred.count
            && unread.allSatisfy { storedNow[$0]?.isRead == false }
            && starred.allSatisfy { storedNow[$0]?.isStarred == true }
    }

    /// ``decodeAhead(_:)``, before the answer to the request under way; whether that answer is
    /// still to be taken (not when the sync failed, or the answer is to be dropped).
    private mutating func decodedAheadKeepsReply(_ effects: inout [Effect]) -> Bool {
        decodeAhead(&effects)
        guard case .awaitingReply = phase else { return false }
        guard dropsReply else { return true }
        dropsReply = false
        phase = .running
        return false
    }

    /// What is pulled after `page` of every item.
    private static func nextPull(after page: ItemPage) -> Pull {
        page.continuation != nil && !page.items.isEmpty ? .items(continuation: page.continuation) : .unreadIDs(continuation: nil)
    }

    /// Decodes the page whose next page is under way, if there is one, and stores its items;
    /// a decode that contradicts the continuation read ahead drops the reply under way.
    private mutating func decodeAhead(_ effects: inout [Effect]) {
        guard let (reply, operation, continuation, isFirstPage) = undecoded else { return }
        undecoded = nil
        let page: ItemPage
        do {
            guard case let .items(decoded) = try api.decode(reply, of: operation) else {
                preconditionFailure("\(type(of: api)) decoded a page of items as something else")
            }
            page = decoded
        } catch {
            return fail(.items, error, &effects)
        }
        if isFirstPage { serverTime = page.serverTime }
        if page.continuation != continuation || page.items.isEmpty {
            dropsReply = true
            pull = Self.nextPull(after: page)
        }
        receive(page.items, &effects)
    }

    /// Stores items, or holds them until the subscription list is fetched when one belongs to a
    /// stream the store does not know. Items of a stream still unknown after a fresh list (a
    /// feed unsubscribed meanwhile) are left out.
    private mutating func receive(_ items: [RemoteItem], _ effects: inout [Effect]) {
        summary.received += items.count
        if let crawl = items.lazy.compactMap(\.crawled).max(), crawl > newestCrawl ?? .distantPast { newestCrawl = crawl }
        if !fetchedSubscriptions, items.contains(where: { !knownStreams.contains($0.streamID) }) {
            heldItems = items
            needsSubscriptions = true
            return
        }
        store(items, &effects)
    }

    private mutating func store(_ items: [RemoteItem], _ effects: inout [Effect]) {
        var streams: [String] = []
        var entries: [String: [SyncedEntry]] = [:]
        for item in items where knownStreams.contains(item.streamID) {
            storedNow[item.id] = States(isRead: item.isRead, isStarred: item.isStarred)
            if entries[item.streamID] == nil { streams.append(item.streamID) }
            entries[item.streamID, default: []].append(SyncedEntry(item))
        }
        for stream in streams { effects.append(.apply(.upsert(streamID: stream, entries: entries[stream]!))) }
    }

    private func step(of call: Call) -> SyncStep {
        guard case let .operation(operation) = call else { return .logIn }
        switch operation {
        case .writeToken: return .writeToken
        case .subscriptions: return .subscriptions
        case .items, .itemIDs: return .items
        case .unreadIDs: return .unreadIDs
        case .starredIDs: return .starredIDs
        case .itemsByID: return .itemsByID
        case .mark: return .push
        case .edit: return .editSubscriptions
        }
    }
}
