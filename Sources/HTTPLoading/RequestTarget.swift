import Foundation

/// The one rule for where a request may go, applied by ``HTTPDataLoader`` to every URL it is
/// handed and every redirect it is told to follow, and by callers that take URLs from
/// documents (OPML, feeds) before they store them.
///
/// - Only `http` and `https` with a host. Everything else a server or a document can name
///   (`http+unix`, `unix`, `file`, `ftp`, `gopher`, `data`, `javascript`, …) is refused, so a
///   redirect can never make this machine talk to a local socket or read a local file. (A
///   `file:` URL the user typed is opened by ``HTTPDataLoader/open(_:headers:)`` itself, never
///   through a redirect.)
/// - A redirect from a public host may not lead to a local one: loopback, the private ranges
///   of IPv4 and IPv6, link-local, carrier-grade NAT, `localhost`. A page on the internet
///   must not be able to aim the user's machine at services that trust local callers (a
///   router's admin page, a development server). A local host may redirect anywhere, so a
///   feed served on the user's own network works as before. Only addresses written in the URL
///   are judged: a public name that resolves to a private address is not caught here.
public enum RequestTarget {
    /// Whether `url` may be requested at all: `http` or `https` with a host.
    public static func isFetchable(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }

    /// Checks `url`, reached by a redirect from `source` if given.
    ///
    /// - Throws: ``HTTPLoadingError/refused(_:reason:)`` naming the URL and the rule.
    public static func check(_ url: URL, redirectedFrom source: URL? = nil) throws(HTTPLoadingError) {
        guard isFetchable(url) else {
            let scheme = url.scheme.map { "\($0):" } ?? "a URL without a scheme"
            throw .refused(url.absoluteString, reason: "\(source == nil ? "" : "a redirect to ")\(scheme) is not fetched, only http and https")
        }
        if let source, !isLocal(host: source.host ?? ""), isLocal(host: url.host ?? "") {
            throw .refused(url.absoluteString, reason: "a redirect from \(source.host ?? "") may not lead to a local address")
        }
    }

    /// Whether `host` (as a URL writes it) names this machine or a private network.
    public static func isLocal(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if let address = ipv4(name) { return isLocal(ipv4: address) }
        if name.contains(":"), let address = ipv6(name) { return isLocal(ipv6: address) }
        return false
    }

    private static func isLocal(ipv4 address: UInt32) -> Bool {
        let ranges: [(UInt32, Int)] = [
            (0x0000_0000, 8),  // 0.0.0.0/8: "this network", which reaches the machine itself
            (0x0A00_0000, 8),  // 10/8
            (0x6440_0000, 10),  // 100.64/10: carrier-grade NAT
            (0x7F00_0000, 8),  // 127/8: loopback
            (0xA9FE_0000, 16),  // 169.254/16: link-local
            (0xAC10_0000, 12),  // 172.16/12
            (0xC0A8_0000, 16),  // 192.168/16
        ]
        return ranges.contains { network, bits in address >> (32 - bits) == network >> (32 - bits) }
    }

    private static func isLocal(ipv6 address: [UInt16]) -> Bool {
        if address.dropLast().allSatisfy({ $0 == 0 }) && address[7] <= 1 { return true }  // :: and ::1
        if address[0] & 0xFE00 == 0xFC00 { return true }  // fc00::/7: unique local
        if address[0] & 0xFFC0 == 0xFE80 { return true }  // fe80::/10: link-local
        // ::ffff:a.b.c.d, an IPv4 address in IPv6 clothing.
        if address[0..<5].allSatisfy({ $0 == 0 }) && address[5] == 0xFFFF {
            return isLocal(ipv4: UInt32(address[6]) << 16 | UInt32(address[7]))
        }
        return false
    }

    /// An IPv4 address in every form the resolver takes one (`inet_aton`: `127.0.0.1`, but
    /// also `127.1`, `0x7f000001`, `2130706433`), so that no spelling slips past.
    private static func ipv4(_ text: String) -> UInt32? {
        guard !text.isEmpty, text.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == "x" }) else { return nil }
        var address = in_addr()
        guard inet_aton(text, &address) != 0 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }

    private static func ipv6(_ text: String) -> [UInt16]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { bytes in
            (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        }
    }
}
