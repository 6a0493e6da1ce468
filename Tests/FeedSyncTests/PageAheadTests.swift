import Feeds
import FeedSync
import Foundation
import SeededRandom
import Testing

/// A first sync asks for the next page of items before it decodes the one that came, on the
/// continuation read ahead: the server never waits for the client's decoding.
@Suite struct PageAheadTests {
    let items = "reader/api/0/stream/contents/user/-/state/com.google/reading-list"

    /// The Google Reader API with a continuation read ahead that may be wrong: `ahead` gives,
    /// for the nth page read ahead and the right answer, the answer to give.
    struct MisreadingAPI: SyncServerAPI {
        let base = GoogleReaderAPI()
        let ahead: @Sendable (Int, String?) -> String?
        let count = Counter()

        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func next() -> Int { lock.withLock { defer { value += 1 }; return value } }
        }

        var usesWriteToken: Bool { base.usesWriteToken }
        func logInRequest(username: String, password: SyncSecret) -> SyncRequest { base.logInRequest(username: username, password: password) }
        func decodeLogIn(_ reply: SyncReply) throws(SyncError) -> SyncSecret { try base.decodeLogIn(reply) }
        func request(for operation: SyncOperation, token: SyncSecret, writeToken: SyncSecret?) -> SyncRequest {
            base.request(for: operation, token: token, writeToken: writeToken)
        }
        func decode(_ reply: SyncReply, of operation: SyncOperation) throws(SyncError) -> SyncResult { try base.decode(reply, of: operation) }
        func continuationAhead(ofItems reply: SyncReply) -> String? { ahead(count.next(), base.continuationAhead(ofItems: reply)) }
    }

    @Test func theNextPageIsAskedForBeforeThisOneIsDecoded() {
        let server = FakeReaderServer()
        server.publish(7)
        var client = TestClient()
        client.configuration.itemsPerPage = 2
        guard case .finished = client.sync(with: server) else { Issue.record("\(client.effects.last!)"); return }
        let effects = client.effects
        let sends = effects.indices.filter { if case let .send(request) = effects[$0] { request.path == items } else { false } }
        let upserts = effects.indices.filter { if case .apply(.upsert) = effects[$0] { true } else { false } }
        // Pages of 2, 2, 2 and 1: each of the first three pages is stored after the next is
        // asked for, and the core proceeds while it waits.
        #expect(sends.count == 4 && upserts.count == 4)
        for page in 0..<3 {
            #expect(sends[page + 1] < upserts[page], "page \(page + 1) is decoded while page \(page + 2) comes")
            #expect(effects[sends[page + 1] + 1] == .proceedWhileWaiting)
        }
        // The last page has no continuation: it is decoded before the next request.
        #expect(!effects.contains { $0 == .proceedWhileWaiting && effects.firstIndex(of: $0)! > sends[3] })
        #expect(client.entries.count == 7 && client.requestsMade == server.requests.count)
    }

    @Test func aContinuationReadAheadOfAPageThatDoesNotDecodeFailsTheSync() {
        let server = FakeReaderServer()
        server.publish(3)
        server.faults = [(items, SyncReply(status: 200, text: #"{"items":[{"title":"no id","origin":{"streamId":"feed/1"}}],"continuation":"2"}"#), 1)]
        var client = TestClient()
        let end = client.sync(with: server)
        #expect(end == .failed(SyncFailure(step: .items, error: .itemWithoutID), client.summary(requests: 4)))
        // The page after was asked for; its reply is not taken.
        #expect(client.sentPaths.filter { $0 == items }.count == 2 && client.entries.isEmpty && !client.inBulkPull)
        client.sync(with: server)
        #expect(client.entries.count == 3)
    }

    /// Whatever the continuations read ahead say (right, wrong, or nothing), the sync stores
    /// every item once it finishes, and a wrong one costs exactly one more request.
    @Test func anyContinuationReadAheadEndsInTheSameStore() {
        let seed = randomizedTestSeed()
        print("PageAheadTests: seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for round in 0..<60 {
            let server = FakeReaderServer(feeds: 3)
            for feed in 1...3 { server.publish(Int.random(in: 0...9, using: &random), in: "feed/\(feed)") }
            for index in server.items.indices where Bool.random(using: &random) { server.items[index].isRead = true }
            // 0: right, 1: wrong, 2: none, for each page read ahead.
            let answers = (0..<40).map { _ in Int.random(in: 0...2, using: &random) }
            var client = TestClient()
            client.configuration.itemsPerPage = Int.random(in: 1...4, using: &random)
            let wrong = MisreadingAPI.Counter()
            client.api = MisreadingAPI { index, right in
                guard let right else { return nil }
                switch answers[index % answers.count] {
                case 0: return right
                case 1:
                    _ = wrong.next()
                    return right + "0"
                default: return nil
                }
            }
            let end = client.sync(with: server)
            guard case .finished = end else { Issue.record("seed \(seed), round \(round): \(end)"); continue }
            let stored = Dictionary(uniqueKeysWithValues: client.entries.map { ($0.key, $0.value.isRead) })
            let expected = Dictionary(uniqueKeysWithValues: server.items.map { (FakeReaderServer.longID($0.number), $0.isRead) })
            #expect(stored == expected, "seed \(seed), round \(round)")
            #expect(!client.inBulkPull, "seed \(seed), round \(round)")

            // The same sync with every continuation read right, for its number of requests.
            var plain = TestClient()
            plain.configuration = client.configuration
            plain.sync(with: server)
            #expect(client.requestsMade == plain.requestsMade + wrong.next(), "seed \(seed), round \(round)")
        }
    }
}
