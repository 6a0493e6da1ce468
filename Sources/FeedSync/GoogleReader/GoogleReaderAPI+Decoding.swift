import Foundation
import Feeds

extension GoogleReaderAPI {
    /// What the reply to `operation` says.
    ///
    /// - Throws: ``SyncError/unauthorized`` for 401 and 403; ``SyncError/status(_:)`` for
    ///   another status outside 2xx; ``SyncError/emptyReply``, ``SyncError/html``,
    ///   ``SyncError/invalidJSON`` or ``SyncError/unexpectedReply(reason:)`` for a body that is
    ///   not the call's; ``SyncError/itemWithoutID`` for an item without an id;
    ///   ``SyncError/rejected(reason:)`` for a write answered other than `OK`.
    /// - Complexity: O(n) in the size of the reply; the items are decoded in one pass, and
    ///   nothing of the reply is kept but the values.
    public func decode(_ reply: SyncReply, of operation: SyncOperation) throws(SyncError) -> SyncResult {
        switch operation {
        case .writeToken:
            let token = try Self.text(of: reply).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw .emptyReply }
            return .writeToken(SyncSecret(token))
        case .subscriptions:
            let list: SubscriptionList = try Self.json(reply)
            var subscriptions: [RemoteSubscription] = []
            subscriptions.reserveCapacity(list.subscriptions.count)
            for subscription in list.subscriptions { subscriptions.append(try subscription.remote()) }
            return .subscriptions(subscriptions)
        case .items, .itemsByID:
            let stream: StreamContents = try Self.json(reply)
            var items: [RemoteItem] = []
            items.reserveCapacity(stream.items?.count ?? 0)
            for item in stream.items ?? [] { items.append(try item.remote()) }
            return .items(ItemPage(items: items, continuation: stream.continuation?.text,
                                   serverTime: stream.updated.map { Date(timeIntervalSince1970: $0) } ?? reply.date))
        case .itemIDs, .unreadIDs, .starredIDs:
            let references: ItemReferences = try Self.json(reply)
            var ids: [RemoteItemID] = []
            ids.reserveCapacity(references.itemRefs?.count ?? 0)
            for reference in references.itemRefs ?? [] {
                guard let text = reference.id?.text, !text.isEmpty else { throw .itemWithoutID }
                guard let id = GoogleReaderItemID.normalized(text) else { throw .unexpectedReply(reason: "item id \(text)") }
                ids.append(id)
            }
            return .itemIDs(IDPage(ids: ids, continuation: references.continuation?.text, serverTime: reply.date))
        case .mark, .edit:
            let text = try Self.text(of: reply).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text == "OK" else { throw .rejected(reason: text) }
            return .done
        }
    }

    /// The body as text, once the status is a success and the body neither empty nor HTML.
    static func text(of reply: SyncReply) throws(SyncError) -> String {
        try checkStatus(reply.status)
        try checkNotHTML(reply.body)
        return String(decoding: reply.body, as: UTF8.self)
    }

    private static func checkStatus(_ status: Int) throws(SyncError) {
        switch status {
        case 200..<300: return
        case 401, 403: throw .unauthorized
        default: throw .status(status)
        }
    }

    /// Throws for an empty body, or one whose first character other than white space is `<`:
    /// neither JSON nor a token starts so.
    private static func checkNotHTML(_ body: [UInt8]) throws(SyncError) {
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) else {
            throw .emptyReply
        }
        if first == UInt8(ascii: "<") { throw .html }
    }

    private static func json<Value: Decodable>(_ reply: SyncReply) throws(SyncError) -> Value {
        try checkStatus(reply.status)
        try checkNotHTML(reply.body)
        do {
            return try reply.body.withUnsafeBytes { bytes in
                // The decoder reads the bytes in place: no copy of a reply of many megabytes.
                let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count, deallocator: .none)
                return try JSONDecoder().decode(Value.self, from: data)
            }
        } catch let error as SyncError {
            throw error
        } catch DecodingError.dataCorrupted {
            throw .invalidJSON
        } catch let DecodingError.keyNotFound(key, context) {
            throw .unexpectedReply(reason: "no \(key.stringValue) in \(path(context))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .unexpectedReply(reason: "a value of another type at \(path(context))")
        } catch {
            throw .invalidJSON
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty ? "the reply" : context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}

// MARK: - The replies' JSON

/// A string the server may send as a number: continuations, ids, lengths.
private struct LenientString: Decodable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.text = text
        } else if let number = try? container.decode(Int64.self) {
            text = String(number)
        } else {
            text = String(try container.decode(Double.self))
        }
    }
}

private struct SubscriptionList: Decodable {
    struct Subscription: Decodable {
        struct Category: Decodable {
            var id: String?
            var label: String?
        }

        var id: String
        var title: String?
        var url: String?
        var htmlUrl: String?
        var categories: [Category]?

        func remote() throws(SyncError) -> RemoteSubscription {
            let address = url ?? (id.hasPrefix("feed/") ? String(id.dropFirst("feed/".count)) : nil)
            guard let address, let feedURL = URL(string: address) else {
                throw .unexpectedReply(reason: "subscription \(id) has no feed URL")
            }
            let folders = (categories ?? []).compactMap { category in
                category.label ?? category.id.flatMap { $0.hasPrefix(GoogleReaderAPI.labelPrefix) ? String($0.dropFirst(GoogleReaderAPI.labelPrefix.count)) : nil }
            }
            return RemoteSubscription(streamID: id, feedURL: feedURL, title: title ?? address,
                                      siteURL: htmlUrl.flatMap(URL.init(string:)), folders: folders)
        }
    }

    var subscriptions: [Subscription]
}

private struct StreamContents: Decodable {
    var updated: Double?
    var items: [Item]?
    var continuation: LenientString?
}

private struct Item: Decodable {
    struct Link: Decodable { var href: String? }
    struct Origin: Decodable { var streamId: String? }
    struct Text: Decodable { var content: String? }
    struct Enclosure: Decodable {
        var href: String?
        var type: String?
        var length: LenientString?
    }

    var id: LenientString?
    var crawlTimeMsec: LenientString?
    var published: Double?
    var updated: Double?
    var title: String?
    var canonical: [Link]?
    var alternate: [Link]?
    var categories: [String]?
    var origin: Origin?
    var summary: Text?
    var content: Text?
    var author: String?
    var enclosure: [Enclosure]?

    func remote() throws(SyncError) -> RemoteItem {
        guard let text = id?.text, !text.isEmpty else { throw .itemWithoutID }
        guard let id = GoogleReaderItemID.normalized(text) else { throw .unexpectedReply(reason: "item id \(text)") }
        guard let streamID = origin?.streamId, !streamID.isEmpty else {
            throw .unexpectedReply(reason: "item \(text) has no origin stream")
        }
        let categories = self.categories ?? []
        // States are `user/-/state/com.google/read`, or with the user's number for `-`.
        func has(_ state: String) -> Bool { categories.contains { $0.hasPrefix("user/") && $0.hasSuffix("/state/com.google/" + state) } }
        let link = (canonical?.first?.href ?? alternate?.first?.href).flatMap(URL.init(string:))
        return RemoteItem(
            id: id, streamID: streamID, title: title ?? "", link: link, author: author,
            published: published.map { Date(timeIntervalSince1970: $0) },
            updated: updated.map { Date(timeIntervalSince1970: $0) },
            crawled: crawlTimeMsec.flatMap { Double($0.text) }.map { Date(timeIntervalSince1970: $0 / 1000) },
            // FreshRSS sends the whole content as the summary; others send both.
            summary: content == nil ? nil : summary?.content, content: content?.content ?? summary?.content,
            categories: categories.filter { !$0.hasPrefix("user/") },
            enclosures: (enclosure ?? []).compactMap { enclosure in
                enclosure.href.flatMap(URL.init(string:)).map {
                    FeedEnclosure(url: $0, type: enclosure.type, length: enclosure.length.flatMap { Int($0.text) })
                }
            },
            isRead: has("read"), isStarred: has("starred")
        )
    }
}

private struct ItemReferences: Decodable {
    struct Reference: Decodable { var id: LenientString? }

    var itemRefs: [Reference]?
    var continuation: LenientString?
}
