@testable import FeedSync
import Foundation
import Testing

/// What the fuzz targets found in the sync replies (`Scripts/fuzz.sh`), each with its input.
@Suite struct SyncFuzzFindingTests {
    let api = GoogleReaderAPI()

    /// fuzz-sync-replies: a subscription without a `url` whose id is `feed/1` got `1` as its
    /// feed's URL, a relative one that names no feed. A server's URLs must be absolute: the
    /// subscription is an unexpected reply, and an item's relative link is no link.
    /// fuzz-sync-replies: a page whose `items` and `continuation` came twice. The decode reads
    /// the first of a repeated key, the continuation read ahead read the last: the next page
    /// would have been asked for on a continuation the page did not have.
    @Test func aContinuationReadAheadIsTheOneTheDecodeReads() throws {
        let item = #"{"id":"tag:google.com,2005:reader/item/000661363502431e","origin":{"streamId":"feed/1"}}"#
        let page = #"{"items":[\#(item)],"continuation":"179573/3057328seng-list","items":[\#(item)],"continuation":"179573/305732893"}"#
        let reply = SyncReply(status: 200, text: page)
        guard case .items(let decoded) = try api.decode(reply, of: .items(since: nil, count: 10, continuation: nil)) else {
            Issue.record("not items")
            return
        }
        #expect(decoded.continuation == "179573/3057328seng-list")
        #expect(api.continuationAhead(ofItems: reply) == decoded.continuation)
    }

    @Test func relativeURLsFromAServerAreNone() throws {
        let list = #"{"subscriptions":[{"id":"feed/1","title":"Feed","htmlUrl":"http://127.0.0.1:9/"}]}"#
        #expect(throws: SyncError.unexpectedReply(reason: "subscription feed/1 has no feed URL")) {
            try api.decode(SyncReply(status: 200, text: list), of: .subscriptions)
        }
        let items = #"""
            {"items":[{"id":"tag:google.com,2005:reader/item/0000000000000001","title":"T","origin":{"streamId":"feed/1"},
            "canonical":[{"href":"/relative"}],"enclosure":[{"href":"a.mp3","type":"audio/mpeg"}]}]}
            """#
        guard case .items(let page) = try api.decode(SyncReply(status: 200, text: items), of: .items(since: nil, count: 10, continuation: nil)) else {
            Issue.record("not items")
            return
        }
        #expect(page.items.count == 1)
        #expect(page.items.first?.link == nil)
        #expect(page.items.first?.enclosures.isEmpty == true)
        // Then the item's picture: its content's relative `<img>`, with no link to resolve it
        // against, became a relative thumbnail.
        let pictured = #"""
            {"items":[{"id":"tag:google.com,2005:reader/item/0000000000000002","title":"T","origin":{"streamId":"feed/1"},
            "summary":{"content":"<p>Hello <img src=\"h.p/t0:=2/.710.1:8792/pic1.png\"> world</p>"}}]}
            """#
        guard case .items(let picturedPage) = try api.decode(SyncReply(status: 200, text: pictured), of: .items(since: nil, count: 10, continuation: nil)) else {
            Issue.record("not items")
            return
        }
        #expect(picturedPage.items.first?.entry.thumbnail == nil)
    }

    /// fuzz-sync-replies: an item's `published` of 1,764,573,531,151,200 (microseconds where
    /// seconds belong) became a date in the year 55 million, which no date formatter writes
    /// and the list sorts above every post for ever. A date outside years 1 to 9999 is none,
    /// as a feed's is.
    @Test func aDateOutOfRangeIsNone() throws {
        let items = #"""
            {"updated":1e300,"items":[{"id":"tag:google.com,2005:reader/item/0006613635024320","title":"T","origin":{"streamId":"feed/1"},
            "published":1764573531151200,"updated":-1e20,"crawlTimeMsec":"1764573531151"}]}
            """#
        let reply = SyncReply(status: 200, date: Date(timeIntervalSince1970: 1_800_000_000), text: items)
        guard case .items(let page) = try api.decode(reply, of: .items(since: nil, count: 10, continuation: nil)) else {
            Issue.record("not items")
            return
        }
        let item = try #require(page.items.first)
        #expect(item.published == nil)
        #expect(item.updated == nil)
        #expect(item.crawled == Date(timeIntervalSince1970: 1_764_573_531.151))
        #expect(page.serverTime == reply.date)
    }
}
