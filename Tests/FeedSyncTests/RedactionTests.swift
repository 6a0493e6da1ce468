import FeedSync
import Foundation
import Testing

@Suite("Secrets never show")
struct RedactionTests {
    let password = "apipass123"
    let token = "alice/6c248e311dc126451e5933bc3dac69468d1782a5"

    func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    @Test func aSecretPrintsRedactedEveryWay() {
        let secret = SyncSecret(password)
        for text in ["\(secret)", String(describing: secret), String(reflecting: secret), dumped(secret), "\([secret])", "\(Optional(secret) as Any)"] {
            #expect(!text.contains(password), "\(text)")
            #expect(text.contains("<redacted>"))
        }
    }

    @Test func aRequestShowsItsFieldsButNoSecret() {
        let api = GoogleReaderAPI()
        let login = api.logInRequest(username: "alice", password: SyncSecret(password))
        let mark = api.request(for: .mark([RemoteItemID("tag:google.com,2005:reader/item/000661363502431c")], .read),
                               token: SyncSecret(token), writeToken: SyncSecret(token + "ZZZ"))
        for request in [login, mark] {
            for text in ["\(request)", String(reflecting: request), dumped(request)] {
                #expect(!text.contains(password) && !text.contains(token), "\(text)")
            }
        }
        #expect(login.description == "POST accounts/ClientLogin Email=alice Passwd=<redacted> [Content-Type=application/x-www-form-urlencoded]")
        #expect(mark.description.contains("i=tag:google.com,2005:reader/item/000661363502431c a=user/-/state/com.google/read T=<redacted>"))
        #expect(mark.description.contains("Authorization=<redacted>"))
    }

    @Test func effectsAndStoreChangesShowNoSecret() {
        let effects: [SyncCore.Effect] = [
            .apply(.saveToken(SyncSecret(token))),
            .send(GoogleReaderAPI().logInRequest(username: "alice", password: SyncSecret(password))),
        ]
        for text in ["\(effects)", String(reflecting: effects), dumped(effects)] {
            #expect(!text.contains(password) && !text.contains(token), "\(text)")
        }
    }

    @Test func errorsCleanWhatTheServerSaidAndCutItShort() {
        let error = SyncError.rejected(reason: "bad\u{1B}]0;PWNED\u{07} thing " + String(repeating: "x", count: 500))
        let text = SyncFailure(step: .push, error: error).description
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
        #expect(text.hasPrefix("push changes: the server refused: bad]0;PWNED thing xxx"))
        #expect(text.count < 260)
    }
}
