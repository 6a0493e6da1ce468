import Foundation
import HTTPLoading
import ScrollworkTestSupport

extension FreshRSSServer {
    /// Marks an item through the Fever API, as a third client would: `as` is `read`,
    /// `unread`, `saved` or `unsaved`; `id` is the item's decimal id.
    func fever(mark id: Int64, as state: String, with loader: HTTPDataLoader) async throws {
        let url = URL(string: feverURL.absoluteString + "?api&mark=item&as=\(state)&id=\(id)")!
        let reply = try await loader.send(HTTPDataLoader.Request(
            method: .post, url: url, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("api_key=\(feverKey)".utf8)))
        let text = String(decoding: reply.body, as: UTF8.self)
        guard reply.status == 200, text.contains("\"auth\":1") else { throw Failure(description: "fever mark failed: \(reply.status) \(text)") }
    }
}
