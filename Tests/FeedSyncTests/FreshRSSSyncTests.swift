import Feeds
import FeedSync
import Foundation
import HTTPLoading
import LoopbackHTTP
import ScrollworkTestSupport
import Testing

/// Sync against a real FreshRSS (``FreshRSSServer``), its feeds served on 127.0.0.1 by the
/// test: two data folders as two devices, and FreshRSS's Fever API as a third client.
///
/// Where the server cannot start (no PHP), these tests are skipped with the reason; in CI
/// (`CI` set), ``theServerStartsInCI()`` fails instead.
@Suite(.serialized) struct FreshRSSSyncTests {
    /// A data folder syncing with the server: its store, its token file, its runtime.
    struct Device {
        let store: FeedStore
        let runtime: SyncRuntime
        let tokens: SyncTokenFile

        init(_ server: FreshRSSServer, loader: HTTPDataLoader, password: String? = nil) throws {
            let folder = server.directory.appendingPathComponent("device-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            store = try FeedStore(path: folder.appendingPathComponent("scrollwork.sqlite").path)
            tokens = SyncTokenFile(url: folder.appendingPathComponent("account-token"))
            let account = SyncAccount(kind: .freshrss, serverURL: server.greaderURL.deletingLastPathComponent().deletingLastPathComponent(),
                                      username: server.user)
            let secret = SyncSecret(password ?? server.apiPassword)
            runtime = SyncRuntime(account: account, store: store, tokens: tokens, loader: loader, password: { .success(secret) })
        }

        func sync(_ edits: [SubscriptionEdit] = []) async -> SyncRuntime.Outcome {
            await runtime.sync(edits: edits)
        }

        /// The stored entries by title.
        func entries() async throws -> [String: StoredEntry] {
            Dictionary(try await store.entries(EntryQuery(limit: 1000)).map { ($0.entry.title, $0) }, uniquingKeysWith: { a, _ in a })
        }
    }

    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Loopback News</title><link>http://127.0.0.1/</link>
        <item><title>One</title><link>http://127.0.0.1/1</link><guid>one</guid><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate><description>First &lt;img src="http://127.0.0.1/1.png"&gt;</description></item>
        <item><title>Two</title><link>http://127.0.0.1/2</link><guid>two</guid><pubDate>Tue, 03 Nov 2026 10:00:00 GMT</pubDate><description>Second</description></item>
        <item><title>Three</title><link>http://127.0.0.1/3</link><guid>three</guid><pubDate>Wed, 04 Nov 2026 10:00:00 GMT</pubDate><description>Third</description></item>
        </channel></rss>
        """

    /// Runs `body` with a fresh server, a feed served on 127.0.0.1 and a loader.
    static func withServer(_ body: (FreshRSSServer, URL, HTTPDataLoader) async throws -> Void) async throws {
        let feedServer = try await LoopbackHTTPServer.start { _, _ in .text(200, feed, headers: [("Content-Type", "application/rss+xml")]) }
        let server = try FreshRSSServer.start()
        let loader = HTTPDataLoader()
        do {
            try await body(server, feedServer.url("/feed.xml"), loader)
        } catch {
            server.stop()
            try? await loader.shutdown()
            try? await feedServer.stop()
            throw error
        }
        server.stop()
        try await loader.shutdown()
        try await feedServer.stop()
    }

    @Test func theServerStartsInCI() {
        guard ProcessInfo.processInfo.environment["CI"] != nil else { return }
        #expect(FreshRSSServer.isAvailable, "FreshRSS cannot start in CI: \(FreshRSSServer.unavailableReason)")
    }

    @Test(.enabled(if: FreshRSSServer.isAvailable, "FreshRSS cannot start here"))
    func twoDevicesAndAThirdClientConvergeAfterOneSyncEach() async throws {
        try await Self.withServer { server, feedURL, loader in
            let phone = try Device(server, loader: loader), laptop = try Device(server, loader: loader)

            let subscribed = await phone.sync([.subscribe(feedURL, title: "Loopback", folder: "News")])
            #expect(subscribed.failure == nil, "\(String(describing: subscribed.failure))")
            #expect(subscribed.summary.new == 3)
            #expect(try await phone.store.feeds().map(\.category) == ["News"])
            let first = await laptop.sync()
            #expect(first.failure == nil, "\(String(describing: first.failure))")
            #expect(first.summary.new == 3)
            #expect(try await laptop.entries()["One"]?.entry.thumbnail?.absoluteString == "http://127.0.0.1/1.png")

            // Read and starred on the phone, then pushed, then seen on the laptop.
            let onPhone = try await phone.entries()
            try await phone.store.setRead(true, entries: [onPhone["One"]!.id])
            try await phone.store.setStarred(true, entries: [onPhone["Two"]!.id])
            let pushed = await phone.sync()
            #expect(pushed.failure == nil)
            #expect(pushed.summary.pushed == 2)
            #expect(try await phone.store.queuedStateChanges().isEmpty)
            let pulled = await laptop.sync()
            #expect(pulled.summary.markedRead == 1)
            #expect(pulled.summary.starred == 1)
            let onLaptop = try await laptop.entries()
            #expect(onLaptop["One"]?.isRead == true)
            #expect(onLaptop["Two"]?.isStarred == true)

            // A third client, through the Fever API: Three read and starred.
            let three = try #require(onLaptop["Three"]?.entry.id.split(separator: "/").last.flatMap { UInt64($0, radix: 16) })
            try await server.fever(mark: Int64(bitPattern: three), as: "read", with: loader)
            try await server.fever(mark: Int64(bitPattern: three), as: "saved", with: loader)
            let third = await laptop.sync()
            #expect(third.summary.markedRead == 1)
            #expect(third.summary.starred == 1)
            #expect(try await laptop.entries()["Three"].map { ($0.isRead, $0.isStarred) }! == (true, true))

            // Nothing new: three requests with the token kept.
            let quiet = await phone.sync()
            #expect(quiet.failure == nil)
            #expect(quiet.summary.requests <= 3, "\(quiet.summary.requests) requests")
        }
    }

    @Test(.enabled(if: FreshRSSServer.isAvailable, "FreshRSS cannot start here"))
    func aChangeMadeOfflineWinsOverTheStateItWasMadeAgainst() async throws {
        try await Self.withServer { server, feedURL, loader in
            let phone = try Device(server, loader: loader), laptop = try Device(server, loader: loader)
            _ = await phone.sync([.subscribe(feedURL, title: nil, folder: nil)])
            _ = await laptop.sync()

            // The phone reads One while the laptop marks it read and then unread again.
            try await phone.store.setRead(true, entries: [try await phone.entries()["One"]!.id])
            let laptopOne = try await laptop.entries()["One"]!.id
            try await laptop.store.setRead(true, entries: [laptopOne])
            _ = await laptop.sync()
            try await laptop.store.setRead(false, entries: [laptopOne])
            _ = await laptop.sync()

            // The phone's queued change wins; once pushed, both agree.
            let phoneSync = await phone.sync()
            #expect(phoneSync.failure == nil)
            #expect(try await phone.entries()["One"]?.isRead == true)
            _ = await laptop.sync()
            #expect(try await laptop.entries()["One"]?.isRead == true)
        }
    }

    @Test(.enabled(if: FreshRSSServer.isAvailable, "FreshRSS cannot start here"))
    func aWrongPasswordFailsClearlyAndARefusedTokenIsRenewedOnce() async throws {
        try await Self.withServer { server, _, loader in
            let wrong = try Device(server, loader: loader, password: "not-the-password")
            let refused = await wrong.sync()
            #expect(refused.failure?.error == .unauthorized)
            #expect(wrong.tokens.load() == nil)
            #expect(!"\(String(describing: refused.failure))".contains("not-the-password"))

            let device = try Device(server, loader: loader)
            try device.tokens.save(SyncSecret("alice/0000000000000000000000000000000000000000"))
            let renewed = await device.sync()
            #expect(renewed.failure == nil, "\(String(describing: renewed.failure))")
            #expect(device.tokens.load()?.revealed.hasPrefix("alice/0000") == false)
            let mode = try FileManager.default.attributesOfItem(atPath: device.tokens.url.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }
}
