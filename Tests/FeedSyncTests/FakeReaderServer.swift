import FeedSync
import Foundation

/// A Google Reader server in memory, enough of FreshRSS's behaviour to sync against: logins,
/// tokens, subscriptions, pages of items and of ids, `edit-tag` and `subscription/edit`. It
/// answers ``SyncRequest`` values with ``SyncReply`` values, and can be told to fail a call.
final class FakeReaderServer {
    struct Item {
        var number: UInt64
        var stream: String
        var title: String
        /// Seconds since 1970, the server's clock when it fetched the item.
        var crawled: Int64
        var isRead = false
        var isStarred = false
    }

    var password = "apipass123"
    var writeToken = "W0123456789"
    private(set) var sessions: Set<String> = []
    private var logins = 0
    /// The server's clock, in seconds since 1970.
    var now: Int64 = 1_795_735_300
    var subscriptions: [(id: String, url: String, title: String, folder: String?)] = []
    var items: [Item] = []
    /// Every request answered, in order.
    private(set) var requests: [SyncRequest] = []
    /// A reply to give instead of the real one, to requests whose path ends so, while it lasts.
    var faults: [(path: String, reply: SyncReply, times: Int)] = []
    /// Whether the API refuses every session, new ones included.
    var refusesSessions = false

    init(feeds: Int = 1) {
        for number in 1...feeds { subscriptions.append(("feed/\(number)", "http://127.0.0.1:8792/\(number).xml", "Feed \(number)", nil)) }
    }

    static func longID(_ number: UInt64) -> RemoteItemID {
        RemoteItemID("tag:google.com,2005:reader/item/" + String(repeating: "0", count: 16 - String(number, radix: 16).count) + String(number, radix: 16))
    }

    /// Adds `count` items to the stream, fetched now, and returns their ids.
    @discardableResult
    func publish(_ count: Int, in stream: String = "feed/1") -> [RemoteItemID] {
        (0..<count).map { _ in
            let number = UInt64(now) * 1_000_000 + UInt64(items.count)
            items.append(Item(number: number, stream: stream, title: "Item \(items.count)", crawled: now))
            return Self.longID(number)
        }
    }

    func item(_ id: RemoteItemID) -> Item? { items.first { Self.longID($0.number) == id } }

    func revokeSessions() { sessions = [] }

    func answer(_ request: SyncRequest) -> SyncReply {
        requests.append(request)
        if let index = faults.firstIndex(where: { request.path.hasSuffix($0.path) }) {
            let reply = faults[index].reply
            faults[index].times -= 1
            if faults[index].times == 0 { faults.remove(at: index) }
            return reply
        }
        func values(_ name: String) -> [String] { (request.query + request.form).filter { $0.name == name }.map(\.value) }
        if request.path == "accounts/ClientLogin" {
            guard values("Passwd") == [password] else { return SyncReply(status: 401, text: "Unauthorized!\n") }
            logins += 1
            let session = "alice/session\(logins)"
            sessions.insert(session)
            return SyncReply(status: 200, text: "SID=\(session)\nLSID=null\nAuth=\(session)\n")
        }
        let auth = request.headers.first { $0.name == "Authorization" }?.value ?? ""
        guard !refusesSessions, sessions.contains(String(auth.dropFirst("GoogleLogin auth=".count))) else {
            return SyncReply(status: 401, text: "Unauthorized!\n")
        }
        if request.method == .post, request.path != "reader/api/0/stream/items/contents", values("T") != [writeToken] {
            return SyncReply(status: 401, text: "Unauthorized!\n")
        }
        let path = String(request.path.dropFirst("reader/api/0/".count))
        switch path {
        case "token":
            return SyncReply(status: 200, text: writeToken + "\n")
        case "subscription/list":
            return json(["subscriptions": subscriptions.map { subscription in
                ["id": subscription.id, "title": subscription.title, "url": subscription.url, "htmlUrl": "http://127.0.0.1:8792/",
                 "categories": subscription.folder.map { [["id": "user/-/label/" + $0, "label": $0]] } ?? []] as [String: Any]
            }])
        case "stream/contents/user/-/state/com.google/reading-list":
            let since = values("ot").first.flatMap { Int64($0) } ?? 0
            let (page, continuation) = self.page(items.filter { $0.crawled >= since }.sorted { $0.number > $1.number }, values)
            var object: [String: Any] = ["id": "user/-/state/com.google/reading-list", "updated": now, "items": page.map(itemJSON)]
            object["continuation"] = continuation
            return json(object)
        case "stream/items/ids":
            let since = values("ot").first.flatMap { Int64($0) } ?? 0
            let selected = if values("s") == ["user/-/state/com.google/starred"] {
                items.filter(\.isStarred)
            } else if values("xt") == ["user/-/state/com.google/read"] {
                items.filter { !$0.isRead }
            } else {
                items.filter { $0.crawled >= since }
            }
            let (page, continuation) = self.page(selected.sorted { $0.number > $1.number }, values)
            var object: [String: Any] = ["itemRefs": page.map { ["id": String($0.number)] }]
            object["continuation"] = continuation
            return json(object)
        case "stream/items/contents":
            let wanted = Set(values("i"))
            return json(["items": items.filter { wanted.contains(Self.longID($0.number).rawValue) }.map(itemJSON)])
        case "edit-tag":
            let ids = Set(values("i"))
            for index in items.indices where ids.contains(Self.longID(items[index].number).rawValue) {
                for tag in values("a") { set(tag, true, at: index) }
                for tag in values("r") { set(tag, false, at: index) }
            }
            return SyncReply(status: 200, text: "OK")
        case "subscription/edit":
            return edit(values)
        default:
            return SyncReply(status: 404, text: "<html>Not found</html>")
        }
    }

    private func set(_ tag: String, _ value: Bool, at index: Int) {
        if tag == "user/-/state/com.google/read" { items[index].isRead = value }
        if tag == "user/-/state/com.google/starred" { items[index].isStarred = value }
    }

    private func edit(_ values: (String) -> [String]) -> SyncReply {
        guard let stream = values("s").first else { return SyncReply(status: 400, text: "no s") }
        switch values("ac").first {
        case "subscribe":
            subscriptions.append(("feed/\(subscriptions.count + 1)", String(stream.dropFirst("feed/".count)), values("t").first ?? "New",
                                  values("a").first.map { String($0.dropFirst("user/-/label/".count)) }))
        case "unsubscribe":
            subscriptions.removeAll { $0.id == stream }
            items.removeAll { $0.stream == stream }
        default:
            guard let index = subscriptions.firstIndex(where: { $0.id == stream }) else { return SyncReply(status: 400, text: "no feed") }
            if let title = values("t").first { subscriptions[index].title = title }
        }
        return SyncReply(status: 200, text: "OK")
    }

    /// The page `c` (an offset, as FreshRSS's is an id) of `n` items; a full page has a continuation.
    private func page(_ all: [Item], _ values: (String) -> [String]) -> ([Item], String?) {
        let count = values("n").first.flatMap { Int($0) } ?? 20
        let start = values("c").first.flatMap { Int($0) } ?? 0
        let page = Array(all.dropFirst(start).prefix(count))
        return (page, page.count >= count ? String(start + count) : nil)
    }

    private func itemJSON(_ item: Item) -> [String: Any] {
        ["id": Self.longID(item.number).rawValue, "crawlTimeMsec": String(item.crawled * 1000), "published": item.crawled,
         "title": item.title, "alternate": [["href": "http://127.0.0.1:8792/\(item.number)"]],
         "categories": ["user/-/state/com.google/reading-list"] + (item.isRead ? ["user/-/state/com.google/read"] : [])
            + (item.isStarred ? ["user/-/state/com.google/starred"] : []),
         "origin": ["streamId": item.stream], "summary": ["content": "<p>\(item.title)</p>"]]
    }

    private func json(_ object: [String: Any]) -> SyncReply {
        SyncReply(status: 200, date: Date(timeIntervalSince1970: TimeInterval(now)), body: Array(try! JSONSerialization.data(withJSONObject: object)))
    }
}
