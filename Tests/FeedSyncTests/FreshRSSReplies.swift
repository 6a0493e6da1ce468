/// Replies of FreshRSS 1.25.0-dev (`../shared/freshrss/serve.sh`), captured with curl from a
/// server following one feed of three items served on 127.0.0.1; ids and tokens as it made them.
enum FreshRSSReplies {
    /// `POST accounts/ClientLogin` with the right password.
    static let login = "SID=alice/6c248e311dc126451e5933bc3dac69468d1782a5\nLSID=null\nAuth=alice/6c248e311dc126451e5933bc3dac69468d1782a5\n"
    /// `POST accounts/ClientLogin` with a wrong password (status 401), and any call with a
    /// refused token.
    static let unauthorized = "Unauthorized!\n"
    /// `GET reader/api/0/token`.
    static let writeToken = "6c248e311dc126451e5933bc3dac69468d1782a5ZZZZZZZZZZZZZZZZZ\n"
    /// `GET reader/api/0/subscription/list?output=json`.
    static let subscriptions = #"{"subscriptions":[{"id":"feed/1","title":"Helper Feed","categories":[{"id":"user/-/label/Tech","label":"Tech"}],"url":"http://127.0.0.1:8792/feed.xml","htmlUrl":"http://127.0.0.1:8792/","iconUrl":"http://127.0.0.1:8791/f.php?af3573b9"}]}"#
    /// `GET …/stream/contents/user/-/state/com.google/reading-list?n=2&output=json&ot=0`.
    static let itemsFirstPage = #"{"id":"user/-/state/com.google/reading-list","updated":1795735308,"items":[{"id":"tag:google.com,2005:reader/item/000661363502431e","crawlTimeMsec":"1795735305732","timestampUsec":"1795735305732894","published":1764151200,"title":"Third","canonical":[{"href":"http://127.0.0.1:8792/3"}],"alternate":[{"href":"http://127.0.0.1:8792/3"}],"categories":["user/-/state/com.google/reading-list","user/-/label/Tech"],"origin":{"streamId":"feed/1","htmlUrl":"http://127.0.0.1:8792/","title":"Helper Feed"},"summary":{"content":"<b>three</b>\n<figure class=\"enclosure\"><p class=\"enclosure-content\"><img src=\"http://127.0.0.1:8792/t.jpg\" alt=\"\" title=\"\" /></p></figure>\n"},"enclosure":[{"href":"http://127.0.0.1:8792/t.jpg","type":"image/jpeg","length":99}]},{"id":"tag:google.com,2005:reader/item/000661363502431d","crawlTimeMsec":"1795735305732","timestampUsec":"1795735305732893","published":1764064800,"title":"Second","canonical":[{"href":"http://127.0.0.1:8792/2"}],"alternate":[{"href":"http://127.0.0.1:8792/2"}],"categories":["user/-/state/com.google/reading-list","user/-/label/Tech"],"origin":{"streamId":"feed/1","htmlUrl":"http://127.0.0.1:8792/","title":"Helper Feed"},"summary":{"content":"Plain text\n<figure class=\"enclosure\"><p class=\"enclosure-content\"><audio preload=\"none\" src=\"http://127.0.0.1:8792/a.mp3\" data-length=\"1234\" data-type=\"audio/mpeg\" controls=\"controls\" title=\"\"></audio> <a download=\"\" href=\"http://127.0.0.1:8792/a.mp3\">💾</a></p></figure>\n"},"enclosure":[{"href":"http://127.0.0.1:8792/a.mp3","type":"audio/mpeg","length":1234}]}],"continuation":"1795735305732893"}"#
    /// The same with the first page's continuation.
    static let itemsLastPage = #"{"id":"user/-/state/com.google/reading-list","updated":1795735308,"items":[{"id":"tag:google.com,2005:reader/item/000661363502431c","crawlTimeMsec":"1795735305732","timestampUsec":"1795735305732892","published":1763978400,"title":"First ＆ foremost","canonical":[{"href":"http://127.0.0.1:8792/1"}],"alternate":[{"href":"http://127.0.0.1:8792/1"}],"categories":["user/-/state/com.google/reading-list","user/-/label/Tech","News"],"origin":{"streamId":"feed/1","htmlUrl":"http://127.0.0.1:8792/","title":"Helper Feed"},"summary":{"content":"<p>Hello <img src=\"http://127.0.0.1:8792/pic1.png\"> world</p>"},"author":"ann@example.com (Ann)"}],"continuation":"1795735305732892"}"#
    /// `GET …/reading-list?n=2&output=json&ot=…` with nothing new.
    static let noItems = #"{"id":"user/-/state/com.google/reading-list","updated":1795735315,"items":[]}"#
    /// `GET reader/api/0/stream/items/ids?s=…/reading-list&xt=…/read&n=1000&output=json`, short ids.
    static let unreadIDs = #"{"itemRefs":[{"id":"1795735305732894"},{"id":"1795735305732893"}]}"#
    /// The same with `n=2`: a full page has a continuation.
    static let unreadIDsFirstPage = #"{"itemRefs":[{"id":"1795735305732894"},{"id":"1795735305732893"}],"continuation":"1795735305732893"}"#
    /// `GET reader/api/0/stream/items/ids?s=user/-/state/com.google/starred&n=1000&output=json`.
    static let starredIDs = #"{"itemRefs":[{"id":"1795735305732893"},{"id":"1795735305732892"}]}"#
    /// `POST reader/api/0/stream/items/contents?output=json` with one `i`: a read, starred item.
    static let itemsByID = #"{"id":"user/-/state/com.google/reading-list","updated":1795735315,"items":[{"id":"tag:google.com,2005:reader/item/000661363502431c","crawlTimeMsec":"1795735305732","timestampUsec":"1795735305732892","published":1763978400,"title":"First ＆ foremost","canonical":[{"href":"http://127.0.0.1:8792/1"}],"alternate":[{"href":"http://127.0.0.1:8792/1"}],"categories":["user/-/state/com.google/reading-list","user/-/label/Tech","user/-/state/com.google/read","user/-/state/com.google/starred","News"],"origin":{"streamId":"feed/1","htmlUrl":"http://127.0.0.1:8792/","title":"Helper Feed"},"summary":{"content":"<p>Hello <img src=\"http://127.0.0.1:8792/pic1.png\"> world</p>"},"author":"ann@example.com (Ann)"}]}"#
    /// `POST reader/api/0/edit-tag` and `subscription/edit`.
    static let ok = "OK"
    /// `POST subscription/quickadd` of a feed that answers 404.
    static let quickaddFailed = #"{"numResults":0,"error":"cURL error 22: The requested URL returned error: 404 [http://127.0.0.1:8792/missing.xml]"}"#
    /// The start of `GET /i/`: the login page a proxy or a wrong URL answers with.
    static let loginPage = """
        <!DOCTYPE html>
        <html lang="en" xml:lang="en" class="darkMode_auto">
        \t<head>
        \t\t<meta charset="UTF-8" />
        \t\t<title>Login · FreshRSS</title>
        """
}
