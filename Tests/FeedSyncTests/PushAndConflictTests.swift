import FeedSync
import Foundation
import Testing

@Suite("Push and conflicts")
struct PushAndConflictTests {
    let editTag = "reader/api/0/edit-tag"

    func dequeued(_ client: TestClient) -> [[Int64]] {
        client.storeChanges.compactMap { if case let .dequeue(sequences) = $0 { sequences } else { nil } }
    }

    @Test func pushesTheQueueInBatchesOfOneActionBeforePulling() {
        let server = FakeReaderServer()
        let ids = server.publish(600)
        var client = TestClient()
        client.sync(with: server)
        for id in ids { client.mark(id, .read) }
        client.mark(ids[0], .starred)
        let end = client.sync(with: server)
        #expect(client.sentPaths == ["reader/api/0/token", editTag, editTag, editTag, editTag,
                                     "reader/api/0/stream/items/ids", "reader/api/0/stream/items/ids", "reader/api/0/stream/items/ids"])
        let marks = server.requests.filter { $0.path == editTag }.suffix(4)
        #expect(marks.map { $0.form.filter { $0.name == "i" }.count } == [250, 250, 100, 1])
        #expect(marks.map { $0.form.filter { $0.name == "a" || $0.name == "r" }.count } == [1, 1, 1, 1])
        #expect(server.items.allSatisfy { $0.isRead })
        #expect(server.items[0].isStarred)
        #expect(client.queue.isEmpty)
        #expect(dequeued(client).map(\.count) == [250, 250, 100, 1])
        guard case let .finished(summary) = end else { Issue.record("\(end)"); return }
        #expect(summary.pushed == 601)
        #expect(summary.description.hasSuffix("601 pushed"))
    }

    @Test func theLastChangeOfAStateWinsAndSettlesTheEarlierOnes() {
        let server = FakeReaderServer()
        let id = server.publish(1)[0]
        var client = TestClient()
        client.sync(with: server)
        server.items[0].isRead = true
        client.mark(id, .read)
        client.mark(id, .unread)
        client.mark(id, .starred)
        client.sync(with: server)
        let marks = server.requests.filter { $0.path == editTag }
        #expect(marks.map { $0.form.filter { $0.name != "i" && $0.name != "T" }.map(\.description) }
            == [["r=user/-/state/com.google/read"], ["a=user/-/state/com.google/starred"]])
        #expect(dequeued(client) == [[1, 2], [3]])
        #expect(server.items[0].isRead == false && server.items[0].isStarred)
        #expect(client.entries[id]?.isRead == false)
    }

    @Test func aFailedPushKeepsTheQueueAndPullsNothing() {
        let server = FakeReaderServer()
        let ids = server.publish(3)
        var client = TestClient()
        client.configuration.maxIDsPerMark = 2
        client.sync(with: server)
        server.items[2].isRead = true
        for id in ids { client.mark(id, .unread) }
        client.mark(ids[2], .starred)
        server.faults = [("edit-tag", SyncReply(status: 200, text: FreshRSSReplies.loginPage), 1)]
        let first = client.sync(with: server)
        #expect(first.failureDescription == "push changes: the server answered an HTML page (a login page?) where data was expected")
        #expect(client.queue.count == 4)
        #expect(!client.storeChanges.contains { if case .setUnread = $0 { true } else { false } })
        // The second call fails after the first succeeded: only the first is dequeued.
        var failsNext = true
        client.sync(with: server) { _, request in
            guard request.path == editTag, failsNext else { return }
            server.faults = [("edit-tag", SyncReply(status: 502, text: "bad gateway"), 1)]
            failsNext = false
        }
        #expect(client.sentPaths == ["reader/api/0/token", editTag, editTag])
        #expect(dequeued(client) == [[1, 2]])
        #expect(client.queue.map(\.sequence) == [3, 4])
        #expect(client.entries[ids[2]]?.isRead == false)
        client.sync(with: server)
        #expect(client.queue.isEmpty)
        #expect(server.items.allSatisfy { !$0.isRead && $0.isStarred == ($0.number == server.items[2].number) })
        #expect(client.entries[ids[2]]?.isRead == false)
    }

    @Test func aPushThatSucceededBeforeAFailureStaysPushed() {
        let server = FakeReaderServer()
        let ids = server.publish(3)
        var client = TestClient()
        client.configuration.maxIDsPerMark = 2
        client.sync(with: server)
        for id in ids { client.mark(id, .read) }
        server.faults = [("stream/items/ids", SyncReply(status: 500, text: ""), 1)]
        let end = client.sync(with: server)
        #expect(end.failureDescription == "new items: the server answered HTTP 500")
        #expect(client.queue.isEmpty)
        #expect(dequeued(client).map(\.count) == [2, 1])
    }

    // MARK: - Two devices

    @Test func aReadMarkOnOneDeviceReachesTheOtherAfterOneSyncEach() {
        let server = FakeReaderServer()
        let ids = server.publish(4)
        var laptop = TestClient(), phone = TestClient()
        laptop.sync(with: server)
        phone.sync(with: server)
        laptop.mark(ids[1], .read)
        phone.mark(ids[2], .starred)
        laptop.sync(with: server)
        phone.sync(with: server)
        #expect(phone.entries[ids[1]]?.isRead == true)
        #expect(phone.entries[ids[2]]?.isStarred == true)
        laptop.sync(with: server)
        #expect(laptop.entries[ids[2]]?.isStarred == true)
        #expect(laptop.entries.mapValues(\.isRead) == phone.entries.mapValues(\.isRead))
    }

    @Test func anUnpushedChangeWinsOverTheStateItWasMadeAgainst() {
        let server = FakeReaderServer()
        let id = server.publish(1)[0]
        var laptop = TestClient(), phone = TestClient()
        laptop.sync(with: server)
        phone.sync(with: server)
        // Offline, the laptop reads the item; meanwhile the phone marks it unread explicitly.
        laptop.mark(id, .read)
        phone.mark(id, .read)
        phone.sync(with: server)
        phone.mark(id, .unread)
        phone.sync(with: server)
        laptop.sync(with: server)
        #expect(laptop.entries[id]?.isRead == true)
        #expect(server.items[0].isRead)
        // Once pushed, the server's state wins: the phone's next change is seen by the laptop.
        phone.sync(with: server)
        #expect(phone.entries[id]?.isRead == true)
        phone.mark(id, .unread)
        phone.sync(with: server)
        laptop.sync(with: server)
        #expect(laptop.entries[id]?.isRead == false)
    }

    @Test func aChangeMadeDuringASyncIsNotUndoneByThePull() {
        let server = FakeReaderServer()
        let ids = server.publish(2)
        var client = TestClient()
        client.sync(with: server)
        client.sync(with: server) { client, request in
            // The user reads an item and stars another after the server listed its states.
            if request.path == "reader/api/0/stream/items/ids", client.queue.isEmpty {
                client.mark(ids[0], .read)
                client.mark(ids[1], .starred)
            }
        }
        #expect(client.entries[ids[0]]?.isRead == true)
        #expect(client.entries[ids[1]]?.isStarred == true)
        #expect(client.queue.count == 2)
        client.sync(with: server)
        #expect(client.queue.isEmpty)
        #expect(server.items[0].isRead && server.items[1].isStarred)
    }

    @Test func aChangeMadeDuringASyncIsNotUndoneByPulledItems() {
        let server = FakeReaderServer()
        let id = server.publish(1)[0]
        var client = TestClient()
        client.sync(with: server)
        // The item is pulled again (a whole pull, as when the mark is gone), unread on the
        // server, while the user reads it.
        client.itemsPulledUpTo = nil
        client.sync(with: server) { client, request in
            if request.path.hasSuffix("reading-list"), client.queue.isEmpty { client.mark(id, .read) }
        }
        #expect(client.storeChanges.contains { if case let .upsert(_, entries) = $0 { entries.map(\.isRead) == [false] } else { false } })
        #expect(client.entries[id]?.isRead == true)
        client.sync(with: server)
        #expect(server.items[0].isRead)
    }
}
