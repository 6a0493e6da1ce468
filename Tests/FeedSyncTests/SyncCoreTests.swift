import Feeds
import FeedSync
import Foundation
import Testing

@Suite("Sync core")
struct SyncCoreTests {
    let items = "reader/api/0/stream/contents/user/-/state/com.google/reading-list"
    let ids = "reader/api/0/stream/items/ids"
    let subscriptions = "reader/api/0/subscription/list"
    let contents = "reader/api/0/stream/items/contents"

    func synced(_ server: FakeReaderServer) -> TestClient {
        var client = TestClient()
        client.sync(with: server)
        return client
    }

    @Test func firstSyncLogsInFetchesSubscriptionsAndPullsEverything() {
        let server = FakeReaderServer()
        let published = server.publish(3)
        server.items[0].isRead = true
        var client = TestClient()
        let end = client.sync(with: server)
        guard case let .finished(summary) = end else { Issue.record("\(end)"); return }
        #expect(client.sentPaths == ["accounts/ClientLogin", subscriptions, items, ids, ids])
        #expect(client.token == SyncSecret("alice/session1"))
        #expect(client.feeds.keys.sorted() == ["feed/1"])
        #expect(Set(client.entries.keys) == Set(published))
        #expect(client.entries[published[0]]?.isRead == true)
        #expect(client.entries[published[1]]?.isRead == false)
        #expect(client.itemsPulledUpTo == Date(timeIntervalSince1970: TimeInterval(server.now)))
        #expect(summary.received == 3 && summary.requests == 5 && summary.pushed == 0)
    }

    @Test func aSyncWithNothingNewMakesThreeRequests() {
        let server = FakeReaderServer()
        server.publish(3)
        var client = synced(server)
        server.now += 600
        client.now += 600
        let before = server.requests.count
        client.sync(with: server)
        #expect(server.requests.count - before == 3)
        #expect(client.sentPaths == [ids, ids, ids])
        #expect(!client.effects.contains(.askPassword))
    }

    @Test func asksForItemsFromShortlyBeforeTheLastMark() {
        let server = FakeReaderServer()
        var client = synced(server)
        client.sync(with: server)
        let since = server.requests.last { $0.path == ids && $0.query.contains { $0.name == "ot" } }?.query.first { $0.name == "ot" }?.value
        #expect(since == String(server.now - 120))
        #expect(!server.requests.dropFirst(3).contains { $0.path == items }, "a later sync downloads no item it has")
    }

    @Test func fetchesTheSubscriptionListWhenOldWhenAskedOrAfterAnEdit() {
        let server = FakeReaderServer()
        var client = synced(server)
        client.now += 3599
        client.sync(with: server)
        #expect(!client.sentPaths.contains(subscriptions))
        client.now += 1
        client.sync(with: server)
        #expect(client.sentPaths.contains(subscriptions))
        client.sync(with: server, refreshesSubscriptions: true)
        #expect(client.sentPaths.contains(subscriptions))
        client.sync(with: server, edits: [.rename(streamID: "feed/1", title: "Renamed")])
        #expect(client.sentPaths == ["reader/api/0/token", "reader/api/0/subscription/edit", subscriptions, ids, ids, ids])
        #expect(client.feeds["feed/1"]?.title == "Renamed")
    }

    @Test func anItemOfAnUnknownFeedBringsTheSubscriptionListFirst() {
        let server = FakeReaderServer()
        var client = synced(server)
        server.subscriptions.append(("feed/2", "http://127.0.0.1:8792/2.xml", "Feed 2", "News"))
        let new = server.publish(1, in: "feed/2")
        client.sync(with: server)
        #expect(client.sentPaths == [ids, ids, ids, contents, subscriptions])
        #expect(client.feeds["feed/2"]?.folders == ["News"])
        #expect(client.entries[new[0]]?.stream == "feed/2")
    }

    @Test func subscribesAndSeesTheNewFeed() {
        let server = FakeReaderServer()
        var client = synced(server)
        client.sync(with: server, edits: [.subscribe(URL(string: "http://127.0.0.1:8792/new.xml")!, title: "New", folder: "Tech")])
        #expect(client.feeds["feed/2"] == RemoteSubscription(streamID: "feed/2", feedURL: URL(string: "http://127.0.0.1:8792/new.xml")!,
                                                             title: "New", siteURL: URL(string: "http://127.0.0.1:8792/"), folders: ["Tech"]))
    }

    @Test func followsContinuationsPageByPageAndStoresEachPage() {
        let server = FakeReaderServer(feeds: 2)
        server.publish(3, in: "feed/1")
        server.publish(2, in: "feed/2")
        var client = TestClient()
        client.configuration.itemsPerPage = 2
        client.configuration.idsPerPage = 2
        client.sync(with: server)
        #expect(client.sentPaths.filter { $0 == items }.count == 3)
        #expect(client.sentPaths.filter { $0 == ids }.count == 4)
        #expect(client.entries.count == 5)
        let upserts = client.storeChanges.compactMap { if case let .upsert(stream, entries) = $0 { "\(stream):\(entries.count)" } else { nil } }
        #expect(upserts == ["feed/2:2", "feed/1:2", "feed/1:1"])
    }

    @Test func fetchesUnreadAndStarredItemsTheStoreLacksByIDInBatches() {
        let server = FakeReaderServer()
        let old = server.publish(5)
        server.items[4].isRead = true
        server.items[4].isStarred = true
        server.now += 600
        var client = synced(server)
        client.entries = [:]
        client.configuration.maxIDsPerFetch = 2
        client.sync(with: server)
        #expect(client.sentPaths == [ids, ids, ids, contents, contents, contents])
        #expect(Set(client.entries.keys) == Set(old))
        #expect(client.entries[old[4]]?.isStarred == true)
    }

    @Test func sameEventsGiveSameEffects() {
        func run() -> [SyncCore.Effect] {
            let server = FakeReaderServer(feeds: 2)
            server.publish(4, in: "feed/2")
            var client = TestClient()
            client.mark(FakeReaderServer.longID(7), .starred)
            client.sync(with: server)
            return client.effects
        }
        #expect(run() == run())
    }

    // MARK: - Sessions

    @Test func renewsARefusedTokenOnceAndRepeatsTheRequest() {
        let server = FakeReaderServer()
        var client = synced(server)
        server.revokeSessions()
        let end = client.sync(with: server)
        #expect(client.sentPaths == [ids, "accounts/ClientLogin", ids, ids, ids])
        #expect(client.effects.contains(.askPassword))
        #expect(client.token == SyncSecret("alice/session2"))
        guard case .finished = end else { Issue.record("\(end)"); return }
    }

    @Test func aSecondRefusalFailsUnauthorizedAndKeepsTheQueue() {
        let server = FakeReaderServer()
        let id = server.publish(1)[0]
        var client = synced(server)
        client.mark(id, .read)
        server.refusesSessions = true
        let end = client.sync(with: server)
        #expect(client.sentPaths == ["reader/api/0/token", "accounts/ClientLogin", "reader/api/0/token"])
        #expect(end == .failed(SyncFailure(step: .writeToken, error: .unauthorized), client.summary(requests: 3)))
        #expect(client.queue.count == 1)
    }

    @Test func aWrongPasswordFailsTheLogIn() {
        let server = FakeReaderServer()
        var client = TestClient()
        client.password = "wrong"
        #expect(client.sync(with: server) == .failed(SyncFailure(step: .logIn, error: .unauthorized), client.summary(requests: 1)))
        client.password = nil
        #expect(client.sync(with: server) == .failed(SyncFailure(step: .logIn, error: .passwordUnavailable(reason: "cancelled")), SyncSummary()))
        #expect(client.token == nil)
    }

    // MARK: - Faults

    @Test func aFailedRequestEndsTheSyncNamingTheStepAndRecordsNoMark() {
        let server = FakeReaderServer()
        server.publish(2)
        var client = synced(server)
        let mark = client.itemsPulledUpTo
        server.now += 600
        server.publish(1)
        server.faults = [("stream/items/ids", SyncReply(status: 500, text: "oops"), 1)]
        let end = client.sync(with: server)
        guard case let .failed(failure, _) = end else { Issue.record("\(end)"); return }
        #expect(failure.description == "new items: the server answered HTTP 500")
        #expect(client.itemsPulledUpTo == mark)
        client.sync(with: server)
        #expect(client.itemsPulledUpTo == Date(timeIntervalSince1970: TimeInterval(server.now)))
        #expect(client.entries.count == 3)
    }

    @Test func hostileRepliesEachGetAClearError() {
        let cases: [(SyncReply, SyncError)] = [
            (SyncReply(status: 200, text: FreshRSSReplies.loginPage), .html),
            (SyncReply(status: 200, text: String(FreshRSSReplies.itemsFirstPage.prefix(500))), .invalidJSON),
            (SyncReply(status: 200, text: ""), .emptyReply),
            (SyncReply(status: 200, text: #"{"items":[{"title":"no id","origin":{"streamId":"feed/1"}}]}"#), .itemWithoutID),
        ]
        for (reply, error) in cases {
            let server = FakeReaderServer()
            var client = TestClient()
            server.faults = [("reading-list", reply, 1)]
            // Log in, subscriptions, the first page of items.
            #expect(client.sync(with: server) == .failed(SyncFailure(step: .items, error: error), client.summary(requests: 3)))
        }
    }

    @Test func aRequestWithoutAReplyFailsItsStep() {
        let server = FakeReaderServer()
        let client = synced(server)
        var core = SyncCore(api: GoogleReaderAPI(), username: "alice")
        _ = core.handle(.start(SyncSnapshot(token: client.token, subscriptionsFetched: client.now, knownStreams: ["feed/1"]), now: client.now))
        let effects = core.handle(.requestFailed(reason: "timed out after 30 s"))
        // The first page of a first sync: its bulk pull ends before the failure.
        #expect(effects.count == 2 && effects.first == .apply(.endBulkPull))
        #expect(effects.compactMap(\.failureDescription) == ["new items: the request failed: timed out after 30 s"])
        #expect(core.isFinished)
    }

    @Test func theItemsASyncStoredNeedNoLookup() {
        let server = FakeReaderServer()
        server.publish(4)
        server.items[1].isStarred = true
        // An unread item of a feed the account does not follow: the pull leaves it out, so the
        // store is asked about it.
        let stray = server.publish(1, in: "feed/9")
        var client = TestClient()
        client.sync(with: server)
        let lookups = client.effects.compactMap { if case let .findUnstored(ids) = $0 { ids } else { nil } }
        #expect(lookups == [stray])
        #expect(client.entries.count == 4)
    }

    /// Whether the last sync applied the unread or the starred set.
    func appliedSets(_ client: TestClient) -> [String] {
        client.storeChanges.compactMap {
            switch $0 {
            case .setUnread: "unread"
            case .setStarred: "starred"
            default: nil
            }
        }
    }

    @Test func aFirstSyncIntoAnEmptyStoreAppliesNoSetThatWouldChangeNothing() {
        let server = FakeReaderServer()
        server.publish(5)
        server.items[0].isRead = true
        server.items[1].isStarred = true
        server.items[2].isRead = true
        server.items[2].isStarred = true
        var client = TestClient()
        guard case .finished = client.sync(with: server) else { Issue.record("the sync failed"); return }
        #expect(appliedSets(client) == [])
        #expect(client.sentPaths.suffix(2) == [ids, ids], "the sets are still fetched")
        for item in server.items {
            let entry = client.entries[FakeReaderServer.longID(item.number)]
            #expect(entry?.isRead == item.isRead && entry?.isStarred == item.isStarred)
        }
    }

    @Test(arguments: SyncAction.allCases)
    func aStateChangedAfterItsPageCameIsTakenFromTheSets(_ change: SyncAction) {
        let server = FakeReaderServer()
        server.publish(3)
        // The item starts in the state the change leaves.
        server.items[1].isRead = change == .unread
        server.items[1].isStarred = change == .unstarred
        var client = TestClient()
        // Another device changes the item once its page is answered, before the sets are.
        client.sync(with: server) { _, request in
            guard request.path == items else { return }
            switch change {
            case .read, .unread: server.items[1].isRead = change == .read
            case .starred, .unstarred: server.items[1].isStarred = change == .starred
            }
        }
        #expect(appliedSets(client) == ["unread", "starred"])
        let entry = client.entries[FakeReaderServer.longID(server.items[1].number)]
        #expect(entry?.isRead == server.items[1].isRead && entry?.isStarred == server.items[1].isStarred)
    }

    @Test func aFirstSyncIntoAStoreThatHoldsItemsAppliesTheSets() {
        let server = FakeReaderServer()
        server.publish(3)
        var client = synced(server)
        // The server dropped an item the store holds, and the mark was lost (a sync killed
        // before it recorded it pulls everything again): only the sets can mark it read.
        let gone = FakeReaderServer.longID(server.items.removeLast().number)
        client.itemsPulledUpTo = nil
        client.sync(with: server)
        #expect(appliedSets(client) == ["unread", "starred"])
        #expect(client.entries[gone]?.isRead == true)
    }

    @Test func aFirstSyncWritesEveryPageBetweenTheStartAndTheEndOfItsBulkPull() {
        let server = FakeReaderServer(feeds: 2)
        server.publish(5, in: "feed/1")
        server.publish(4, in: "feed/2")
        var client = TestClient()
        client.configuration.itemsPerPage = 2
        client.sync(with: server)
        let changes = client.storeChanges
        let start = changes.firstIndex(of: .startBulkPull)
        let end = changes.firstIndex(of: .endBulkPull)
        let upserts = changes.indices.filter { if case .upsert = changes[$0] { true } else { false } }
        #expect(changes.filter { $0 == .startBulkPull || $0 == .endBulkPull }.count == 2)
        #expect(upserts.count == 5 && start.map { $0 < upserts.first! } == true && end.map { $0 > upserts.last! } == true)
        // The end comes before the unread ids are asked for, so the store can finish while the
        // requests that follow are under way, and before any change that reads the store.
        let effects = client.effects
        let endEffect = effects.firstIndex(of: .apply(.endBulkPull))!
        let firstIDs = effects.firstIndex { if case let .send(request) = $0 { request.path == ids } else { false } }!
        #expect(endEffect < firstIDs)
        #expect(!client.inBulkPull && client.entries.count == 9)

        // A later sync pulls what is new: no bulk pull.
        server.now += 600
        server.publish(3, in: "feed/2")
        client.sync(with: server)
        #expect(!client.storeChanges.contains(.startBulkPull) && !client.storeChanges.contains(.endBulkPull))
        #expect(client.entries.count == 12)
    }

    @Test func aFirstSyncThatFailsAtAnyPageEndsItsBulkPull() {
        for failing in 1...4 {
            let server = FakeReaderServer()
            server.publish(7)
            var client = TestClient()
            client.configuration.itemsPerPage = 2
            // The page `failing` of four is answered with a 500.
            let fault = (path: items, reply: SyncReply(status: 500, text: "oops"), times: 1)
            if failing == 1 { server.faults = [fault] }
            var pages = 0
            let end = client.sync(with: server) { _, request in
                guard request.path == items else { return }
                pages += 1
                if pages == failing - 1 { server.faults = [fault] }
            }
            guard case let .failed(failure, _) = end else { Issue.record("page \(failing): \(end)"); continue }
            #expect(failure.step == .items, "page \(failing)")
            #expect(client.effects.dropLast().last == .apply(.endBulkPull), "page \(failing)")
            #expect(!client.inBulkPull, "page \(failing)")
            // The next sync starts over: a first sync again, since no mark was recorded.
            client.sync(with: server)
            #expect(client.storeChanges.first { $0 == .startBulkPull || $0 == .endBulkPull } == .startBulkPull)
            #expect(!client.inBulkPull && client.entries.count == 7, "page \(failing)")
        }
    }
}

extension TestClient {
    /// A summary of a sync that sent `requests` requests and received nothing.
    func summary(requests: Int) -> SyncSummary {
        var summary = SyncSummary()
        summary.requests = requests
        return summary
    }
}

extension SyncCore.Effect {
    var failureDescription: String? {
        if case let .failed(failure, _) = self { failure.description } else { nil }
    }
}
