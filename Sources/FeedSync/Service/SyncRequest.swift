import Foundation

/// One HTTP request to a feed server, as a value: the runtime sends it, the core never does.
///
/// Its description names the method, the path and the field names, and shows `<redacted>` for
/// the value of every secret field (a password, a token, the `Authorization` header), so a
/// request can be logged or put into an error message as it is.
public struct SyncRequest: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// GET or POST.
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
    }

    /// A name and a value: of a query, a form or a header.
    public struct Field: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The name.
        public var name: String
        /// The value, sent as it is.
        public var value: String
        /// Whether the value is a password or a token, never to be shown.
        public var isSecret: Bool

        /// A plain field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
            isSecret = false
        }

        /// A field whose value is `secret`.
        public init(_ name: String, secret: SyncSecret) {
            self.name = name
            value = secret.revealed
            isSecret = true
        }

        /// `name=value`, or `name=<redacted>` for a secret.
        public var description: String { "\(name)=\(isSecret ? "<redacted>" : value)" }
        /// The same as ``description``.
        public var debugDescription: String { description }
        /// The name, and the value unless it is secret.
        public var customMirror: Mirror {
            Mirror(self, children: ["name": name, "value": isSecret ? "<redacted>" : value], displayStyle: .struct)
        }
    }

    /// The method.
    public var method: Method
    /// The path relative to the account's base URL, without a leading slash:
    /// `reader/api/0/edit-tag`.
    public var path: String
    /// The query's fields, in order; a name may repeat.
    public var query: [Field]
    /// The form body's fields (`application/x-www-form-urlencoded`), in order; a name may repeat.
    public var form: [Field]
    /// The headers to send, `Content-Type` of a form included.
    public var headers: [Field]

    /// A request.
    public init(method: Method, path: String, query: [Field] = [], form: [Field] = [], headers: [Field] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.form = form
        self.headers = headers
    }

    /// The request's URL: `base`, a slash, ``path`` and the query, percent-encoded.
    public func url(relativeTo base: URL) -> URL? {
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        text += path
        if !query.isEmpty { text += "?" + Self.encoded(query) }
        return URL(string: text)
    }

    /// The form body, percent-encoded; empty when there is no form.
    public var formBody: [UInt8] { Array(Self.encoded(form).utf8) }

    /// `POST reader/api/0/edit-tag i=… a=… T=<redacted> [Authorization=<redacted>]`.
    public var description: String {
        ([method.rawValue, path] + query.map(\.description) + form.map(\.description)
            + (headers.isEmpty ? [] : ["[" + headers.map(\.description).joined(separator: " ") + "]"]))
            .joined(separator: " ")
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Characters a query or form value keeps as they are: RFC 3986's unreserved ones.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encoded(_ fields: [Field]) -> String {
        fields.map { field in
            let name = field.name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            let value = field.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            return name + "=" + value
        }.joined(separator: "&")
    }
}

/// A server's answer to a ``SyncRequest``: its status, its clock and its body. The runtime
/// caps the body's size as it does a feed's.
public struct SyncReply: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The server's clock when it answered (its `Date` header), when it says.
    public var date: Date?
    /// The body's bytes.
    public var body: [UInt8]

    /// A reply.
    public init(status: Int, date: Date? = nil, body: [UInt8]) {
        self.status = status
        self.date = date
        self.body = body
    }

    /// A reply whose body is `text` in UTF-8.
    public init(status: Int, date: Date? = nil, text: String) {
        self.init(status: status, date: date, body: Array(text.utf8))
    }
}
