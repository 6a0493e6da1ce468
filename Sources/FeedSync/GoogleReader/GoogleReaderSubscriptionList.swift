import Feeds
import Foundation

/// The reply of `subscription/list`.
struct SubscriptionList {
    enum Key: String, CaseIterable, Sendable { case subscriptions }
    static let keys = ReplyKeys<Key>()

    var subscriptions: [Subscription] = []

    /// The reply at the reader's top level; `subscriptions` is required.
    static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<SubscriptionList> {
        try reader.decodedObject(keys, required: [.subscriptions], into: SubscriptionList()) {
            (reader: inout JSONReader, key: Key, list: inout SubscriptionList) throws(JSONReaderError) in
            switch key {
            case .subscriptions: try reader.decodedArray(Subscription.read).storeRequired(in: &list.subscriptions)
            }
        }
    }
}

extension SubscriptionList {
    /// A feed of the list.
    struct Subscription {
        enum Key: String, CaseIterable, Sendable { case id, title, url, htmlUrl, categories }
        static let keys = ReplyKeys<Key>()

        var id = ""
        var title: String?
        var url: String?
        var htmlUrl: String?
        var categories: [Category]?

        /// A subscription; `id` is required.
        static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<Subscription> {
            try reader.decodedObject(keys, required: [.id], into: Subscription()) {
                (reader: inout JSONReader, key: Key, subscription: inout Subscription) throws(JSONReaderError) in
                switch key {
                case .id: try reader.decodedString().storeRequired(in: &subscription.id)
                case .title: try reader.decodedString().store(in: &subscription.title)
                case .url: try reader.decodedString().store(in: &subscription.url)
                case .htmlUrl: try reader.decodedString().store(in: &subscription.htmlUrl)
                case .categories: try reader.decodedArray(Category.read).store(in: &subscription.categories)
                }
            }
        }

        /// The subscription as the sync core takes it.
        ///
        /// - Throws: ``SyncError/unexpectedReply(reason:)`` without a feed URL (an absolute one).
        func remote() throws(SyncError) -> RemoteSubscription {
            let address = url ?? (id.hasPrefix("feed/") ? String(id.dropFirst("feed/".count)) : nil)
            guard let address, let feedURL = GoogleReaderAPI.absoluteURL(address) else {
                throw .unexpectedReply(reason: "subscription \(id) has no feed URL")
            }
            let folders = (categories ?? []).compactMap { category in
                category.label ?? category.id.flatMap { $0.hasPrefix(GoogleReaderAPI.labelPrefix) ? String($0.dropFirst(GoogleReaderAPI.labelPrefix.count)) : nil }
            }
            return RemoteSubscription(streamID: id, feedURL: feedURL, title: title ?? address,
                                      siteURL: htmlUrl.flatMap(GoogleReaderAPI.absoluteURL), folders: folders)
        }
    }
}

extension SubscriptionList.Subscription {
    /// A folder (a label) the feed is in.
    struct Category {
        enum Key: String, CaseIterable, Sendable { case id, label }
        static let keys = ReplyKeys<Key>()

        var id: String?
        var label: String?

        static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<Category> {
            try reader.decodedObject(keys, into: Category()) { (reader: inout JSONReader, key: Key, category: inout Category) throws(JSONReaderError) in
                switch key {
                case .id: try reader.decodedString().store(in: &category.id)
                case .label: try reader.decodedString().store(in: &category.label)
                }
            }
        }
    }
}
