import Foundation
import HTTPLoading
import Testing

/// The rule for where a request may go, on its own.
@Suite struct RequestTargetTests {
    @Test(arguments: ["http://example.com/feed", "https://example.com:8443/a?b=c", "HTTPS://Example.com/"])
    func httpAndHTTPSWithAHostAreFetched(url: String) throws {
        #expect(RequestTarget.isFetchable(URL(string: url)!))
        try RequestTarget.check(URL(string: url)!)
    }

    @Test(arguments: [
        "http+unix://%2Fvar%2Frun%2Fdocker.sock/x", "unix:///run/x.sock", "file:///etc/passwd", "ftp://example.com/",
        "gopher://example.com/", "data:text/plain,x", "javascript:alert(1)", "http:///path-only", "mailto:a@b.c",
    ])
    func everythingElseIsRefusedWithItsName(url: String) {
        #expect(!RequestTarget.isFetchable(URL(string: url)!))
        #expect {
            try RequestTarget.check(URL(string: url)!, redirectedFrom: URL(string: "https://example.com/feed"))
        } throws: { error in
            guard case .refused(let target, let reason) = error as? HTTPLoadingError else { return false }
            return target == url && reason.hasPrefix("a redirect to ")
        }
    }

    @Test(arguments: [
        "localhost", "LOCALHOST.", "api.localhost", "127.0.0.1", "127.1", "0x7f000001", "2130706433", "0.0.0.0", "10.1.2.3",
        "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "[::1]", "[::]", "[fe80::1]",
        "[fd00::1]", "[::ffff:127.0.0.1]", "[::ffff:192.168.0.1]",
    ])
    func localAddressesAreLocal(host: String) {
        #expect(RequestTarget.isLocal(host: host))
    }

    @Test(arguments: ["example.com", "8.8.8.8", "172.32.0.1", "192.169.0.1", "[2001:db8::1]", "[::ffff:8.8.8.8]", "localhost.example.com", "127.0.0.1.example.com"])
    func publicAddressesAreNot(host: String) {
        #expect(!RequestTarget.isLocal(host: host))
    }

    @Test func aPublicHostMayNotRedirectToALocalOne() throws {
        let public_ = URL(string: "https://feeds.example.com/rss")!
        for local in ["http://127.0.0.1:2375/containers/json", "http://192.168.1.1/admin", "http://[::1]/", "http://localhost:8080/"] {
            #expect {
                try RequestTarget.check(URL(string: local)!, redirectedFrom: public_)
            } throws: { error in
                guard case .refused(let target, let reason) = error as? HTTPLoadingError else { return false }
                return target == local && reason.contains("local address")
            }
        }
        // Local to local, local to public and public to public are all fine.
        try RequestTarget.check(URL(string: "http://127.0.0.1:9000/b")!, redirectedFrom: URL(string: "http://localhost:9000/a")!)
        try RequestTarget.check(public_, redirectedFrom: URL(string: "http://192.168.1.10/feed")!)
        try RequestTarget.check(URL(string: "https://cdn.example.net/rss")!, redirectedFrom: public_)
    }
}
