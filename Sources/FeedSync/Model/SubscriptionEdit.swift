import Foundation
import Feeds

/// A change to the account's subscriptions, made on the server; the core fetches the
/// subscription list after the edits of a sync.
public enum SubscriptionEdit: Sendable, Hashable {
    /// Follow the feed at the URL, under `title` when given, in `folder` when given.
    case subscribe(URL, title: String?, folder: String?)
    /// Stop following the stream.
    case unsubscribe(streamID: String)
    /// Give the stream a new name.
    case rename(streamID: String, title: String)
    /// Take the stream out of folder `from` (when given) and put it into `to` (when given).
    case move(streamID: String, from: String?, to: String?)

    /// The edits that subscribe to every feed of an imported list (OPML), each in its
    /// innermost folder: Google Reader's folders do not nest.
    public static func subscribing(to subscriptions: [Subscription]) -> [SubscriptionEdit] {
        subscriptions.map { .subscribe($0.feedURL, title: $0.title, folder: $0.categories.last) }
    }
}
