import Foundation

/// A feed server's API: what each sync operation is as a request, and what a reply means.
///
/// A conformance is pure: it builds ``SyncRequest`` values and decodes ``SyncReply`` bytes
/// into the neutral values of this module, and never sends anything. ``GoogleReaderAPI`` is
/// the first one; Miniflux's API, Fever or Tiny Tiny RSS would be others, mapping the same
/// operations to their own calls (an API that authenticates every call, such as Miniflux's
/// with a key, logs in by checking the credentials once and returns them as the token).
///
/// Decoding maps statuses the same way in every conformance: a refusal of the credentials is
/// ``SyncError/unauthorized``, which the core answers with one fresh login.
public protocol SyncServerAPI: Sendable {
    /// Whether writes carry a token fetched with ``SyncOperation/writeToken``.
    var usesWriteToken: Bool { get }

    /// The request that exchanges the user's credentials for a session token.
    func logInRequest(username: String, password: SyncSecret) -> SyncRequest

    /// The session token in the reply to ``logInRequest(username:password:)``.
    ///
    /// - Throws: ``SyncError/unauthorized`` for wrong credentials; another ``SyncError`` for a
    ///   reply that holds no token.
    func decodeLogIn(_ reply: SyncReply) throws(SyncError) -> SyncSecret

    /// The request for `operation`, with the session `token`, and the `writeToken` for a write
    /// when ``usesWriteToken``.
    func request(for operation: SyncOperation, token: SyncSecret, writeToken: SyncSecret?) -> SyncRequest

    /// What the reply to `operation`'s request says; the kind of ``SyncResult`` follows from
    /// the operation (see ``SyncOperation``).
    ///
    /// - Throws: ``SyncError``, ``SyncError/unauthorized`` for a refused token.
    /// - Complexity: O(n) in the size of the reply.
    func decode(_ reply: SyncReply, of operation: SyncOperation) throws(SyncError) -> SyncResult

    /// The continuation of a reply to ``SyncOperation/items(since:count:continuation:)`` that
    /// holds items, read ahead of ``decode(_:of:)`` and much faster, so that the next page is
    /// asked for while this one is decoded; nil when the reply is not such a page, or when the
    /// conformance cannot tell cheaply (the default).
    ///
    /// When it is not nil and the reply decodes, the decoded page should have items and this
    /// continuation. The core checks: a request sent ahead on a wrong answer is asked again,
    /// its reply dropped.
    func continuationAhead(ofItems reply: SyncReply) -> String?
}

extension SyncServerAPI {
    /// No continuation read ahead: each page is decoded before the next is asked for.
    public func continuationAhead(ofItems reply: SyncReply) -> String? { nil }
}

/// What a sync asks of a server, whatever its API.
public enum SyncOperation: Sendable, Hashable {
    /// The token writes carry. Result: ``SyncResult/writeToken(_:)``.
    case writeToken
    /// Every subscription, with its folders. Result: ``SyncResult/subscriptions(_:)``.
    case subscriptions
    /// A page of at most `count` items of every subscription, read or not, fetched by the
    /// server after `since` (all when nil), newest first; `continuation` names the page after
    /// the first. Result: ``SyncResult/items(_:)``.
    case items(since: Date?, count: Int, continuation: String?)
    /// A page of at most `count` ids of every item, read or not, fetched by the server after
    /// `since` (all when nil), newest first: what a sync after the first asks, to fetch only
    /// the items the store lacks. Result: ``SyncResult/itemIDs(_:)``.
    case itemIDs(since: Date?, count: Int, continuation: String?)
    /// A page of at most `count` ids of the unread items. Result: ``SyncResult/itemIDs(_:)``.
    case unreadIDs(count: Int, continuation: String?)
    /// A page of at most `count` ids of the starred items. Result: ``SyncResult/itemIDs(_:)``.
    case starredIDs(count: Int, continuation: String?)
    /// The items with these ids. Result: ``SyncResult/items(_:)``, without a continuation.
    case itemsByID([RemoteItemID])
    /// Apply `action` to the items with these ids. Result: ``SyncResult/done``.
    case mark([RemoteItemID], SyncAction)
    /// Change a subscription. Result: ``SyncResult/done``.
    case edit(SubscriptionEdit)
}

/// A decoded reply.
public enum SyncResult: Sendable, Hashable {
    /// The token writes carry.
    case writeToken(SyncSecret)
    /// Every subscription.
    case subscriptions([RemoteSubscription])
    /// A page of items.
    case items(ItemPage)
    /// A page of item ids.
    case itemIDs(IDPage)
    /// The server did what was asked.
    case done
}

/// A page of items, and where the next one starts.
public struct ItemPage: Sendable, Hashable {
    /// The items, in the server's order.
    public var items: [RemoteItem]
    /// What names the next page; nil on the last.
    public var continuation: String?
    /// The server's time when it answered, when it says (the reply's own field, else its
    /// `Date` header): the mark the next sync asks for items after (the server's clock, not the
    /// client's).
    public var serverTime: Date?

    /// A page.
    public init(items: [RemoteItem], continuation: String? = nil, serverTime: Date? = nil) {
        self.items = items
        self.continuation = continuation
        self.serverTime = serverTime
    }
}

/// A page of item ids, and where the next one starts.
public struct IDPage: Sendable, Hashable {
    /// The ids, normalized.
    public var ids: [RemoteItemID]
    /// What names the next page; nil on the last.
    public var continuation: String?
    /// The server's time when it answered, when it says (see ``ItemPage/serverTime``).
    public var serverTime: Date?

    /// A page.
    public init(ids: [RemoteItemID], continuation: String? = nil, serverTime: Date? = nil) {
        self.ids = ids
        self.continuation = continuation
        self.serverTime = serverTime
    }
}
