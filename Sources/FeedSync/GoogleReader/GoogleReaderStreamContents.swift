import Feeds
import Foundation

/// The reply of `stream/contents` and `stream/items/contents`: a page of items.
///
/// Each reply struct holds the fields the calls read and reads itself from JSON
/// (`JSONReader.decodedObject`); its `Key` lists them in the order the decodable struct it
/// replaces declared them, which is the order their problems are reported in.
struct StreamContents {
    enum Key: String, CaseIterable, Sendable { case updated, items, continuation }
    static let keys = ReplyKeys<Key>()

    var updated: Double?
    var items: [Item]?
    var continuation: String?

    /// The reply at the reader's top level.
    static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<StreamContents> {
        try reader.decodedObject(keys, into: StreamContents()) { (reader: inout JSONReader, key: Key, stream: inout StreamContents) throws(JSONReaderError) in
            switch key {
            case .updated: try reader.decodedDouble().store(in: &stream.updated)
            case .items: try reader.decodedArray(Item.read).store(in: &stream.items)
            case .continuation: try reader.decodedLenientString().store(in: &stream.continuation)
            }
        }
    }
}

extension StreamContents {
    /// An item of the page.
    struct Item {
        enum Key: String, CaseIterable, Sendable {
            case id, crawlTimeMsec, published, updated, title, canonical, alternate, categories, origin, summary, content, author, enclosure
        }
        static let keys = ReplyKeys<Key>()

        var id: String?
        var crawlTimeMsec: String?
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

        static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<Item> {
            try reader.decodedObject(keys, into: Item()) { (reader: inout JSONReader, key: Key, item: inout Item) throws(JSONReaderError) in
                switch key {
                case .id: try reader.decodedLenientString().store(in: &item.id)
                case .crawlTimeMsec: try reader.decodedLenientString().store(in: &item.crawlTimeMsec)
                case .published: try reader.decodedDouble().store(in: &item.published)
                case .updated: try reader.decodedDouble().store(in: &item.updated)
                case .title: try reader.decodedString().store(in: &item.title)
                case .canonical: try reader.decodedArray(Link.read).store(in: &item.canonical)
                case .alternate: try reader.decodedArray(Link.read).store(in: &item.alternate)
                case .categories: try reader.decodedArray { (reader: inout JSONReader) throws(JSONReaderError) in try reader.decodedString() }.store(in: &item.categories)
                case .origin: try Origin.read(&reader).store(in: &item.origin)
                case .summary: try Text.read(&reader).store(in: &item.summary)
                case .content: try Text.read(&reader).store(in: &item.content)
                case .author: try reader.decodedString().store(in: &item.author)
                case .enclosure: try reader.decodedArray(Enclosure.read).store(in: &item.enclosure)
                }
            }
        }

        /// The item as the sync core takes it.
        ///
        /// - Throws: ``SyncError/itemWithoutID`` without an id; ``SyncError/unexpectedReply(reason:)``
        ///   for an id of neither form, or no origin stream.
        func remote() throws(SyncError) -> RemoteItem {
            guard let text = id, !text.isEmpty else { throw .itemWithoutID }
            guard let id = GoogleReaderItemID.normalized(text) else { throw .unexpectedReply(reason: "item id \(text)") }
            guard let streamID = origin?.streamId, !streamID.isEmpty else {
                throw .unexpectedReply(reason: "item \(text) has no origin stream")
            }
            let categories = self.categories ?? []
            // States are `user/-/state/com.google/read`, or with the user's number for `-`.
            func has(_ suffix: String) -> Bool { categories.contains { $0.hasPrefix("user/") && $0.hasSuffix(suffix) } }
            let link = (canonical?.first?.href ?? alternate?.first?.href).flatMap(GoogleReaderAPI.absoluteURL)
            return RemoteItem(
                id: id, streamID: streamID, title: title ?? "", link: link, author: author,
                published: published.flatMap(GoogleReaderAPI.date(seconds:)),
                updated: updated.flatMap(GoogleReaderAPI.date(seconds:)),
                crawled: crawlTimeMsec.flatMap { Double($0) }.flatMap { GoogleReaderAPI.date(seconds: $0 / 1000) },
                // FreshRSS sends the whole content as the summary; others send both.
                summary: content == nil ? nil : summary?.content, content: content?.content ?? summary?.content,
                categories: categories.filter { !$0.hasPrefix("user/") },
                enclosures: (enclosure ?? []).compactMap { enclosure in
                    enclosure.href.flatMap(GoogleReaderAPI.absoluteURL).map {
                        FeedEnclosure(url: $0, type: enclosure.type, length: enclosure.length.flatMap { Int($0) })
                    }
                },
                isRead: has("/state/com.google/read"), isStarred: has("/state/com.google/starred")
            )
        }
    }
}

extension StreamContents.Item {
    /// A `canonical` or `alternate` link.
    struct Link {
        enum Key: String, CaseIterable, Sendable { case href }
        static let keys = ReplyKeys<Key>()

        var href: String?

        static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<Link> {
            try reader.decodedObject(keys, into: Link()) { (reader: inout JSONReader, key: Key, link: inout Link) throws(JSONReaderError) in
                switch key {
                case .href: try reader.decodedString().store(in: &link.href)
                }
            }
        }
    }

    /// The stream the item came from.
    struct Origin {
        enum Key: String, CaseIterable, Sendable { case streamId }
        static let keys = ReplyKeys<Key>()

        var streamId: String?

        static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<Origin> {
            try reader.decodedObject(keys, into: Origin()) { (reader: inout JSONReader, key: Key, origin: inout Origin) throws(JSONReaderError) in
                switch key {
                case .streamId: try reader.decodedString().store(in: &origin.streamId)
                }
            }
        }
    }

    /// A `summary` or `content`: HTML.
    struct Text {
        enum Key: String, CaseIterable, Sendable { case content }
        static let keys = ReplyKeys<Key>()

        var content: String?

        static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<Text> {
            try reader.decodedObject(keys, into: Text()) { (reader: inout JSONReader, key: Key, text: inout Text) throws(JSONReaderError) in
                switch key {
                case .content: try reader.decodedString().store(in: &text.content)
                }
            }
        }
    }

    /// Attached media.
    struct Enclosure {
        enum Key: String, CaseIterable, Sendable { case href, type, length }
        static let keys = ReplyKeys<Key>()

        var href: String?
        var type: String?
        var length: String?

        static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<Enclosure> {
            try reader.decodedObject(keys, into: Enclosure()) { (reader: inout JSONReader, key: Key, enclosure: inout Enclosure) throws(JSONReaderError) in
                switch key {
                case .href: try reader.decodedString().store(in: &enclosure.href)
                case .type: try reader.decodedString().store(in: &enclosure.type)
                case .length: try reader.decodedLenientString().store(in: &enclosure.length)
                }
            }
        }
    }
}
