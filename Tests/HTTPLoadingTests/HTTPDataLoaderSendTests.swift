import Foundation
import LoopbackHTTP
import ScrollworkTestSupport
import Testing
@testable import HTTPLoading

/// ``HTTPDataLoader/send(_:)`` against a real server on 127.0.0.1: what a sync with a feed server
/// needs (a POST with a form, an `Authorization` header, a 401 as a status), under the request
/// rule, the deadline and the size limit of every load.
@Suite(.serialized) struct HTTPDataLoaderSendTests {
    static let secret = "GoogleLogin auth=s3cr3t-token"
    static let form = Array("Email=ada&Passwd=p%40ss%20word".utf8)
    static let formType = "application/x-www-form-urlencoded"

    private func withServer(
        _ configure: (inout HTTPDataLoader.Configuration) -> Void = { _ in },
        _ body: (LoopbackHTTPServer, HTTPDataLoader) async throws -> Void
    ) async throws {
        let server = try await TestRoutes.start()
        var configuration = HTTPDataLoader.Configuration()
        configure(&configuration)
        let loader = HTTPDataLoader(configuration: configuration, clock: RecordingClock(), jitter: { 1 })
        do {
            try await body(server, loader)
        } catch {
            Issue.record(error)
        }
        try await loader.shutdown()
        try await server.stop()
    }

    private func post(_ url: URL, authorization: String = secret) -> HTTPDataLoader.Request {
        HTTPDataLoader.Request(
            method: .post, url: url, headers: [("Content-Type", Self.formType), ("Authorization", authorization)], body: Self.form)
    }

    private func failure(_ send: () async throws(HTTPLoadingError) -> HTTPReply) async -> HTTPLoadingError? {
        do {
            _ = try await send()
            return nil
        } catch {
            return error
        }
    }

    /// `/to/TARGET` or `/to307/TARGET` on `server`.
    private func redirect(_ route: String, to target: String, on server: LoopbackHTTPServer) -> URL {
        server.url("/\(route)/" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
    }

    @Test func aPostsBodyAndHeadersArrive() async throws {
        try await withServer { server, loader in
            let reply = try await loader.send(post(server.url("/echo")))
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self) == "POST\n\(Self.formType)\n\(Self.secret)\nEmail=ada&Passwd=p%40ss%20word")
            #expect(reply.header("content-length") == "\(reply.body.count)")
            let get = try await loader.send(HTTPDataLoader.Request(method: .get, url: server.url("/echo"), headers: [("Authorization", Self.secret)]))
            #expect(String(decoding: get.body, as: UTF8.self) == "GET\n\n\(Self.secret)\n")
        }
    }

    @Test func aRefusalComesBackAsAStatusWithItsBody() async throws {
        try await withServer { server, loader in
            let reply = try await loader.send(post(server.url("/unauthorized")))
            #expect(reply.status == 401)
            #expect(reply.body == Array("Error=BadAuthentication".utf8))
            #expect(server.hits("/unauthorized") == 1, "nothing is retried")
        }
    }

    @Test func aBodyOverTheLimitFailsWithTheSizeError() async throws {
        try await withServer({ $0.maxBodySize = 1_000 }) { server, loader in
            for request in [post(server.url("/big")), HTTPDataLoader.Request(method: .get, url: server.url("/big"))] {
                let error = await failure { () async throws(HTTPLoadingError) in try await loader.send(request) }
                #expect(error == .bodyTooLarge(limit: 1_000), "\(request.method)")
            }
        }
    }

    /// The body is collected on the client's event loop (``BodyCollector``): the deadline, the
    /// cancellation of the calling task and the limit still hold in the middle of it.
    @Test func aTricklingBodyEndsAtTheDeadlineAndClosesTheConnection() async throws {
        try await withServer({ $0.requestTimeout = .milliseconds(400) }) { server, loader in
            // Each byte comes well within the read timeout, so only the deadline can stop it.
            let error = await failure { () async throws(HTTPLoadingError) in
                try await loader.send(HTTPDataLoader.Request(method: .get, url: server.url("/trickle")))
            }
            #expect(error == .timedOut)
            var closed = server.connectionClosed.makeAsyncIterator()
            _ = await closed.next()
        }
    }

    @Test func cancellingASendMidBodyClosesTheConnection() async throws {
        try await withServer { server, loader in
            var answered = server.requestsAnswered.makeAsyncIterator()
            let transfer = Task { () async throws(HTTPLoadingError) -> HTTPReply in
                try await loader.send(HTTPDataLoader.Request(method: .get, url: server.url("/slow-body")))
            }
            // The server has sent half the body and waits: hang up from the client side.
            #expect(await answered.next() == "/slow-body")
            transfer.cancel()
            var closed = server.connectionClosed.makeAsyncIterator()
            _ = await closed.next()
            await #expect(throws: HTTPLoadingError.cancelled) { try await transfer.value }
        }
    }

    @Test func aRefusalsBodyOverTheLimitFailsWithTheSizeErrorToo() async throws {
        // 404 with a body of 7 bytes ("unknown"): declared past the limit, it is read until it
        // passes it, whatever its status.
        try await withServer({ $0.maxBodySize = 5 }) { server, loader in
            let error = await failure { () async throws(HTTPLoadingError) in
                try await loader.send(HTTPDataLoader.Request(method: .get, url: server.url("/nothing-here")))
            }
            #expect(error == .bodyTooLarge(limit: 5))
            let small = try await loader.send(HTTPDataLoader.Request(method: .get, url: server.url("/missing")))
            #expect(small.status == 404)
            #expect(small.body == Array("no".utf8))
        }
    }

    @Test(arguments: ["unix://127.0.0.1/daemon.sock", "file:///etc/passwd", "ftp://127.0.0.1/feed"])
    func aRedirectToAnythingButHTTPIsRefused(target: String) async throws {
        try await withServer { server, loader in
            for url in [redirect("to", to: target, on: server), URL(string: target)!] {
                let error = await failure { () async throws(HTTPLoadingError) in
                    try await loader.send(HTTPDataLoader.Request(method: .get, url: url, headers: [("Authorization", Self.secret)]))
                }
                guard case .refused(let refused, let reason) = error else {
                    Issue.record("\(url): \(String(describing: error))")
                    continue
                }
                #expect(refused == URL(string: target)!.absoluteString)
                #expect(reason.contains("only http and https"))
            }
        }
    }

    @Test func aPostsRedirectOnItsHostToAnotherSchemeIsRefused() async throws {
        try await withServer { server, loader in
            // A 307 that stays on the host is followed, and there the request rule judges it.
            let error = await failure { () async throws(HTTPLoadingError) in
                try await loader.send(post(redirect("to307", to: "unix://127.0.0.1/daemon.sock", on: server)))
            }
            #expect(error == .refused("unix://127.0.0.1/daemon.sock", reason: "a redirect to unix: is not fetched, only http and https"))
        }
    }

    @Test func aPostFollowsOnlyA307OrA308ToItsOwnHost() async throws {
        try await withServer { server, loader in
            let echo = server.url("/echo").absoluteString
            let followed = try await loader.send(post(redirect("to307", to: echo, on: server)))
            #expect(followed.status == 200)
            #expect(String(decoding: followed.body, as: UTF8.self).hasSuffix("\nEmail=ada&Passwd=p%40ss%20word"), "sent again with its body")
            #expect(server.hits("/echo") == 1)

            let seeOther = try await loader.send(post(redirect("to", to: echo, on: server)))
            #expect(seeOther.status == 302, "a 302 is not turned into a GET: it is the reply")
            let otherHost = echo.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let elsewhere = try await loader.send(post(redirect("to307", to: otherHost, on: server)))
            #expect(elsewhere.status == 307, "the body never goes to another host")
            #expect(elsewhere.header("Location") == otherHost)
            #expect(server.hits("/echo") == 1)
        }
    }

    @Test func credentialsStayWithTheirHostAcrossARedirect() async throws {
        try await withServer { server, loader in
            let otherHost = server.url("/echo").absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let request = HTTPDataLoader.Request(
                method: .get, url: redirect("to", to: otherHost, on: server), headers: [("Authorization", Self.secret)])
            let reply = try await loader.send(request)
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self) == "GET\n\n\n", "no Authorization reached the other host")
            let sameHost = try await loader.send(HTTPDataLoader.Request(
                method: .get, url: redirect("to", to: server.url("/echo").absoluteString, on: server), headers: [("Authorization", Self.secret)]))
            #expect(String(decoding: sameHost.body, as: UTF8.self) == "GET\n\n\(Self.secret)\n")
        }
    }

    @Test func noErrorOrDescriptionShowsTheAuthorizationValue() async throws {
        try await withServer({ $0.requestTimeout = .milliseconds(300) }) { server, loader in
            let requests = [
                // A token read with its line break: the HTTP client's own error would quote it.
                post(server.url("/echo"), authorization: Self.secret + "\r\n"),
                post(server.url("/silent")),
                HTTPDataLoader.Request(method: .get, url: redirect("to", to: "unix:///tmp/x.sock", on: server), headers: [("Authorization", Self.secret)]),
                post(URL(string: "https:///no-host")!),
            ]
            var errors: [HTTPLoadingError] = []
            for request in requests {
                if let error = await failure({ () async throws(HTTPLoadingError) in try await loader.send(request) }) {
                    errors.append(error)
                }
                for text in [String(describing: request), String(reflecting: request), Self.dumped(request)] {
                    #expect(!text.contains("s3cr3t"), "\(text)")
                    #expect(!text.contains("Passwd"), "\(text)")
                }
            }
            #expect(errors.count == requests.count)
            #expect(errors.first == .invalidHeaderValue("Authorization"))
            #expect(errors.dropFirst().first == .timedOut)
            for error in errors {
                for text in [String(describing: error), String(reflecting: error), Self.dumped(error)] {
                    #expect(!text.contains("s3cr3t"), "\(text)")
                }
            }
        }
    }

    private static func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
