import Foundation

extension HTTPDataLoader {
    /// A request for ``HTTPDataLoader/send(_:)``: a GET, or a POST with a body, and the headers
    /// to send with it.
    ///
    /// Credentials (`Authorization`, `Proxy-Authorization`, `Cookie`) are sent only to the host
    /// and port the request names, and never from `https` down to `http`; their values never appear in a
    /// description, a debug description or a mirror of the request, and neither does the body,
    /// which may hold a password.
    public struct Request: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The methods a request may have.
        public enum Method: String, Sendable {
            case get = "GET"
            case post = "POST"
        }

        /// The method.
        public var method: Method
        /// Where to send it: `http` or `https` (``RequestTarget``'s rule).
        public var url: URL
        /// The headers, in order; a form's `Content-Type` is one of them.
        public var headers: [(name: String, value: String)]
        /// The body of a POST, sent as it is (a form, already encoded); a GET sends none.
        public var body: [UInt8]

        /// A request; `body` goes with a POST.
        public init(method: Method, url: URL, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        /// `POST https://host/path [Content-Type: application/x-www-form-urlencoded, Authorization: <redacted>] 42 bytes`.
        public var description: String {
            let headers = headers.isEmpty ? "" : " [" + redactedHeaders.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
            let body = body.isEmpty ? "" : " \(body.count) bytes"
            return "\(method.rawValue) \(url.absoluteString)\(headers)\(body)"
        }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// The method, the URL, the headers with credentials redacted, and the body's size.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: ["method": method, "url": url, "headers": redactedHeaders, "bodySize": body.count],
                displayStyle: .struct)
        }

        /// The headers, with the values of credentials replaced by `<redacted>`.
        private var redactedHeaders: [(name: String, value: String)] {
            headers.map { Self.isCredential($0.name) ? ($0.name, "<redacted>") : $0 }
        }

        /// Whether header `name` carries a credential.
        static func isCredential(_ name: String) -> Bool {
            ["authorization", "proxy-authorization", "cookie"].contains(name.lowercased())
        }
    }
}
