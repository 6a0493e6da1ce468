/// A whole response to ``HTTPDataLoader/send(_:)``, whatever its status: a 401 or a 500 is a
/// reply with its body, not an error.
public struct HTTPReply: Sendable {
    /// The status of the final response.
    public var status: Int
    /// The headers of the final response, in order.
    public var headers: [(name: String, value: String)]
    /// The body, at most the loader's ``HTTPDataLoader/Configuration/maxBodySize``.
    public var body: [UInt8]

    /// A reply with this status, these headers and this body: one recorded earlier, given back
    /// by a benchmark that replays a sync without its server.
    package init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }
}
