import Feeds
import FeedSync
import Foundation
import Testing

@Suite("Google Reader API")
struct GoogleReaderAPITests {
    let api = GoogleReaderAPI()
    let token = SyncSecret("alice/6c248e311dc126451e5933bc3dac69468d1782a5")
    let writeToken = SyncSecret("6c248e311dc126451e5933bc3dac69468d1782a5ZZZZZZZZZZZZZZZZZ")
    let base = URL(string: "http://127.0.0.1:8791/api/greader.php")!

    func decode(_ text: String, status: Int = 200, of operation: SyncOperation) throws(SyncError) -> SyncResult {
        try api.decode(SyncReply(status: status, text: text), of: operation)
    }

    func items(_ text: String) throws -> ItemPage {
        guard case let .items(page) = try decode(text, of: .items(since: nil, count: 2, continuation: nil)) else {
            throw SyncError.unexpectedReply(reason: "not items")
        }
        return page
    }

    // MARK: - Requests

    @Test func logsInWithAFormOfUserAndPassword() {
        let request = api.logInRequest(username: "alice", password: SyncSecret("apipass123"))
        #expect(request.method == .post)
        #expect(request.url(relativeTo: base)?.absoluteString == "http://127.0.0.1:8791/api/greader.php/accounts/ClientLogin")
        #expect(String(decoding: request.formBody, as: UTF8.self) == "Email=alice&Passwd=apipass123")
        #expect(request.headers.map(\.name) == ["Content-Type"])
    }

    @Test func asksForItemsNewerThanAMarkInPages() {
        let since = Date(timeIntervalSince1970: 1_795_735_308.7)
        let request = api.request(for: .items(since: since, count: 1000, continuation: "1795735305732893"), token: token, writeToken: nil)
        #expect(request.method == .get)
        #expect(request.url(relativeTo: base)?.absoluteString
            == "http://127.0.0.1:8791/api/greader.php/reader/api/0/stream/contents/user/-/state/com.google/reading-list"
            + "?ot=1795735308&n=1000&c=1795735305732893&output=json")
        #expect(request.headers == [SyncRequest.Field("Authorization", secret: SyncSecret("GoogleLogin auth=" + token.revealed))])
    }

    @Test func asksForUnreadAndStarredIDs() {
        let unread = api.request(for: .unreadIDs(count: 10_000, continuation: nil), token: token, writeToken: nil)
        #expect(unread.url(relativeTo: base)?.absoluteString == "http://127.0.0.1:8791/api/greader.php/reader/api/0/stream/items/ids"
            + "?s=user%2F-%2Fstate%2Fcom.google%2Freading-list&xt=user%2F-%2Fstate%2Fcom.google%2Fread&n=10000&output=json")
        let starred = api.request(for: .starredIDs(count: 5, continuation: "7"), token: token, writeToken: nil)
        #expect(starred.query.map(\.description) == ["s=user/-/state/com.google/starred", "n=5", "c=7", "output=json"])
    }

    @Test func asksForTheIDsOfItemsNewerThanAMark() {
        let since = Date(timeIntervalSince1970: 1_795_735_308.7)
        let request = api.request(for: .itemIDs(since: since, count: 50_000, continuation: "9"), token: token, writeToken: nil)
        #expect(request.path == "reader/api/0/stream/items/ids")
        #expect(request.query.map(\.description) == ["s=user/-/state/com.google/reading-list", "ot=1795735308", "n=50000", "c=9", "output=json"])
    }

    @Test func aPageOfIDsTakesTheServersClockFromItsDateHeader() throws {
        let date = Date(timeIntervalSince1970: 1_795_735_400)
        let result = try api.decode(SyncReply(status: 200, date: date, text: FreshRSSReplies.unreadIDsFirstPage),
                                    of: .itemIDs(since: nil, count: 2, continuation: nil))
        guard case let .itemIDs(page) = result else { Issue.record("\(result)"); return }
        #expect(page.serverTime == date)
    }

    @Test func marksManyIDsWithOneActionPerCallAndTheWriteToken() {
        let ids = [RemoteItemID("tag:google.com,2005:reader/item/000661363502431c"), RemoteItemID("tag:google.com,2005:reader/item/000661363502431d")]
        let cases: [(SyncAction, String)] = [
            (.read, "a=user/-/state/com.google/read"), (.unread, "r=user/-/state/com.google/read"),
            (.starred, "a=user/-/state/com.google/starred"), (.unstarred, "r=user/-/state/com.google/starred"),
        ]
        for (action, tag) in cases {
            let request = api.request(for: .mark(ids, action), token: token, writeToken: writeToken)
            #expect(request.method == .post)
            #expect(request.path == "reader/api/0/edit-tag")
            #expect(request.form.map(\.description) == ids.map { "i=\($0.rawValue)" } + [tag, "T=<redacted>"])
            #expect(request.form.last?.value == writeToken.revealed)
        }
    }

    @Test func fetchesItemsByIDWithoutTheWriteToken() {
        let request = api.request(for: .itemsByID([RemoteItemID("tag:google.com,2005:reader/item/000661363502431c")]), token: token, writeToken: nil)
        #expect(request.method == .post)
        #expect(request.path == "reader/api/0/stream/items/contents")
        #expect(String(decoding: request.formBody, as: UTF8.self) == "i=tag%3Agoogle.com%2C2005%3Areader%2Fitem%2F000661363502431c")
    }

    @Test func editsSubscriptions() {
        func form(_ edit: SubscriptionEdit) -> [String] {
            api.request(for: .edit(edit), token: token, writeToken: writeToken).form.map(\.description).dropLast()
        }
        #expect(form(.subscribe(URL(string: "http://127.0.0.1:8792/feed.xml")!, title: "Mine", folder: "Tech"))
            == ["ac=subscribe", "s=feed/http://127.0.0.1:8792/feed.xml", "t=Mine", "a=user/-/label/Tech"])
        #expect(form(.unsubscribe(streamID: "feed/1")) == ["ac=unsubscribe", "s=feed/1"])
        #expect(form(.rename(streamID: "feed/1", title: "Renamed")) == ["ac=edit", "s=feed/1", "t=Renamed"])
        #expect(form(.move(streamID: "feed/1", from: "Tech", to: "News"))
            == ["ac=edit", "s=feed/1", "a=user/-/label/News", "r=user/-/label/Tech"])
    }

    @Test func importsAListIntoInnermostFolders() {
        let list = [Subscription(feedURL: URL(string: "http://a.test/feed")!, title: "A", categories: ["Outer", "Inner"]),
                    Subscription(feedURL: URL(string: "http://b.test/feed")!)]
        #expect(SubscriptionEdit.subscribing(to: list) == [
            .subscribe(URL(string: "http://a.test/feed")!, title: "A", folder: "Inner"),
            .subscribe(URL(string: "http://b.test/feed")!, title: nil, folder: nil),
        ])
    }

    // MARK: - FreshRSS's replies

    @Test func readsTheTokenOfALogin() throws {
        #expect(try api.decodeLogIn(SyncReply(status: 200, text: FreshRSSReplies.login)) == token)
        #expect(throws: SyncError.unauthorized) { try api.decodeLogIn(SyncReply(status: 401, text: FreshRSSReplies.unauthorized)) }
        #expect(throws: SyncError.html) { try api.decodeLogIn(SyncReply(status: 200, text: FreshRSSReplies.loginPage)) }
    }

    @Test func readsTheWriteTokenWithoutItsNewline() throws {
        #expect(try decode(FreshRSSReplies.writeToken, of: .writeToken) == .writeToken(writeToken))
    }

    @Test func readsSubscriptionsWithTheirFolders() throws {
        let result = try decode(FreshRSSReplies.subscriptions, of: .subscriptions)
        #expect(result == .subscriptions([RemoteSubscription(
            streamID: "feed/1", feedURL: URL(string: "http://127.0.0.1:8792/feed.xml")!, title: "Helper Feed",
            siteURL: URL(string: "http://127.0.0.1:8792/"), folders: ["Tech"]
        )]))
    }

    @Test func readsAPageOfItemsWithItsContinuationAndTheServerTime() throws {
        let page = try items(FreshRSSReplies.itemsFirstPage)
        #expect(page.continuation == "1795735305732893")
        #expect(page.serverTime == Date(timeIntervalSince1970: 1_795_735_308))
        #expect(page.items.map(\.id.rawValue) == ["tag:google.com,2005:reader/item/000661363502431e", "tag:google.com,2005:reader/item/000661363502431d"])
        let third = page.items[0]
        #expect(third.streamID == "feed/1")
        #expect(third.title == "Third")
        #expect(third.link == URL(string: "http://127.0.0.1:8792/3"))
        #expect(third.published == Date(timeIntervalSince1970: 1_764_151_200))
        #expect(third.crawled == Date(timeIntervalSince1970: 1_795_735_305.732))
        #expect(third.enclosures == [FeedEnclosure(url: URL(string: "http://127.0.0.1:8792/t.jpg")!, type: "image/jpeg", length: 99)])
        #expect(!third.isRead && !third.isStarred)
        #expect(third.entry.thumbnail == URL(string: "http://127.0.0.1:8792/t.jpg"))
        // An audio enclosure is no picture, and the content has none.
        #expect(page.items[1].entry.thumbnail == nil)
    }

    @Test func readsTheLastPageAndAnItemsOwnCategoriesAndAuthor() throws {
        let page = try items(FreshRSSReplies.itemsLastPage)
        let first = try #require(page.items.first)
        #expect(first.categories == ["News"])
        #expect(first.author == "ann@example.com (Ann)")
        let entry = first.entry
        #expect(entry.id == "tag:google.com,2005:reader/item/000661363502431c")
        #expect(entry.title == "First ＆ foremost")
        #expect(entry.content == #"<p>Hello <img src="http://127.0.0.1:8792/pic1.png"> world</p>"#)
        #expect(entry.summary == nil)
        #expect(entry.thumbnail == URL(string: "http://127.0.0.1:8792/pic1.png"))
        #expect(try items(FreshRSSReplies.noItems).items.isEmpty)
    }

    @Test func readsStatesOfItemsFetchedByID() throws {
        guard case let .items(page) = try decode(FreshRSSReplies.itemsByID, of: .itemsByID([])) else { Issue.record(); return }
        #expect(page.items.map(\.isRead) == [true])
        #expect(page.items.map(\.isStarred) == [true])
    }

    @Test func normalizesShortIDsToTheLongForm() throws {
        let result = try decode(FreshRSSReplies.unreadIDsFirstPage, of: .unreadIDs(count: 2, continuation: nil))
        #expect(result == .itemIDs(IDPage(ids: [RemoteItemID("tag:google.com,2005:reader/item/000661363502431e"),
                                                RemoteItemID("tag:google.com,2005:reader/item/000661363502431d")],
                                          continuation: "1795735305732893")))
    }

    @Test func keepsLongIDsAndSpellsNegativeShortOnesAsGoogleReaderDid() throws {
        let text = #"{"itemRefs":[{"id":"tag:google.com,2005:reader/item/661363502431C"},{"id":"-1"},{"id":42}]}"#
        #expect(try decode(text, of: .starredIDs(count: 9, continuation: nil)) == .itemIDs(IDPage(ids: [
            RemoteItemID("tag:google.com,2005:reader/item/000661363502431c"),
            RemoteItemID("tag:google.com,2005:reader/item/ffffffffffffffff"),
            RemoteItemID("tag:google.com,2005:reader/item/000000000000002a"),
        ])))
    }

    @Test func acceptsOKForWritesAndRejectsAnythingElse() throws {
        let mark = SyncOperation.mark([], .read)
        #expect(try decode(FreshRSSReplies.ok, of: mark) == .done)
        #expect(throws: SyncError.rejected(reason: "Error: no such item")) { try decode("Error: no such item\n", of: mark) }
    }

    @Test func aSubscriptionTheServerCannotFetchIsABadRequest() {
        // FreshRSS answers `ac=subscribe` of a feed that answers 404 so.
        let edit = SyncOperation.edit(.subscribe(URL(string: "http://127.0.0.1:8792/missing.xml")!, title: nil, folder: nil))
        #expect(throws: SyncError.status(400)) { try decode("Bad Request!\n", status: 400, of: edit) }
    }

    /// Every field of a page of FreshRSS's shape as the JSONDecoder that decoded replies before
    /// read it: escapes, a short id as a number, numbers where strings go, `null` as absent, the
    /// first of duplicate keys, unknown keys skipped whatever they hold.
    @Test func readsEveryFieldOfAPageAsJSONDecoderDid() throws {
        let text = #"""
            {"id":"user/-/state/com.google/reading-list","updated":1795735315,"items":[
            {"id":"tag:google.com,2005:reader/item/0006613635024320","crawlTimeMsec":"1795735305732","timestampUsec":"1795735305732896",
             "published":1764151200,"updated":1764154800.5,"ti\u0074le":"Caf\u00e9 \"cr\u00e8me\" & <b>more<\/b>",
             "canonical":[{"href":"http:\/\/127.0.0.1:8792\/a"}],"alternate":[{"href":"http://127.0.0.1:8792/alt","type":"text/html"}],
             "categories":["user/-/state/com.google/reading-list","user/1/state/com.google/read","user/-/state/com.google/starred","user/-/label/Tech","News","Caf\u00e9"],
             "origin":{"streamId":"feed/2","htmlUrl":"http://127.0.0.1:8792/","title":"Helper Feed"},
             "summary":{"content":"<p>short</p>"},"content":{"content":"<p>Long \ud83d\ude00 text<\/p>\n","direction":"ltr"},"author":"Ann",
             "enclosure":[{"href":"http://127.0.0.1:8792/e.jpg","type":"image/jpeg","length":"2048"},{"type":"audio/mpeg"},
                          {"href":"http://127.0.0.1:8792/e.mp3","length":1.5e3}],
             "unknown":{"nested":[1,-2.5e-3,{"x":null,"y":[true,false,"\u0000"]}]}},
            {"id":1795735305732893,"crawlTimeMsec":1795735305733,"published":null,"title":null,"title":"not the first",
             "canonical":[],"alternate":[{"href":"http://127.0.0.1:8792/b"}],"categories":null,"origin":{"streamId":"feed/1"},
             "summary":{"content":"only a summary"},"author":null,"author":"Bob","enclosure":null}
            ],"continuation":1795735305732893}
            """#
        let page = try items(text)
        let first = RemoteItem(
            id: RemoteItemID("tag:google.com,2005:reader/item/0006613635024320"), streamID: "feed/2",
            title: #"Café "crème" & <b>more</b>"#, link: URL(string: "http://127.0.0.1:8792/a"), author: "Ann",
            published: Date(timeIntervalSince1970: 1_764_151_200), updated: Date(timeIntervalSince1970: 1_764_154_800.5),
            crawled: Date(timeIntervalSince1970: 1_795_735_305_732 / 1000),
            summary: "<p>short</p>", content: "<p>Long 😀 text</p>\n", categories: ["News", "Café"],
            enclosures: [FeedEnclosure(url: URL(string: "http://127.0.0.1:8792/e.jpg")!, type: "image/jpeg", length: 2048),
                         FeedEnclosure(url: URL(string: "http://127.0.0.1:8792/e.mp3")!, type: nil, length: 1500)],
            isRead: true, isStarred: true
        )
        let second = RemoteItem(
            id: RemoteItemID("tag:google.com,2005:reader/item/000661363502431d"), streamID: "feed/1", title: "",
            link: URL(string: "http://127.0.0.1:8792/b"), author: nil, published: nil, updated: nil,
            crawled: Date(timeIntervalSince1970: 1_795_735_305_733 / 1000), summary: nil, content: "only a summary"
        )
        #expect(page.items == [first, second])
        #expect(page.continuation == "1795735305732893")
        #expect(page.serverTime == Date(timeIntervalSince1970: 1_795_735_315))
    }

    @Test func readsSubscriptionsWithoutAURLOrALabel() throws {
        let text = #"{"subscriptions":[{"id":"feed/http://a.test/feed","title":null,"categories":[{"id":"user/-/label/News"},{"id":"user/-/state/x"},{"label":"L","id":"user/-/label/M"}],"sortid":"B2"},{"id":"feed/9","url":"http://b.test/rss","title":"B","htmlUrl":"http://b.test/"}]}"#
        #expect(try decode(text, of: .subscriptions) == .subscriptions([
            RemoteSubscription(streamID: "feed/http://a.test/feed", feedURL: URL(string: "http://a.test/feed")!, title: "http://a.test/feed", folders: ["News", "L"]),
            RemoteSubscription(streamID: "feed/9", feedURL: URL(string: "http://b.test/rss")!, title: "B", siteURL: URL(string: "http://b.test/")),
        ]))
    }

    /// JSONDecoder checked a struct's fields in the order the struct declared them, whatever
    /// their order in the reply, and an array's elements in order; it checked the whole reply
    /// was JSON first, and mapped items to ``RemoteItem`` last. The errors stay so.
    @Test func namesTheProblemJSONDecoderNamedFirst() {
        let items = SyncOperation.items(since: nil, count: 2, continuation: nil)
        let cases: [(String, SyncOperation, SyncError)] = [
            (#"{"items":[{"title":5,"published":"x"}]}"#, items, .unexpectedReply(reason: "a value of another type at items.0.published")),
            (#"{"continuation":[],"items":[{"id":{}}],"updated":"x"}"#, items, .unexpectedReply(reason: "a value of another type at updated")),
            (#"{"items":[{"title":"ok"},{"categories":["a",null]}]}"#, items, .unexpectedReply(reason: "a value of another type at items.1.categories.1")),
            (#"{"items":[{"canonical":[{"href":1}]}]}"#, items, .unexpectedReply(reason: "a value of another type at items.0.canonical.0.href")),
            (#"{"items":[{"origin":"feed/1"}]}"#, items, .unexpectedReply(reason: "a value of another type at items.0.origin")),
            (#"{"items":[null]}"#, items, .unexpectedReply(reason: "a value of another type at items.0")),
            (#"{"items":{}}"#, items, .unexpectedReply(reason: "a value of another type at items")),
            (#"[]"#, items, .unexpectedReply(reason: "a value of another type at the reply")),
            (#"null"#, items, .unexpectedReply(reason: "a value of another type at the reply")),
            (#"{"subscriptions":[{"title":"t"}]}"#, .subscriptions, .unexpectedReply(reason: "no id in subscriptions.0")),
            (#"{"subscriptions":[{"id":null}]}"#, .subscriptions, .unexpectedReply(reason: "a value of another type at subscriptions.0.id")),
            (#"{"subscriptions":null}"#, .subscriptions, .unexpectedReply(reason: "a value of another type at subscriptions")),
            (#"{"itemRefs":[{"id":true}]}"#, .unreadIDs(count: 1, continuation: nil), .unexpectedReply(reason: "a value of another type at itemRefs.0.id")),
            // A decoding problem anywhere comes before an item that does not map.
            (#"{"items":[{"title":"no id"},{"title":5}]}"#, items, .unexpectedReply(reason: "a value of another type at items.1.title")),
            // Not JSON anywhere comes first; a number no Double holds in its field's turn.
            (#"{"items":[{"title":5}],"x":tru}"#, items, .invalidJSON),
            (#"{"items":[{"published":1e400,"id":[]}]}"#, items, .unexpectedReply(reason: "a value of another type at items.0.id")),
            (#"{"items":[{"published":1e400,"title":5}]}"#, items, .invalidJSON),
            (String(repeating: "[", count: 513) + String(repeating: "]", count: 513), items, .invalidJSON),
        ]
        for (text, operation, error) in cases {
            #expect(throws: error, "\(text)") { try decode(text, of: operation) }
        }
        // The first of duplicate keys counts, as it did.
        #expect(throws: Never.self) { try decode(#"{"items":[],"items":5,"updated":1,"updated":"x"}"#, of: items) }
    }

    // MARK: - Hostile replies

    @Test func namesEachBadReply() {
        let items = SyncOperation.items(since: nil, count: 2, continuation: nil)
        #expect(throws: SyncError.unauthorized) { try decode(FreshRSSReplies.unauthorized, status: 401, of: items) }
        #expect(throws: SyncError.unauthorized) { try decode("", status: 403, of: .subscriptions) }
        #expect(throws: SyncError.status(500)) { try decode("oops", status: 500, of: items) }
        #expect(throws: SyncError.html) { try decode(FreshRSSReplies.loginPage, of: items) }
        #expect(throws: SyncError.emptyReply) { try decode("", of: items) }
        #expect(throws: SyncError.emptyReply) { try decode(" \n", of: .writeToken) }
        #expect(throws: SyncError.invalidJSON) { try decode(String(FreshRSSReplies.itemsFirstPage.prefix(300)), of: items) }
        #expect(throws: SyncError.invalidJSON) { try decode("not json", of: .unreadIDs(count: 1, continuation: nil)) }
        #expect(throws: SyncError.unexpectedReply(reason: "no subscriptions in the reply")) { try decode("{}", of: .subscriptions) }
    }

    @Test func refusesAnItemWithoutAnID() {
        let withoutID = FreshRSSReplies.itemsLastPage.replacingOccurrences(of: #""id":"tag:google.com,2005:reader/item/000661363502431c","#, with: "")
        #expect(throws: SyncError.itemWithoutID) { try items(withoutID) }
        #expect(throws: SyncError.itemWithoutID) { try decode(#"{"itemRefs":[{"id":""}]}"#, of: .unreadIDs(count: 1, continuation: nil)) }
        #expect(throws: SyncError.unexpectedReply(reason: "item id nonsense")) {
            try decode(#"{"itemRefs":[{"id":"nonsense"}]}"#, of: .unreadIDs(count: 1, continuation: nil))
        }
    }

    @Test func readsAPagesContinuationAheadOfItsDecode() throws {
        let api = GoogleReaderAPI()
        let ahead = { (status: Int, text: String) in api.continuationAhead(ofItems: SyncReply(status: status, text: text)) }
        for text in [FreshRSSReplies.itemsFirstPage, FreshRSSReplies.itemsLastPage] {
            guard case let .items(page) = try api.decode(SyncReply(status: 200, text: text), of: .items(since: nil, count: 2, continuation: nil)) else {
                Issue.record("not a page")
                continue
            }
            #expect(ahead(200, text) == page.continuation && page.continuation != nil)
        }
        #expect(ahead(200, #" {"continuation": 17, "items": [ {"id": "1"} ]} "#) == "17")
        // A key that repeats: the first, as the decode takes it (found by fuzz-sync-replies).
        #expect(ahead(200, #"{"items":[{"id":"1"}],"continuation":"a","continuation":"b"}"#) == "a")
        #expect(ahead(200, #"{"items":[{"id":"1"}],"continuation":null,"continuation":"b"}"#) == nil)
        #expect(ahead(200, #"{"items":[],"continuation":"a","items":[{"id":"1"}]}"#) == nil)
        #expect(ahead(200, #"{"items":[{"id":"1"}],"continuation":"a\u0062"}"#) == "ab")
        // Not a page with items and a continuation: the page is decoded before the next request.
        for text in [
            FreshRSSReplies.noItems, #"{"items":[],"continuation":"a"}"#, #"{"items":[{"id":"1"}]}"#,
            #"{"items":[{"id":"1"}],"continuation":null}"#, #"{"items":{"id":"1"},"continuation":"a"}"#,
            #"{"items":[{"id":"1"}],"continuation":"a"} x"#, String(FreshRSSReplies.itemsFirstPage.dropLast()),
            FreshRSSReplies.loginPage, "", #"["continuation"]"#,
        ] {
            #expect(ahead(200, text) == nil, "\(text.prefix(60))")
        }
        #expect(ahead(401, FreshRSSReplies.itemsFirstPage) == nil)
        #expect(ahead(500, FreshRSSReplies.itemsFirstPage) == nil)
    }

}
