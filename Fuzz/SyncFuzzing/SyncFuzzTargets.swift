import Feeds
import FeedSync
import FeedsFuzzing
import Foundation
import FuzzSupport

/// The fuzz target of a sync server's replies.
public enum SyncFuzzTargets {
    public static let all: [FuzzTarget] = [replies]

    /// ``GoogleReaderAPI/decode(_:of:)`` on any body, as the reply to each call that reads
    /// JSON: a result or a ``SyncError``, with every item an entry within Feeds' invariants
    /// (``FeedsFuzzTargets/checkEntry(_:)``), every item id and subscription safe to show. A
    /// continuation read ahead (``GoogleReaderAPI/continuationAhead(ofItems:)``) of a page that
    /// decodes is the page's own, and the page has items.
    public static let replies = FuzzTarget(name: "fuzz-sync-replies") { bytes throws(FuzzFinding) in
        let api = GoogleReaderAPI()
        let reply = SyncReply(status: 200, date: Date(timeIntervalSince1970: 1_800_000_000), body: bytes)
        let operations: [SyncOperation] = [
            .subscriptions, .items(since: nil, count: 100, continuation: nil), .unreadIDs(count: 100, continuation: nil),
        ]
        if let ahead = api.continuationAhead(ofItems: reply),
           case let .items(page)? = try? api.decode(reply, of: .items(since: nil, count: 100, continuation: nil)),
           page.continuation != ahead || page.items.isEmpty {
            throw FuzzFinding("read ahead \(ahead.debugDescription), decoded \(page.continuation.debugDescription) with \(page.items.count) items")
        }
        for operation in operations {
            guard let result = try? api.decode(reply, of: operation) else { continue }
            switch result {
            case .items(let page):
                for item in page.items { try FeedsFuzzTargets.checkEntry(item.entry) }
            case .subscriptions(let subscriptions):
                for subscription in subscriptions {
                    for text in [subscription.title] + subscription.folders {
                        if let hazard = FuzzInvariants.terminalHazard(in: text, singleLine: true) { throw FuzzFinding("a subscription holds \(hazard)") }
                    }
                    if subscription.feedURL.scheme == nil { throw FuzzFinding("a subscription's URL is not absolute: \(subscription.feedURL)") }
                }
            case .itemIDs(let page):
                for id in page.ids where id.rawValue.isEmpty || FuzzInvariants.terminalHazard(in: id.rawValue, singleLine: true) != nil {
                    throw FuzzFinding("an item id \(id.rawValue.debugDescription)")
                }
            default:
                continue
            }
        }
    }
}
