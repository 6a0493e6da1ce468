import Foundation

/// A response whose head has arrived: its status and headers, where it was finally found, and
/// its body, still arriving.
public struct HTTPOpening: Sendable {
    /// The status of the final response (200 for a file).
    public var status: Int
    /// The headers of the final response, in order (none for a file).
    public var headers: [(name: String, value: String)]
    /// Where the resource was finally found, after redirects.
    public var finalURL: URL
    /// The status of each redirect followed on the way, in order.
    public var redirects: [Int]
    /// The body; read it to receive the bytes as they arrive.
    public var body: HTTPBody

    /// The first value of header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }
}
