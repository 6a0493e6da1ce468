import Feeds

/// Why a call to a feed server failed. No case holds a password or a token, and every text a
/// server sent is cleaned of control characters and cut short before it is shown.
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server refused the credentials: a wrong password, or a session token it refused
    /// again after a fresh login.
    case unauthorized
    /// The body was empty where a value was expected.
    case emptyReply
    /// The body was HTML (a login page, a proxy's error page) where JSON or text was expected.
    case html
    /// The body was not valid JSON: invalid or truncated.
    case invalidJSON
    /// The body was JSON (or text) but not the expected shape.
    case unexpectedReply(reason: String)
    /// An item without an id, which nothing could refer to.
    case itemWithoutID
    /// An HTTP status the call does not expect.
    case status(Int)
    /// The server said no, with its reason.
    case rejected(reason: String)
    /// The request did not complete: no connection, a timeout, a body too large.
    case transport(reason: String)
    /// The password could not be had (the prompt was cancelled, the password command failed).
    case passwordUnavailable(reason: String)
    /// The local store failed while the sync wrote to it or read it.
    case store(reason: String)

    /// A sentence for the user.
    public var description: String {
        switch self {
        case .unauthorized: "the server refused the user name or password (401)"
        case .emptyReply: "the server answered nothing"
        case .html: "the server answered an HTML page (a login page?) where data was expected"
        case .invalidJSON: "the server answered invalid or truncated JSON"
        case let .unexpectedReply(reason): "the server's answer is not what was expected: \(Self.quoted(reason))"
        case .itemWithoutID: "the server sent an item without an id"
        case let .status(status): "the server answered HTTP \(status)"
        case let .rejected(reason): "the server refused: \(Self.quoted(reason))"
        case let .transport(reason): "the request failed: \(Self.quoted(reason))"
        case let .passwordUnavailable(reason): "no password: \(Self.quoted(reason))"
        case let .store(reason): "the local store failed: \(Self.quoted(reason))"
        }
    }

    /// `text` fit for one line of an error message: control characters removed, at most 200
    /// characters.
    static func quoted(_ text: String) -> String {
        let line = FeedText.line(text)
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}

/// A step of a sync, named in progress and in errors.
public enum SyncStep: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Reading what the store knows of the account (the queue, the marks, the feeds), before
    /// any request.
    case readStore = "read the store"
    /// Exchanging the password for a session token.
    case logIn = "log in"
    /// Fetching the token writes carry.
    case writeToken = "write token"
    /// Pushing the queue of local changes.
    case push = "push changes"
    /// Making the subscription edits asked for.
    case editSubscriptions = "edit subscriptions"
    /// Fetching the subscription list.
    case subscriptions = "subscriptions"
    /// Pulling the items fetched since the last sync.
    case items = "new items"
    /// Pulling the unread ids.
    case unreadIDs = "unread items"
    /// Pulling the starred ids.
    case starredIDs = "starred items"
    /// Fetching the unread and starred items the store lacks.
    case itemsByID = "missing items"

    /// The step's name.
    public var description: String { rawValue }
}

/// A sync that ended early: which step failed, and why.
public struct SyncFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step under way.
    public var step: SyncStep
    /// What went wrong.
    public var error: SyncError

    /// A failure of `step`.
    public init(step: SyncStep, error: SyncError) {
        self.step = step
        self.error = error
    }

    /// `unread items: the server answered HTTP 500`.
    public var description: String { "\(step): \(error)" }
}
