import Feeds
import FeedSync
import Foundation
import GRDB
import HTTPLoading
import LoopbackHTTP
import ScrollworkTestSupport
import Testing

/// ``SyncRuntime`` against a Google Reader server scripted on 127.0.0.1 that misbehaves: every
/// fault ends the sync with a failure that names the step and holds no secret, loses no queued
/// change, leaves the stored entries as they were, and the next sync against a healthy server
/// finishes the job.
@Suite struct SyncFaultTests {
    static let password = "SECRET-PASSWORD-123"
    /// Every token the server makes starts so.
    static let tokenPrefix = "SECRET-TOKEN-456"
    static let writeToken = "SECRET-WRITE-789"
    static let secrets = [password, tokenPrefix, writeToken]

    static let itemA = "tag:google.com,2005:reader/item/0000000000001000"
    static let itemB = "tag:google.com,2005:reader/item/0000000000001001"
    static let readTag = "user/-/state/com.google/read"
    static let starredTag = "user/-/state/com.google/starred"
    static let itemsPath = "/reader/api/0/stream/contents/user/-/state/com.google/reading-list"

    typealias Fault = @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?

    // MARK: - The scripted server

    /// A Google Reader server's state and answers, shared by the loopback servers that play it
    /// (a server restarted on another port keeps its state). A `fault` answers first when it
    /// gives a reply.
    final class ScriptedReader: @unchecked Sendable {
        private let lock = NSLock()
        private var _fault: Fault?
        private var _sessions: Set<String> = []
        private var _logins = 0
        private var _read: Set<String> = []
        private var _starred: Set<String> = []
        private var _marks: [(tag: String, adds: Bool, ids: [String])] = []
        private var _refusesSessions = false

        var fault: Fault? {
            get { lock.withLock { _fault } }
            set { lock.withLock { _fault = newValue } }
        }

        /// Whether every session is refused, fresh ones included.
        var refusesSessions: Bool {
            get { lock.withLock { _refusesSessions } }
            set { lock.withLock { _refusesSessions = newValue } }
        }

        var logins: Int { lock.withLock { _logins } }
        var read: Set<String> { lock.withLock { _read } }
        var starred: Set<String> { lock.withLock { _starred } }
        /// Every `edit-tag` the server took, in order.
        var marks: [(tag: String, adds: Bool, ids: [String])] { lock.withLock { _marks } }

        /// Takes an `edit-tag` form: the server has the change.
        func applyMark(_ form: [(String, String)]) {
            lock.withLock {
                let ids = form.filter { $0.0 == "i" }.map(\.1)
                for (name, tag) in form where name == "a" || name == "r" {
                    let adds = name == "a"
                    for id in ids {
                        if tag == SyncFaultTests.readTag {
                            if adds { _read.insert(id) } else { _read.remove(id) }
                        } else if tag == SyncFaultTests.starredTag {
                            if adds { _starred.insert(id) } else { _starred.remove(id) }
                        }
                    }
                    _marks.append((tag, adds, ids))
                }
            }
        }

        static func form(_ body: [UInt8]) -> [(String, String)] {
            var components = URLComponents()
            components.percentEncodedQuery = String(decoding: body, as: UTF8.self)
            return (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        }

        func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
            if let reply = fault?(request) { return reply }
            let path = String(request.path.prefix { $0 != "?" })
            let form = Self.form(request.body)
            if path == "/accounts/ClientLogin" {
                guard request.method == "POST", form.contains(where: { $0 == ("Passwd", SyncFaultTests.password) }) else {
                    return .text(401, "Unauthorized!\n")
                }
                let token = lock.withLock {
                    _logins += 1
                    let token = "\(SyncFaultTests.tokenPrefix)-\(_logins)"
                    _sessions.insert(token)
                    return token
                }
                return .text(200, "SID=\(token)\nLSID=null\nAuth=\(token)\n")
            }
            let auth = request.header("Authorization") ?? ""
            let isSession = lock.withLock { !_refusesSessions && _sessions.contains(String(auth.dropFirst("GoogleLogin auth=".count))) }
            guard auth.hasPrefix("GoogleLogin auth="), isSession else { return .text(401, "Unauthorized!\n") }
            if request.method == "POST", path != "/reader/api/0/stream/items/contents",
               !form.contains(where: { $0 == ("T", SyncFaultTests.writeToken) }) {
                return .text(401, "Unauthorized!\n")
            }
            switch path {
            case "/reader/api/0/token":
                return .text(200, SyncFaultTests.writeToken + "\n")
            case "/reader/api/0/edit-tag":
                applyMark(form)
                return .text(200, "OK")
            case "/reader/api/0/subscription/list":
                return .text(200, #"{"subscriptions":[{"id":"feed/1","title":"Feed One","categories":[],"url":"http://127.0.0.1:9/feed.xml","htmlUrl":"http://127.0.0.1:9/"}]}"#,
                             headers: [("Content-Type", "application/json")])
            case SyncFaultTests.itemsPath, "/reader/api/0/stream/items/contents":
                let items = [(SyncFaultTests.itemA, "Alpha"), (SyncFaultTests.itemB, "Beta")].map { item(id: $0.0, title: $0.1) }
                return .text(200, #"{"id":"user/-/state/com.google/reading-list","updated":1795735308,"items":[\#(items.joined(separator: ","))]}"#,
                             headers: [("Content-Type", "application/json")])
            case "/reader/api/0/stream/items/ids":
                let query = request.path.removingPercentEncoding ?? ""
                let (read, starred) = lock.withLock { (_read, _starred) }
                let ids = [SyncFaultTests.itemA, SyncFaultTests.itemB].filter {
                    if query.contains("s=user/-/state/com.google/starred") { return starred.contains($0) }
                    if query.contains("xt=user/-/state/com.google/read") { return !read.contains($0) }
                    return true
                }
                let refs = ids.map { #"{"id":"\#(UInt64($0.suffix(16), radix: 16)!)"}"# }
                return .text(200, #"{"itemRefs":[\#(refs.joined(separator: ","))]}"#, headers: [("Content-Type", "application/json")])
            default:
                return .text(404, "<html>Not found</html>", headers: [("Content-Type", "text/html")])
            }
        }

        private func item(id: String, title: String) -> String {
            let (read, starred) = lock.withLock { (_read, _starred) }
            let states = ["user/-/state/com.google/reading-list"] + (read.contains(id) ? [SyncFaultTests.readTag] : [])
                + (starred.contains(id) ? [SyncFaultTests.starredTag] : [])
            let categories = states.map { "\"\($0)\"" }.joined(separator: ",")
            return #"{"id":"\#(id)","crawlTimeMsec":"1795735305732","published":1764151200,"title":"\#(title)","alternate":[{"href":"http://127.0.0.1:9/\#(title)"}],"categories":[\#(categories)],"origin":{"streamId":"feed/1"},"summary":{"content":"<p>\#(title)</p>"}}"#
        }
    }

    // MARK: - The device

    /// A store with one synced feed of two entries, a token file in a temporary folder, and the
    /// scripted server's state.
    struct Device {
        let store: FeedStore
        let tokens: SyncTokenFile
        let folder: URL
        let reader = ScriptedReader()

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-fault-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            store = try FeedStore(path: folder.appendingPathComponent("store.sqlite").path)
            tokens = SyncTokenFile(url: folder.appendingPathComponent("account-token"))
            _ = try await store.replaceSyncedFeeds([SyncedFeed(remoteID: "feed/1", url: URL(string: "http://127.0.0.1:9/feed.xml")!, title: "Feed One")])
            let published = Date(timeIntervalSince1970: 1_764_151_200)
            _ = try await store.upsertSynced([
                SyncedEntryState(entry: FeedEntry(id: SyncFaultTests.itemA, title: "Alpha", link: URL(string: "http://127.0.0.1:9/Alpha"),
                                                  published: published, content: "<p>Alpha</p>"), isRead: false, isStarred: false),
                SyncedEntryState(entry: FeedEntry(id: SyncFaultTests.itemB, title: "Beta", link: URL(string: "http://127.0.0.1:9/Beta"),
                                                  published: published, content: "<p>Beta</p>"), isRead: false, isStarred: false),
            ], remoteFeedID: "feed/1")
            // The subscription list is fresh: a sync goes from the push straight to the items.
            try await store.recordSyncMarks(SyncMarks(subscriptionsFetched: Date()))
        }

        func remove() {
            try? FileManager.default.removeItem(at: folder)
        }

        func runtime(_ server: LoopbackHTTPServer, _ loader: HTTPDataLoader, password: String = SyncFaultTests.password) -> SyncRuntime {
            runtime(server.url(""), loader, password: password)
        }

        func runtime(_ serverURL: URL, _ loader: HTTPDataLoader, password: String = SyncFaultTests.password) -> SyncRuntime {
            let account = SyncAccount(kind: .greader, serverURL: serverURL, username: "alice")
            let secret = SyncSecret(password)
            return SyncRuntime(account: account, store: store, tokens: tokens, loader: loader, password: { .success(secret) })
        }

        /// The stored entries by server id.
        func entries() async throws -> [String: StoredEntry] {
            Dictionary(uniqueKeysWithValues: try await store.entries(EntryQuery(limit: 100)).map { ($0.entry.id, $0) })
        }

        /// A device whose person has read item A here: one change queued.
        static func readingA() async throws -> Device {
            let device = try await Device()
            try await device.store.setRead(true, entries: [try await device.storedID(SyncFaultTests.itemA)])
            return device
        }

        func storedID(_ item: String) async throws -> StoredEntry.ID {
            try #require(try await entries()[item]).id
        }

        /// The queue as (item, change).
        func queue() async throws -> [String] {
            try await store.queuedStateChanges().map { "\($0.change.rawValue) \($0.entryID)" }
        }

        /// Starts a loopback server playing `reader`.
        func startServer() async throws -> LoopbackHTTPServer {
            let reader = self.reader
            return try await LoopbackHTTPServer.start { request, _ in reader.answer(request) }
        }
    }

    static func loader(_ configure: (inout HTTPDataLoader.Configuration) -> Void = { _ in }) -> HTTPDataLoader {
        var configuration = HTTPDataLoader.Configuration()
        configuration.connectTimeout = .seconds(2)
        configuration.readTimeout = .seconds(2)
        configuration.requestTimeout = .seconds(5)
        configure(&configuration)
        return HTTPDataLoader(configuration: configuration)
    }

    // MARK: - Checks

    /// No password, session token or write token in anything the outcome shows.
    static func expectNoSecrets(_ outcome: SyncRuntime.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        var texts = ["\(outcome)", String(reflecting: outcome), String(describing: outcome.failure)]
        if let failure = outcome.failure { texts += [failure.description, "\(failure.error)", String(reflecting: failure)] }
        var dumped = ""
        dump(outcome, to: &dumped)
        texts.append(dumped)
        for text in texts {
            for secret in secrets {
                #expect(!text.contains(secret), "a secret in \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The entries are the two stored, with their titles, and the local change (Alpha read)
    /// still shown.
    static func expectEntriesIntact(_ device: Device, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let entries = try await device.entries()
        #expect(entries.mapValues(\.entry.title) == [itemA: "Alpha", itemB: "Beta"], sourceLocation: sourceLocation)
        #expect(entries[itemA]?.isRead == true, "the local change is kept", sourceLocation: sourceLocation)
        #expect(entries[itemB]?.isRead == false, sourceLocation: sourceLocation)
        #expect(entries[itemA]?.entry.link?.absoluteString == "http://127.0.0.1:9/Alpha", sourceLocation: sourceLocation)
    }

    /// Where a fault struck.
    enum Stage {
        /// Before the push succeeded: the change must still be queued, and not on the server.
        case beforePush
        /// After the push succeeded: the server has the change, and only then left the queue.
        case afterPush
    }

    /// One sync with Alpha read in the queue, against the server with `fault`; its failure
    /// must be `description`. Then the fault is gone and a second sync must finish the job.
    func expectSurvives(_ fault: @escaping Fault, stage: Stage, failure description: String,
                        loader configure: (inout HTTPDataLoader.Configuration) -> Void = { _ in },
                        sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let device = try await Device.readingA()
        defer { device.remove() }
        #expect(try await device.queue() == ["read \(Self.itemA)"])
        let server = try await device.startServer()
        let loader = Self.loader(configure)
        do {
            device.reader.fault = fault
            let failed = await device.runtime(server, loader).sync()
            let failure = try #require(failed.failure, "the sync did not fail: \(failed)", sourceLocation: sourceLocation)
            #expect(failure.description == description, sourceLocation: sourceLocation)
            Self.expectNoSecrets(failed, sourceLocation: sourceLocation)
            switch stage {
            case .beforePush:
                #expect(try await device.queue() == ["read \(Self.itemA)"], "the change is kept", sourceLocation: sourceLocation)
                #expect(device.reader.read.isEmpty, sourceLocation: sourceLocation)
            case .afterPush:
                #expect(device.reader.read == [Self.itemA], "the server has the change", sourceLocation: sourceLocation)
                #expect(try await device.queue().isEmpty, "a change the server took is dequeued", sourceLocation: sourceLocation)
                #expect(failed.summary.pushed == 1, sourceLocation: sourceLocation)
            }
            try await Self.expectEntriesIntact(device, sourceLocation: sourceLocation)
            #expect(try await device.store.syncMarks().itemsPulledUpTo == nil, "no mark for a pull that failed", sourceLocation: sourceLocation)
            // A first pull set the list index aside; the failure did not leave it so.
            #expect(try await device.store.hasListIndex(), "the list index is built again", sourceLocation: sourceLocation)

            device.reader.fault = nil
            let healed = await device.runtime(server, loader).sync()
            #expect(healed.failure == nil, "\(String(describing: healed.failure))", sourceLocation: sourceLocation)
            Self.expectNoSecrets(healed, sourceLocation: sourceLocation)
            #expect(try await device.queue().isEmpty, sourceLocation: sourceLocation)
            #expect(device.reader.read == [Self.itemA], sourceLocation: sourceLocation)
            #expect(device.reader.marks.count == 1, "the change was pushed once", sourceLocation: sourceLocation)
            try await Self.expectEntriesIntact(device, sourceLocation: sourceLocation)
            #expect(try await device.store.syncMarks().itemsPulledUpTo != nil, sourceLocation: sourceLocation)
            #expect(try await device.store.hasListIndex(), sourceLocation: sourceLocation)
        } catch {
            try? await loader.shutdown()
            try? await server.stop()
            throw error
        }
        try await loader.shutdown()
        try await server.stop()
    }

    static func on(_ path: String, _ reply: LoopbackHTTPServer.Reply) -> Fault {
        { request in request.path.hasPrefix(path) ? reply : nil }
    }

    // MARK: - Tests

    @Test func aServerErrorOnTheItemsCallFailsThatStepAndLosesNothing() async throws {
        // The error page echoes the session, as a debugging server might: none of it is shown.
        let fault: Fault = { request in
            request.path.hasPrefix(Self.itemsPath)
                ? .text(500, "Internal error for \(request.header("Authorization") ?? "")", headers: [("Content-Type", "text/plain")]) : nil
        }
        try await expectSurvives(fault, stage: .afterPush, failure: "new items: the server answered HTTP 500")
    }

    @Test func aLoginPageWhereJSONWasExpectedFailsClearly() async throws {
        try await expectSurvives(
            Self.on(Self.itemsPath, .text(200, FreshRSSReplies.loginPage, headers: [("Content-Type", "text/html; charset=UTF-8")])),
            stage: .afterPush, failure: "new items: the server answered an HTML page (a login page?) where data was expected")
    }

    @Test func aLoginPageInsteadOfTheWriteTokenKeepsTheQueue() async throws {
        try await expectSurvives(
            Self.on("/reader/api/0/token", .text(200, FreshRSSReplies.loginPage, headers: [("Content-Type", "text/html")])),
            stage: .beforePush, failure: "write token: the server answered an HTML page (a login page?) where data was expected")
    }

    @Test func truncatedJSONFailsTheItemsStep() async throws {
        let truncated = String(#"{"id":"user/-/state/com.google/reading-list","updated":1795735308,"items":[{"id":"tag:google.com,2005:reader/item/0000000000001000","title":"Al"#)
        try await expectSurvives(Self.on(Self.itemsPath, .text(200, truncated, headers: [("Content-Type", "application/json")])),
                                 stage: .afterPush, failure: "new items: the server answered invalid or truncated JSON")
    }

    @Test func anItemWithoutAnIDFailsTheItemsStep() async throws {
        let noID = #"{"id":"user/-/state/com.google/reading-list","updated":1795735308,"items":[{"title":"Nameless","origin":{"streamId":"feed/1"}}]}"#
        try await expectSurvives(Self.on(Self.itemsPath, .text(200, noID, headers: [("Content-Type", "application/json")])),
                                 stage: .afterPush, failure: "new items: the server sent an item without an id")
    }

    @Test func aTruncatedBodyBrokenOffMidTransferFailsTheStep() async throws {
        let body = Array(#"{"id":"user/-/state/com.google/reading-list","items":["#.utf8)
        let outcome = try await failedOnce(Self.on(Self.itemsPath, .brokenOff(status: 200, declaredLength: 4000, body: body)))
        #expect(outcome.hasPrefix("new items: the request failed: "), "\(outcome)")
    }

    @Test func aWrongPasswordFailsTheLoginAndStoresNoToken() async throws {
        let device = try await Device.readingA()
        defer { device.remove() }
        let server = try await device.startServer()
        let loader = Self.loader()
        defer { Task { [loader, server] in try? await loader.shutdown(); try? await server.stop() } }

        let refused = await device.runtime(server, loader, password: Self.password + "-typo").sync()
        #expect(refused.failure == SyncFailure(step: .logIn, error: .unauthorized))
        #expect(refused.failure?.description == "log in: the server refused the user name or password (401)")
        Self.expectNoSecrets(refused)
        #expect(device.tokens.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: device.tokens.url.path))
        #expect(try await device.queue() == ["read \(Self.itemA)"])
        #expect(device.reader.read.isEmpty)
        try await Self.expectEntriesIntact(device)

        let healed = await device.runtime(server, loader).sync()
        #expect(healed.failure == nil, "\(String(describing: healed.failure))")
        Self.expectNoSecrets(healed)
        #expect(try await device.queue().isEmpty)
        #expect(device.reader.read == [Self.itemA])
        try await Self.expectEntriesIntact(device)
    }

    @Test func aRefusedTokenIsRenewedWithOneLoginAndKeptPrivately() async throws {
        let device = try await Device.readingA()
        defer { device.remove() }
        // A token the server no longer knows, in a file left readable by others.
        let stale = "\(Self.tokenPrefix)-stale"
        #expect(FileManager.default.createFile(atPath: device.tokens.url.path, contents: Data((stale + "\n").utf8),
                                               attributes: [.posixPermissions: 0o644]))
        let server = try await device.startServer()
        let loader = Self.loader()
        defer { Task { [loader, server] in try? await loader.shutdown(); try? await server.stop() } }

        let renewed = await device.runtime(server, loader).sync()
        #expect(renewed.failure == nil, "\(String(describing: renewed.failure))")
        Self.expectNoSecrets(renewed)
        #expect(device.reader.logins == 1)
        let token = try #require(device.tokens.load()).revealed
        #expect(token != stale)
        #expect(token == "\(Self.tokenPrefix)-1")
        let mode = try FileManager.default.attributesOfItem(atPath: device.tokens.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try await device.queue().isEmpty)
        #expect(device.reader.read == [Self.itemA])
        try await Self.expectEntriesIntact(device)

        // The new token is used as it is: no other login.
        let again = await device.runtime(server, loader).sync()
        #expect(again.failure == nil)
        #expect(device.reader.logins == 1)
    }

    @Test func aTokenRefusedAgainAfterTheFreshLoginFailsWithoutLoopingOrLosingTheQueue() async throws {
        let device = try await Device.readingA()
        defer { device.remove() }
        let server = try await device.startServer()
        let loader = Self.loader()
        defer { Task { [loader, server] in try? await loader.shutdown(); try? await server.stop() } }
        try device.tokens.save(SyncSecret("\(Self.tokenPrefix)-stale"))
        device.reader.refusesSessions = true

        let refused = await device.runtime(server, loader).sync()
        #expect(refused.failure == SyncFailure(step: .writeToken, error: .unauthorized))
        Self.expectNoSecrets(refused)
        #expect(device.reader.logins == 1, "one fresh login, not more")
        #expect(try await device.queue() == ["read \(Self.itemA)"])
        try await Self.expectEntriesIntact(device)

        device.reader.refusesSessions = false
        let healed = await device.runtime(server, loader).sync()
        #expect(healed.failure == nil, "\(String(describing: healed.failure))")
        #expect(try await device.queue().isEmpty)
        #expect(device.reader.read == [Self.itemA])
    }

    @Test func aBodyOverTheLoadersLimitFailsTheStep() async throws {
        let padding = String(repeating: "x", count: 200 * 1024)
        let huge = #"{"id":"user/-/state/com.google/reading-list","updated":1795735308,"items":[],"padding":"\#(padding)"}"#
        try await expectSurvives(Self.on(Self.itemsPath, .text(200, huge, headers: [("Content-Type", "application/json")])),
                                 stage: .afterPush, failure: "new items: the request failed: the body is larger than 65536 bytes",
                                 loader: { $0.maxBodySize = 64 * 1024 })
    }

    /// 100 MB of real items in one reply, against a sync's own limit: refused once past it,
    /// never held whole.
    @Test func aHundredMegabytesOfItemsInOneReplyFailTheStepAtTheSyncLimit() async throws {
        let item = #"{"id":"tag:google.com,2005:reader/item/%016x","crawlTimeMsec":"1795735305732","title":"Item","origin":{"streamId":"feed/1"},"summary":{"content":"\#(String(repeating: "<p>Lorem ipsum dolor sit amet.</p>", count: 28))"}}"#
        var body = Array(#"{"id":"user/-/state/com.google/reading-list","updated":1795735308,"items":["#.utf8)
        body.reserveCapacity(101 << 20)
        var number = 0x2000
        while body.count < 100 << 20 {
            if number > 0x2000 { body.append(UInt8(ascii: ",")) }
            body += String(format: item, number).utf8
            number += 1
        }
        body += Array("]}".utf8)
        let limit = HTTPDataLoader.Configuration.sync.maxBodySize
        try await expectSurvives(Self.on(Self.itemsPath, .respond(status: 200, headers: [("Content-Type", "application/json")], body: body)),
                                 stage: .afterPush, failure: "new items: the request failed: the body is larger than \(limit) bytes",
                                 loader: { $0.maxBodySize = limit })
    }

    @Test func aStoreThatCannotBeReadFailsBeforeAnyRequestNamingTheStore() async throws {
        let device = try await Device.readingA()
        defer { device.remove() }
        let other = try DatabaseQueue(path: device.folder.appendingPathComponent("store.sqlite").path)
        try await other.write { try $0.execute(sql: "DROP TABLE sync_mark") }
        let server = try await device.startServer()
        let loader = Self.loader()
        let outcome = await device.runtime(server, loader).sync()
        try await loader.shutdown()
        try await server.stop()
        let failure = try #require(outcome.failure)
        #expect(failure.step == .readStore)
        #expect(failure.description.hasPrefix("read the store: "), "\(failure)")
        #expect(outcome.summary.requests == 0)
        #expect(device.reader.logins == 0)
    }

    @Test func aTricklingBodyEndsAtTheDeadline() async throws {
        try await expectSurvives(Self.on(Self.itemsPath, .trickle(status: 200, declaredLength: 10_000, interval: .milliseconds(50))),
                                 stage: .afterPush, failure: "new items: the request failed: the request timed out",
                                 loader: { $0.requestTimeout = .seconds(1) })
    }

    @Test func aRedirectToAFileIsRefused() async throws {
        try await expectSurvives(
            Self.on(Self.itemsPath, .respond(status: 302, headers: [("Location", "file:///etc/passwd")])),
            stage: .afterPush,
            failure: "new items: the request failed: refused file:///etc/passwd: a redirect to file: is not fetched, only http and https")
    }

    @Test func aServerGoneInTheMiddleOfThePushKeepsExactlyTheChangesNotTaken() async throws {
        let device = try await Device.readingA()
        defer { device.remove() }
        try await device.store.setStarred(true, entries: [try await device.storedID(Self.itemB)])
        #expect(try await device.queue() == ["read \(Self.itemA)", "starred \(Self.itemB)"])
        let reader = device.reader
        // The second push is taken, then the server dies before it answers: the client cannot
        // know, and must push it again.
        reader.fault = { request in
            guard request.path == "/reader/api/0/edit-tag", reader.marks.count == 1 else { return nil }
            reader.applyMark(ScriptedReader.form(request.body))
            return .brokenOff(status: 200, declaredLength: 2, body: [])
        }
        let server = try await device.startServer()
        // The connection's end is what is tested, not a deadline: on a loaded machine the
        // server's close once came after the default two seconds of a read.
        let loader = Self.loader { $0.readTimeout = .seconds(30); $0.requestTimeout = .seconds(60) }
        let broken = await device.runtime(server, loader).sync()
        let failure = try #require(broken.failure)
        #expect(failure.step == .push)
        #expect(failure.description.hasPrefix("push changes: the request failed: the connection failed"), "\(failure)")
        Self.expectNoSecrets(broken)
        #expect(broken.summary.pushed == 1)
        #expect(try await device.queue() == ["starred \(Self.itemB)"], "the first push's change left the queue, the second's not")
        #expect(try await device.entries()[Self.itemB]?.isStarred == true)
        try await Self.expectEntriesIntact(device)

        // The server is gone (its port refuses, and no other test's server can take it):
        // nothing is reached, nothing changes.
        reader.fault = nil
        try await server.stop()
        try await loader.shutdown()
        let offline = Self.loader()
        let closed = try ClosedPort()
        let gone = await device.runtime(closed.url(""), offline).sync()
        #expect(gone.failure?.step == .writeToken)
        #expect(gone.failure?.description.hasPrefix("write token: the request failed: connection refused by 127.0.0.1:") == true,
                "\(String(describing: gone.failure))")
        Self.expectNoSecrets(gone)
        #expect(try await device.queue() == ["starred \(Self.itemB)"])

        // Back on another port, with its state: the next sync finishes the job.
        let restarted = try await device.startServer()
        let healed = await device.runtime(restarted, offline).sync()
        #expect(healed.failure == nil, "\(String(describing: healed.failure))")
        Self.expectNoSecrets(healed)
        #expect(try await device.queue().isEmpty)
        #expect(reader.read == [Self.itemA])
        #expect(reader.starred == [Self.itemB])
        #expect(reader.marks.map(\.ids) == [[Self.itemA], [Self.itemB], [Self.itemB]])
        try await Self.expectEntriesIntact(device)
        #expect(try await device.entries()[Self.itemB]?.isStarred == true)
        try await offline.shutdown()
        try await restarted.stop()
    }

    @Test func aSyncCancelledWhileAPushIsUnansweredKeepsThatChange() async throws {
        let device = try await Device.readingA()
        defer { device.remove() }
        try await device.store.setStarred(true, entries: [try await device.storedID(Self.itemB)])
        let reader = device.reader
        reader.fault = { request in
            request.path == "/reader/api/0/edit-tag" && reader.marks.count == 1 ? .silent : nil
        }
        let server = try await device.startServer()
        let loader = Self.loader()
        let runtime = device.runtime(server, loader)
        let sync = Task { await runtime.sync() }
        var answered = 0
        for await path in server.requestsAnswered where path == "/reader/api/0/edit-tag" {
            answered += 1
            if answered == 2 { break }
        }
        sync.cancel()
        let cancelled = await sync.value
        #expect(cancelled.failure?.step == .push)
        #expect(cancelled.failure?.description == "push changes: the request failed: cancelled")
        Self.expectNoSecrets(cancelled)
        #expect(try await device.queue() == ["starred \(Self.itemB)"])
        try await Self.expectEntriesIntact(device)

        reader.fault = nil
        let healed = await device.runtime(server, loader).sync()
        #expect(healed.failure == nil, "\(String(describing: healed.failure))")
        #expect(try await device.queue().isEmpty)
        #expect(reader.starred == [Self.itemB])
        try await loader.shutdown()
        try await server.stop()
    }

    @Test func aServerThatEchoesTheRequestInItsRefusalShowsNoSecret() async throws {
        // A refusal that quotes the form it was sent, write token included, and the session.
        let fault: Fault = { request in
            guard request.path == "/reader/api/0/edit-tag" else { return nil }
            return .text(200, "Error: cannot edit \(String(decoding: request.body, as: UTF8.self)) for \(request.header("Authorization") ?? "")")
        }
        try await expectSurvives(
            fault, stage: .beforePush,
            failure: "push changes: the server refused: Error: cannot edit i=tag%3Agoogle.com%2C2005%3Areader%2Fitem%2F0000000000001000&a=user%2F-%2Fstate%2Fcom.google%2Fread&T=<redacted> for <redacted>")
    }

    /// Everything a server on another port of the same host received.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var _seen: [String] = []
        var seen: [String] { lock.withLock { _seen } }

        func record(_ request: LoopbackHTTPServer.Request) {
            let text = "\(request.method) \(request.path) \(request.headers.map { "\($0.name): \($0.value)" }) \(String(decoding: request.body, as: UTF8.self))"
            lock.withLock { _seen.append(text) }
        }
    }

    /// Another service on the same host, on another port: a redirect there must not carry the
    /// session token (nor a POST's password), as a browser or curl would not send them to
    /// another origin.
    @Test(arguments: ["GET items", "POST login"])
    func aRedirectToAnotherPortOfTheSameHostCarriesNoCredential(_ redirected: String) async throws {
        let recorder = Recorder()
        let other = try await LoopbackHTTPServer.start { request, _ in
            recorder.record(request)
            return .text(401, "Unauthorized!\n")
        }
        let elsewhere = other.url("").absoluteString
        let fault: Fault = redirected == "GET items"
            ? Self.on(Self.itemsPath, .respond(status: 302, headers: [("Location", elsewhere + Self.itemsPath)]))
            : Self.on("/accounts/ClientLogin", .respond(status: 307, headers: [("Location", elsewhere + "/accounts/ClientLogin")]))
        let device = try await Device.readingA()
        defer { device.remove() }
        device.reader.fault = fault
        let server = try await device.startServer()
        let loader = Self.loader()
        let outcome = await device.runtime(server, loader).sync()
        if redirected == "GET items" {
            // Followed, without the session: the other service refuses it.
            #expect(outcome.failure?.description == "new items: the server refused the user name or password (401)")
            #expect(!recorder.seen.isEmpty)
        } else {
            // A POST's 307 to another origin is the reply: the password never goes there.
            #expect(outcome.failure?.description == "log in: the server answered HTTP 307")
            #expect(recorder.seen.isEmpty)
            #expect(try await device.queue() == ["read \(Self.itemA)"])
        }
        Self.expectNoSecrets(outcome)
        for seen in recorder.seen {
            for secret in Self.secrets {
                #expect(!seen.contains(secret), "\(secret) went to another port: \(seen)")
            }
        }
        try await Self.expectEntriesIntact(device)
        try await loader.shutdown()
        try await server.stop()
        try await other.stop()
    }

    /// The failure of one sync with Alpha read queued against a server with `fault`.
    func failedOnce(_ fault: @escaping Fault) async throws -> String {
        let device = try await Device.readingA()
        defer { device.remove() }
        device.reader.fault = fault
        let server = try await device.startServer()
        let loader = Self.loader()
        let outcome = await device.runtime(server, loader).sync()
        Self.expectNoSecrets(outcome)
        try await Self.expectEntriesIntact(device)
        #expect(device.reader.read == [Self.itemA])
        #expect(try await device.queue().isEmpty)
        try await loader.shutdown()
        try await server.stop()
        return outcome.failure?.description ?? "no failure"
    }
}
