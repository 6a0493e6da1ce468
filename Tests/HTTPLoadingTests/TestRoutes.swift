import CZlib
import Foundation
import LoopbackHTTP
import ScrollworkTestSupport

/// The behaviours the HTTP loader must handle, as a loopback server's routes.
///
/// `/ok/NAME` answers NAME; `/missing` 404; `/flaky` 500 once, then "recovered"; `/busy` 429
/// with `Retry-After: 2` once, then "served"; `/silent` never answers; `/slow-body` sends its
/// head and half its body, then nothing; `/big` sends `bigSize` bytes; `/redirect` 301 to
/// `/ok/redirected`; `/loop` redirects to itself; `/trickle` declares 10,000 bytes and sends one
/// every 20 ms; `/to/TARGET` redirects to TARGET (percent-encoded) with a 302, `/to307/TARGET`
/// with a 307; `/echo` answers the request's method, `Content-Type`, `Authorization` and body,
/// a line each; `/unauthorized` 401 with a body; `/deflated` answers "deflated" compressed,
/// `/deflate-bomb` `bigSize` bytes in about 2 KB.
enum TestRoutes {
    static let bigSize = 2_000_000

    /// `bytes` as a zlib stream, which `Content-Encoding: deflate` names.
    static func deflated(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: cz_deflate_bound(bytes.count))
        let count = out.withUnsafeMutableBufferPointer { cz_deflate(bytes, bytes.count, $0.baseAddress, $0.count, 9) }
        return Array(out.prefix(count))
    }

    static func start() async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start { request, hit in
            let path = request.path
            switch path {
            case _ where path.hasPrefix("/ok/"): return .text(200, String(path.dropFirst(4)))
            case "/missing": return .text(404, "no")
            case "/flaky": return hit == 1 ? .text(500, "oops") : .text(200, "recovered")
            case "/busy": return hit == 1 ? .text(429, "later", headers: [("Retry-After", "2")]) : .text(200, "served")
            case "/silent": return .silent
            case "/slow-body": return .partial(status: 200, declaredLength: 1_000, body: [UInt8](repeating: 1, count: 500))
            case "/big": return .respond(status: 200, body: [UInt8](repeating: 120, count: bigSize))
            case "/redirect": return .text(301, "", headers: [("Location", "/ok/redirected")])
            case "/loop": return .text(302, "", headers: [("Location", "/loop")])
            case "/trickle": return .trickle(status: 200, declaredLength: 10_000, interval: .milliseconds(20))
            case _ where path.hasPrefix("/to/"):
                // /to/TARGET redirects to TARGET, percent-decoded.
                return .text(302, "", headers: [("Location", String(path.dropFirst(4)).removingPercentEncoding ?? "")])
            case _ where path.hasPrefix("/to307/"):
                return .text(307, "", headers: [("Location", String(path.dropFirst(7)).removingPercentEncoding ?? "")])
            case "/echo":
                let head = [request.method, request.header("Content-Type") ?? "", request.header("Authorization") ?? ""]
                return .respond(status: 200, body: Array(head.joined(separator: "\n").utf8) + [0x0A] + request.body)
            case "/unauthorized": return .text(401, "Error=BadAuthentication")
            case "/deflated": return .respond(status: 200, headers: [("Content-Encoding", "deflate")], body: deflated(Array("deflated".utf8)))
            case "/deflate-bomb":
                return .respond(status: 200, headers: [("Content-Encoding", "deflate")], body: deflated([UInt8](repeating: 120, count: bigSize)))
            default: return .text(404, "unknown")
            }
        }
    }
}
