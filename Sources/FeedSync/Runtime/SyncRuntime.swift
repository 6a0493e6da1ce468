import Feeds
import Foundation
import HTTPLoading

/// Runs a ``SyncCore`` for real: its requests over ``HTTPLoading``, its store changes on a
/// ``FeedStore``, its questions to the account (the token file, the password). It decides
/// nothing: every decision is the core's.
///
/// A sync never loses a queued change: the queue lives in the store, and a change leaves it
/// only when the core says the server has it. A sync killed in the middle resumes at the next
/// one: every store change is its own transaction, and the mark that says how far items were
/// pulled is written last.
public struct SyncRuntime: Sendable {
    /// The account synced.
    public let account: SyncAccount
    /// The store synced into.
    public let store: FeedStore
    /// Where the session token is kept.
    public let tokens: SyncTokenFile
    /// The server's API.
    public let api: any SyncServerAPI
    /// Page and batch sizes, and ages.
    public let configuration: SyncCore.Configuration
    private let send: @Sendable (HTTPDataLoader.Request) async throws(HTTPLoadingError) -> HTTPReply
    private let password: @Sendable () async -> Result<SyncSecret, SyncPasswordError>
    private let now: @Sendable () -> Date

    /// What came of a sync: its summary, and the failure that ended it early, if one did.
    public struct Outcome: Sendable, Hashable {
        /// What changed, as far as the sync got.
        public var summary: SyncSummary
        /// Why the sync ended early; `nil` when it finished.
        public var failure: SyncFailure?

        /// An outcome.
        public init(summary: SyncSummary, failure: SyncFailure?) {
            self.summary = summary
            self.failure = failure
        }
    }

    /// What a sync is doing, for a status line.
    public struct Progress: Sendable, Hashable {
        /// The step the sync is at.
        public var step: SyncStep
        /// The counts so far.
        public var summary: SyncSummary

        /// A sync at `step` with `summary` so far.
        public init(step: SyncStep, summary: SyncSummary) {
            self.step = step
            self.summary = summary
        }
    }

    /// A runtime for `account`, into `store`, sending over `loader`.
    ///
    /// - Parameters:
    ///   - password: asked only when the core must log in (no token, or a refused one): a
    ///     password command's output or a prompt; never kept.
    ///   - now: the clock the core judges the subscription list's age by.
    public init(account: SyncAccount, store: FeedStore, tokens: SyncTokenFile, loader: HTTPDataLoader,
                configuration: SyncCore.Configuration = SyncCore.Configuration(),
                password: @escaping @Sendable () async -> Result<SyncSecret, SyncPasswordError>,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.init(account: account, store: store, tokens: tokens, send: { request throws(HTTPLoadingError) in try await loader.send(request) },
                  configuration: configuration, password: password, now: now)
    }

    /// A runtime that sends through `send`: a loader seen by a benchmark, which records the
    /// requests to make them again without it.
    package init(account: SyncAccount, store: FeedStore, tokens: SyncTokenFile,
                 send: @escaping @Sendable (HTTPDataLoader.Request) async throws(HTTPLoadingError) -> HTTPReply,
                 configuration: SyncCore.Configuration = SyncCore.Configuration(),
                 password: @escaping @Sendable () async -> Result<SyncSecret, SyncPasswordError>,
                 now: @escaping @Sendable () -> Date = Date.init) {
        self.account = account
        self.store = store
        self.tokens = tokens
        api = account.kind.api
        self.configuration = configuration
        self.send = send
        self.password = password
        self.now = now
    }

    /// Syncs: pushes the queue, makes the subscription `edits`, pulls what is new.
    ///
    /// - Parameters:
    ///   - refreshingSubscriptions: fetch the subscription list whatever its age.
    ///   - progress: called at each step, from the task running the sync.
    public func sync(edits: [SubscriptionEdit] = [], refreshingSubscriptions: Bool = false,
                     progress: @Sendable (Progress) -> Void = { _ in }) async -> Outcome {
        let underWay = RequestUnderWay()
        let outcome = await run(edits: edits, refreshingSubscriptions: refreshingSubscriptions, underWay: underWay, progress: progress)
        // A sync that ended while a request sent ahead was under way (a page that failed to
        // decode) leaves nothing running behind it.
        if let request = underWay.task {
            request.cancel()
            _ = await request.value
        }
        // A store that failed in the middle of a first sync's writes missed the core's end of
        // its bulk pull: what it set aside is built again now, even for a sync cancelled, if it
        // can be (else when the store opens next).
        if case .store = outcome.failure?.error { await Task { [store] in try? await store.restoreListIndex() }.value }
        return outcome
    }

    /// The request a sync has under way while its core proceeds.
    private final class RequestUnderWay {
        var task: Task<SyncCore.Event, Never>?
    }

    private func run(edits: [SubscriptionEdit], refreshingSubscriptions: Bool, underWay: RequestUnderWay,
                     progress: @Sendable (Progress) -> Void) async -> Outcome {
        var counts = SyncedStateCounts()
        var core = SyncCore(api: api, username: account.username, configuration: configuration)
        let snapshot: SyncSnapshot
        do {
            snapshot = try await self.snapshot(edits: edits, refreshingSubscriptions: refreshingSubscriptions)
        } catch {
            return Outcome(summary: SyncSummary(), failure: SyncFailure(step: .readStore, error: .store(reason: "\(error)")))
        }
        var step = SyncStep.logIn
        // Every secret this sync handles, to take out of the failure it may end with.
        var secrets = SecretsSeen()
        secrets.insert(snapshot.token)
        // The upserts of a page run on the background lane while the next request is sent and
        // its reply decoded; they run one after another, in order, each page prepared while
        // the one before it is written. At most two pages wait for the writer: a third waits
        // until the first is written, so that a writer slower than the server (a slow disk, a
        // busy machine) holds the sync back instead of letting decoded pages pile up in
        // memory. Every other effect waits for the writes: those that read or mark the store,
        // and the end of the sync.
        var writing: Task<SyncedStateCounts, any Error>?
        // The write before `writing`, while it may still run.
        var earlier: Task<SyncedStateCounts, any Error>?
        // The step that started the writes under way: a failed one is that step's failure.
        var writingStep = step
        func settleWrites() async -> SyncFailure? {
            guard let pending = writing else { return nil }
            writing = nil
            earlier = nil
            do {
                counts = counts + (try await pending.value)
                return nil
            } catch {
                return secrets.redacting(SyncFailure(step: writingStep, error: .store(reason: "\(error)")))
            }
        }
        // Appends `write` to the chain, given the write before it; it waits for that one
        // itself, and may prepare its work meanwhile.
        func chain(_ write: @escaping @Sendable (Task<SyncedStateCounts, any Error>?) async throws -> SyncedStateCounts) async {
            // Its failure, if any, reaches `writing` through the chain: here it is only waited for.
            _ = try? await earlier?.value
            let previous = writing
            if previous == nil { writingStep = step }
            earlier = previous
            // On the background lane, where the transaction runs too: the writes are the
            // sync's bulk work, and yield the cores to the requests, to a server on the same
            // machine and to the reader's frames.
            if #available(macOS 15, iOS 18, *) {
                writing = Task(executorPreference: BackgroundLane.shared) { try await write(previous) }
            } else {
                writing = Task { try await write(previous) }
            }
        }
        // A reply's upserts (a page's items, by feed) are written in one transaction.
        var upserts: [(remoteFeedID: String, entries: [SyncedEntry])] = []
        // A store that held none of the account's items takes the pages as new ones, without
        // looking each page's ids up first (an item a later page repeats is still compared).
        let mostlyNew = !snapshot.holdsSyncedItems
        // A bulk pull has started and no page is written yet: the first page's write begins
        // by setting the list index aside (not a write of its own in the chain, which would
        // hold a page back).
        var startsBulkPull = false
        func startWritingUpserts() async {
            guard !upserts.isEmpty else { return }
            let (page, startingBulkPull) = (upserts, startsBulkPull)
            upserts = []
            startsBulkPull = false
            await chain { previous in
                // Prepared while the write before it runs; written after it.
                let batches = page.map { (remoteFeedID: $0.remoteFeedID, batch: SyncedEntryBatch($0.entries)) }
                let before = try await previous?.value ?? SyncedStateCounts()
                if startingBulkPull { _ = try? await store.setListIndexAside() }
                return before + (try await store.upsertSynced(batches, now: now(), mostlyNew: mostlyNew))
            }
        }
        // The end of a bulk pull builds again what its start set aside: last in the chain,
        // after the last page's write, while the requests that follow go on.
        func startEndingBulkPull() async {
            await startWritingUpserts()
            // No page came: nothing was set aside.
            guard !startsBulkPull else { return startsBulkPull = false }
            await chain { previous in
                let before = try await previous?.value ?? SyncedStateCounts()
                // The index is not the sync's to fail on: queries do without it meanwhile, and
                // the store builds it again when it opens.
                try? await store.restoreListIndex()
                return before
            }
        }
        // `underWay.task`: the request under way while the core proceeds (decodes the page
        // before it).
        var next: SyncCore.Event? = .start(snapshot, now: now())
        while let event = next {
            next = nil
            // A page's items are decoded on the background lane, as they are written: the
            // sync's bulk work, which yields the cores to the requests.
            var effects: [SyncCore.Effect] = []
            if #available(macOS 15, iOS 18, *), case .proceed = event {
                await withTaskExecutorPreference(BackgroundLane.shared) { effects = core.handle(event) }
            } else {
                effects = core.handle(event)
            }
            for effect in effects {
                if case .apply(.upsert(let streamID, let entries)) = effect, !effect.waitsForWrites {
                    upserts.append((streamID, entries))
                    continue
                }
                if case .apply(.startBulkPull) = effect {
                    await startWritingUpserts()
                    startsBulkPull = true
                    continue
                }
                if case .apply(.endBulkPull) = effect {
                    await startEndingBulkPull()
                    continue
                }
                await startWritingUpserts()
                if effect.waitsForWrites, let failure = await settleWrites() {
                    return Outcome(summary: Self.summary(core.summary, counts), failure: failure)
                }
                switch effect {
                case .askPassword:
                    switch await password() {
                    case .success(let secret):
                        secrets.insert(secret)
                        next = .password(secret)
                    case .failure(let error): next = .passwordUnavailable(reason: error.description)
                    }
                case .send(let request):
                    secrets.insert(request)
                    // Started at once, on this thread, until it waits for the server: the
                    // request leaves before the core proceeds, without waiting for a thread.
                    if #available(macOS 26, iOS 26, *) {
                        underWay.task = Task.immediate { await perform(request) }
                    } else {
                        underWay.task = Task { await perform(request) }
                    }
                case .proceedWhileWaiting:
                    next = .proceed
                case .findUnstored(let ids):
                    let unstored = (try? await store.unstoredSyncedEntryIDs(among: ids.map(\.rawValue))) ?? ids.map(\.rawValue)
                    next = .unstored(unstored.map(RemoteItemID.init))
                case .apply where !effect.waitsForWrites:
                    // Not the change itself: it may hold a session token.
                    preconditionFailure("only upserts and the bounds of a bulk pull run ahead, and they are taken above")
                case .apply(let change):
                    if case .saveToken(let token) = change { secrets.insert(token) }
                    do {
                        counts = counts + (try await apply(change))
                    } catch {
                        return Outcome(summary: Self.summary(core.summary, counts),
                                       failure: secrets.redacting(SyncFailure(step: step, error: .store(reason: "\(error)"))))
                    }
                case .progress(let at, let summary):
                    step = at
                    progress(Progress(step: at, summary: Self.summary(summary, counts)))
                case .finished(let summary):
                    return Outcome(summary: Self.summary(summary, counts), failure: nil)
                case .failed(let failure, let summary):
                    return Outcome(summary: Self.summary(summary, counts), failure: secrets.redacting(failure))
                }
            }
            await startWritingUpserts()
            if next == nil, let request = underWay.task {
                underWay.task = nil
                // A sync cancelled cancels its request, as it did when it sent it itself.
                next = await withTaskCancellationHandler { await request.value } onCancel: { request.cancel() }
            }
        }
        preconditionFailure("a sync core stopped without finishing or failing")
    }

    /// What the store knows of the account, for the core.
    private func snapshot(edits: [SubscriptionEdit], refreshingSubscriptions: Bool) async throws -> SyncSnapshot {
        let marks = try await store.syncMarks()
        let queue = try await store.queuedStateChanges()
        let streams = try await store.feeds().compactMap(\.remoteID)
        return SyncSnapshot(
            token: tokens.load(), itemsPulledUpTo: marks.itemsPulledUpTo, subscriptionsFetched: marks.subscriptionsFetched,
            knownStreams: Set(streams),
            pending: queue.map { PendingChange(sequence: $0.sequence, itemID: RemoteItemID($0.entryID), action: $0.change) },
            subscriptionEdits: edits, refreshesSubscriptions: refreshingSubscriptions,
            holdsSyncedItems: try await store.holdsSyncedEntries())
    }

    /// Sends `request` to the account's server; the reply, whatever its status, or why none came.
    private func perform(_ request: SyncRequest) async -> SyncCore.Event {
        guard let url = request.url(relativeTo: account.apiURL) else {
            return .requestFailed(reason: "the account's address \(account.apiURL.absoluteString) makes no URL for \(request.path)")
        }
        let method: HTTPDataLoader.Request.Method = request.method == .post ? .post : .get
        let headers = request.headers.map { (name: $0.name, value: $0.value) }
        do {
            let reply = try await send(HTTPDataLoader.Request(method: method, url: url, headers: headers,
                                                              body: request.method == .post ? request.formBody : []))
            return .replied(SyncReply(status: reply.status, date: reply.header("Date").flatMap(FeedDate.parse), body: reply.body))
        } catch {
            return .requestFailed(reason: error.description)
        }
    }

    /// Applies one change to the store; what it changed.
    private func apply(_ change: SyncStoreChange) async throws -> SyncedStateCounts {
        switch change {
        case .saveToken(let token):
            try tokens.save(token)
        case .dequeue(let sequences):
            try await store.dequeueStateChanges(sequences)
        case .replaceSubscriptions(let subscriptions):
            _ = try await store.replaceSyncedFeeds(subscriptions.map {
                SyncedFeed(remoteID: $0.streamID, url: $0.feedURL, title: $0.title, link: $0.siteURL, category: $0.folders.first)
            })
        case .upsert, .startBulkPull, .endBulkPull:
            preconditionFailure("upserts and the bounds of a bulk pull run in sync()'s write chain")
        case .setUnread(let ids):
            return try await store.applyServerSet(.unread, ids: Set(ids.map(\.rawValue)))
        case .setStarred(let ids):
            return try await store.applyServerSet(.starred, ids: Set(ids.map(\.rawValue)))
        case .recordItemsPulled(let date):
            try await store.recordSyncMarks(SyncMarks(itemsPulledUpTo: date))
        case .recordSubscriptionsFetched(let date):
            try await store.recordSyncMarks(SyncMarks(subscriptionsFetched: date))
        }
        return SyncedStateCounts()
    }

    /// The core's counts of the wire with the store's counts of what changed.
    private static func summary(_ core: SyncSummary, _ counts: SyncedStateCounts) -> SyncSummary {
        var summary = core
        summary.new = counts.new
        summary.markedRead = counts.markedRead
        summary.markedUnread = counts.markedUnread
        summary.starred = counts.starred
        summary.unstarred = counts.unstarred
        return summary
    }
}

extension SyncCore.Effect {
    /// Whether the runtime performs this effect only once the upserts started before it are
    /// done: everything but sending, telling progress, asking the password, an upsert and the
    /// bounds of a bulk pull (which follow the write before them).
    fileprivate var waitsForWrites: Bool {
        switch self {
        case .send, .proceedWhileWaiting, .progress, .askPassword, .apply(.upsert), .apply(.startBulkPull), .apply(.endBulkPull): false
        case .findUnstored, .apply, .finished, .failed: true
        }
    }
}

/// The secrets a sync handled: the password, the session tokens, and every secret field of the
/// requests it sent (the write token). A server that quotes what it was sent in an error (a
/// refusal of `edit-tag` that echoes its form, a page that prints the `Authorization` header)
/// would put them into the failure's text, which is shown and logged; they are taken out.
private struct SecretsSeen {
    private var values: Set<String> = []

    /// Characters a form or a query keeps as they are (``SyncRequest``'s encoding).
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Keeps `secret`, as it is and as a form encodes it.
    mutating func insert(_ secret: SyncSecret?) {
        guard let text = secret?.revealed, !text.isEmpty else { return }
        values.insert(text)
        if let encoded = text.addingPercentEncoding(withAllowedCharacters: Self.unreserved) { values.insert(encoded) }
    }

    /// Keeps the values of the secret fields of `request`.
    mutating func insert(_ request: SyncRequest) {
        for field in request.query + request.form + request.headers where field.isSecret { insert(SyncSecret(field.value)) }
    }

    /// `text` with every secret replaced by `<redacted>`, the longest first (a header's value
    /// before the token inside it).
    func redacting(_ text: String) -> String {
        values.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
    }

    /// `failure` with no secret in its text.
    func redacting(_ failure: SyncFailure) -> SyncFailure {
        let error: SyncError = switch failure.error {
        case let .unexpectedReply(reason): .unexpectedReply(reason: redacting(reason))
        case let .rejected(reason): .rejected(reason: redacting(reason))
        case let .transport(reason): .transport(reason: redacting(reason))
        case let .passwordUnavailable(reason): .passwordUnavailable(reason: redacting(reason))
        case let .store(reason): .store(reason: redacting(reason))
        case .unauthorized, .emptyReply, .html, .invalidJSON, .itemWithoutID, .status: failure.error
        }
        return SyncFailure(step: failure.step, error: error)
    }
}
