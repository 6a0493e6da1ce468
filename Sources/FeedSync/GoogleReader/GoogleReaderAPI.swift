import Foundation

/// The Google Reader API, as FreshRSS, Miniflux, The Old Reader, BazQux and Inoreader serve
/// it: the first ``SyncServerAPI``.
///
/// Paths are relative to the account's API URL (FreshRSS: `…/api/greader.php`). Every call
/// but the login carries `Authorization: GoogleLogin auth=TOKEN`; every POST carries the write
/// token as `T`. An `edit-tag` call holds one action (the server keeps one `a` and one `r` per
/// call) and any number of `i`. Item ids are stored in the long form
/// (``GoogleReaderItemID``), and requests send them so.
public struct GoogleReaderAPI: SyncServerAPI {
    static let readingList = "user/-/state/com.google/reading-list"
    static let readTag = "user/-/state/com.google/read"
    static let starredTag = "user/-/state/com.google/starred"
    static let labelPrefix = "user/-/label/"

    /// The API; it holds no state.
    public init() {}

    /// Writes carry the token of `reader/api/0/token`.
    public var usesWriteToken: Bool { true }

    /// `POST accounts/ClientLogin` with `Email` and `Passwd`.
    public func logInRequest(username: String, password: SyncSecret) -> SyncRequest {
        SyncRequest(method: .post, path: "accounts/ClientLogin",
                    form: [.init("Email", username), .init("Passwd", secret: password)], headers: [Self.formType])
    }

    /// The `Auth=` line of the reply.
    public func decodeLogIn(_ reply: SyncReply) throws(SyncError) -> SyncSecret {
        let text = try Self.text(of: reply)
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("Auth=") {
            let token = line.dropFirst("Auth=".count).trimmingCharacters(in: .whitespaces)
            if !token.isEmpty { return SyncSecret(token) }
        }
        throw .unexpectedReply(reason: "no Auth= line in the login reply")
    }

    /// The request for `operation`.
    ///
    /// - Precondition: `writeToken` is given for a write (``SyncOperation/mark(_:_:)``,
    ///   ``SyncOperation/edit(_:)``).
    public func request(for operation: SyncOperation, token: SyncSecret, writeToken: SyncSecret?) -> SyncRequest {
        let auth = SyncRequest.Field("Authorization", secret: SyncSecret("GoogleLogin auth=" + token.revealed))
        func get(_ path: String, _ query: [SyncRequest.Field]) -> SyncRequest {
            SyncRequest(method: .get, path: "reader/api/0/" + path, query: query + [.init("output", "json")], headers: [auth])
        }
        func write(_ path: String, _ form: [SyncRequest.Field]) -> SyncRequest {
            guard let writeToken else { preconditionFailure("a Google Reader write needs the write token") }
            return SyncRequest(method: .post, path: "reader/api/0/" + path,
                               form: form + [.init("T", secret: writeToken)], headers: [auth, Self.formType])
        }
        func page(_ count: Int, _ continuation: String?) -> [SyncRequest.Field] {
            [.init("n", String(count))] + (continuation.map { [.init("c", $0)] } ?? [])
        }
        switch operation {
        case .writeToken:
            return SyncRequest(method: .get, path: "reader/api/0/token", headers: [auth])
        case .subscriptions:
            return get("subscription/list", [])
        case let .items(since, count, continuation):
            return get("stream/contents/" + Self.readingList, Self.after(since) + page(count, continuation))
        case let .itemIDs(since, count, continuation):
            return get("stream/items/ids", [.init("s", Self.readingList)] + Self.after(since) + page(count, continuation))
        case let .unreadIDs(count, continuation):
            return get("stream/items/ids", [.init("s", Self.readingList), .init("xt", Self.readTag)] + page(count, continuation))
        case let .starredIDs(count, continuation):
            return get("stream/items/ids", [.init("s", Self.starredTag)] + page(count, continuation))
        case let .itemsByID(ids):
            // A POST, for the length of many ids, but a read: no write token.
            return SyncRequest(method: .post, path: "reader/api/0/stream/items/contents", query: [.init("output", "json")],
                               form: ids.map { .init("i", $0.rawValue) }, headers: [auth, Self.formType])
        case let .mark(ids, action):
            let tag: SyncRequest.Field = switch action {
            case .read: .init("a", Self.readTag)
            case .unread: .init("r", Self.readTag)
            case .starred: .init("a", Self.starredTag)
            case .unstarred: .init("r", Self.starredTag)
            }
            return write("edit-tag", ids.map { .init("i", $0.rawValue) } + [tag])
        case let .edit(edit):
            return write("subscription/edit", Self.fields(of: edit))
        }
    }

    private static let formType = SyncRequest.Field("Content-Type", "application/x-www-form-urlencoded")

    /// `ot=`: items the server fetched at or after `since`, in whole seconds, rounded down.
    private static func after(_ since: Date?) -> [SyncRequest.Field] {
        since.map { [SyncRequest.Field("ot", String(Int64($0.timeIntervalSince1970.rounded(.down))))] } ?? []
    }

    private static func fields(of edit: SubscriptionEdit) -> [SyncRequest.Field] {
        switch edit {
        case let .subscribe(url, title, folder):
            return [.init("ac", "subscribe"), .init("s", "feed/" + url.absoluteString)]
                + (title.map { [.init("t", $0)] } ?? []) + (folder.map { [.init("a", labelPrefix + $0)] } ?? [])
        case let .unsubscribe(streamID):
            return [.init("ac", "unsubscribe"), .init("s", streamID)]
        case let .rename(streamID, title):
            return [.init("ac", "edit"), .init("s", streamID), .init("t", title)]
        case let .move(streamID, from, to):
            return [.init("ac", "edit"), .init("s", streamID)]
                + (to.map { [.init("a", labelPrefix + $0)] } ?? []) + (from.map { [.init("r", labelPrefix + $0)] } ?? [])
        }
    }
}
