import Feeds
import Foundation

extension GoogleReaderAPI {
    /// What the reply to `operation` says.
    ///
    /// - Throws: ``SyncError/unauthorized`` for 401 and 403; ``SyncError/status(_:)`` for
    ///   another status outside 2xx; ``SyncError/emptyReply``, ``SyncError/html``,
    ///   ``SyncError/invalidJSON`` or ``SyncError/unexpectedReply(reason:)`` for a body that is
    ///   not the call's; ``SyncError/itemWithoutID`` for an item without an id;
    ///   ``SyncError/rejected(reason:)`` for a write answered other than `OK`.
    /// - Complexity: O(n) in the size of the reply; the items are decoded in one pass over the
    ///   bytes (``JSONReader``), and nothing of the reply is kept but the values.
    public func decode(_ reply: SyncReply, of operation: SyncOperation) throws(SyncError) -> SyncResult {
        switch operation {
        case .writeToken:
            let token = try Self.text(of: reply).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw .emptyReply }
            return .writeToken(SyncSecret(token))
        case .subscriptions:
            let list = try Self.json(reply, SubscriptionList.read)
            var subscriptions: [RemoteSubscription] = []
            subscriptions.reserveCapacity(list.subscriptions.count)
            for subscription in list.subscriptions { subscriptions.append(try subscription.remote()) }
            return .subscriptions(subscriptions)
        case .items, .itemsByID:
            let stream = try Self.json(reply, StreamContents.read)
            var items: [RemoteItem] = []
            items.reserveCapacity(stream.items?.count ?? 0)
            // By index, to map each item where it is rather than a copy of it.
            if let page = stream.items {
                for index in page.indices { items.append(try page[index].remote()) }
            }
            return .items(ItemPage(items: items, continuation: stream.continuation,
                                   serverTime: stream.updated.flatMap(Self.date(seconds:)) ?? reply.date))
        case .itemIDs, .unreadIDs, .starredIDs:
            let references = try Self.json(reply, ItemReferences.read)
            var ids: [RemoteItemID] = []
            ids.reserveCapacity(references.itemRefs?.count ?? 0)
            for reference in references.itemRefs ?? [] {
                guard let text = reference.id, !text.isEmpty else { throw .itemWithoutID }
                guard let id = GoogleReaderItemID.normalized(text) else { throw .unexpectedReply(reason: "item id \(text)") }
                ids.append(id)
            }
            return .itemIDs(IDPage(ids: ids, continuation: references.continuation, serverTime: reply.date))
        case .mark, .edit:
            let text = try Self.text(of: reply).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text == "OK" else { throw .rejected(reason: text) }
            return .done
        }
    }

    /// The continuation of a page of items, read with the page's other values skipped (checked,
    /// not made): a tenth of the decode's time. Nil unless the reply is a success, JSON, an
    /// object whose `items` is an array with an element, and has a continuation (a string or a
    /// number); as ``decode(_:of:)`` does, it reads the first of a key that repeats.
    ///
    /// - Complexity: O(n) in the size of the reply.
    public func continuationAhead(ofItems reply: SyncReply) -> String? {
        guard (200..<300).contains(reply.status), (try? Self.checkNotHTML(reply.body)) != nil else { return nil }
        return try? JSONReader.read(reply.body) { (reader: inout JSONReader) throws(JSONReaderError) -> String? in
            try reader.beginObject()
            var continuation: String?
            var hasItems = false
            var seenItems = false
            var seenContinuation = false
            while let key = try reader.nextKey() {
                switch key {
                case StreamContents.Key.items.rawValue where !seenItems:
                    seenItems = true
                    if try reader.peek() == .array {
                        try reader.beginArray()
                        hasItems = try reader.nextElement()
                        if hasItems {
                            try reader.skipValue()
                            while try reader.nextElement() { try reader.skipValue() }
                        }
                    } else {
                        try reader.skipValue()
                    }
                case StreamContents.Key.continuation.rawValue where !seenContinuation:
                    seenContinuation = true
                    if case let .value(text) = try reader.decodedLenientString() { continuation = text }
                default:
                    try reader.skipValue()
                }
            }
            try reader.finish()
            return hasItems ? continuation : nil
        }
    }

    /// The date `seconds` after 1970 within a feed's dates' range (``FeedDate``): a reply's
    /// number out of it (microseconds where seconds were meant, say) is no date.
    static func date(seconds: Double) -> Date? {
        FeedDate.date(secondsSince1970: seconds)
    }

    /// `text` as a URL if it is an absolute one (with a scheme); a server's links are
    /// absolute, and a relative one has nothing to be resolved against.
    static func absoluteURL(_ text: String) -> URL? {
        guard let url = URL(string: text), url.scheme != nil else { return nil }
        return url
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

    /// The reply's JSON as `read` reads it from the top level, once the status is a success
    /// and the body neither empty nor HTML.
    ///
    /// - Throws: ``SyncError/invalidJSON`` for a body that is not JSON (or holds a number a
    ///   `Double` cannot), else ``SyncError/unexpectedReply(reason:)`` naming the first value
    ///   not of the shape expected (``ReplyShapeFailure``).
    private static func json<Value>(
        _ reply: SyncReply, _ read: (inout JSONReader) throws(JSONReaderError) -> Decoded<Value>
    ) throws(SyncError) -> Value {
        try checkStatus(reply.status)
        try checkNotHTML(reply.body)
        let decoded: Decoded<Value>
        do {
            decoded = try JSONReader.read(reply.body) { (reader: inout JSONReader) throws(JSONReaderError) in
                let value = try read(&reader)
                try reader.finish()
                return value
            }
        } catch {
            throw .invalidJSON
        }
        switch decoded {
        case let .value(value): return value
        case .null: throw ReplyShapeFailure(kind: .wrongType).error
        case let .failed(failure): throw failure.error
        }
    }
}
