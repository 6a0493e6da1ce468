import Foundation
import Feeds

/// A feed the account follows on the server, with the folders it sits in.
public struct RemoteSubscription: Sendable, Hashable {
    /// The server's id of the feed's stream (Google Reader: `feed/1` on FreshRSS, `feed/URL`
    /// elsewhere); what items name as their origin and what edits address.
    public var streamID: String
    /// The feed's address, which the server fetches.
    public var feedURL: URL
    /// The name the account gives it.
    public var title: String
    /// The web site the feed belongs to.
    public var siteURL: URL?
    /// The folders (Google Reader labels) it sits in, by name.
    public var folders: [String]

    /// A subscription. The title and the folders' names are cleaned as a feed's title is:
    /// whitespace collapsed, control characters removed; empty folder names are dropped.
    public init(streamID: String, feedURL: URL, title: String, siteURL: URL? = nil, folders: [String] = []) {
        self.streamID = streamID
        self.feedURL = feedURL
        self.title = FeedText.line(PlainText.collapsingWhitespace(title))
        self.siteURL = siteURL
        self.folders = folders.map { FeedText.line(PlainText.collapsingWhitespace($0)) }.filter { !$0.isEmpty }
    }

    /// The subscription as OPML lists it, for `export` and the local feed list.
    public var subscription: Subscription {
        Subscription(feedURL: feedURL, title: title, siteURL: siteURL, categories: folders)
    }
}
