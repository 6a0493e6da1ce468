import ArgumentParser
import Feeds
import ScrollworkReader

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List stored entries, newest first across feeds.",
        discussion: """
            With --json, one object per entry: {"id", "feed", "title", "link", "published", \
            "read", "starred"}, dates in RFC 3339 UTC or null.
            """)

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print one JSON object per entry.") var json = false
    @Flag(help: "Only unread entries.") var unread = false
    @Option(help: "Only entries of this feed (its URL or path as added).") var feed: String?
    @Option(help: "Only entries whose title contains this text.") var search: String?
    @Option(help: "The most entries to list.") var limit = 50

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
    }

    func run() async throws {
        try await reportingFailures("list") {
            let store = try store.openForReading()
            var feedID: StoredFeed.ID?
            if let feed {
                let url = try feedURL(feed)
                guard let stored = try await store.feed(url: url) else { throw Failure("not subscribed to \(url.absoluteString)") }
                feedID = stored.id
            }
            let feeds = Dictionary(uniqueKeysWithValues: try await store.feeds().map { ($0.id, $0) })
            let entries = try await store.entries(EntryQuery(feed: feedID, unreadOnly: unread, titleContains: search, limit: limit))
            for stored in entries {
                let feedName = feeds[stored.feedID].map { $0.title ?? $0.url.absoluteString } ?? ""
                if json {
                    let fields = [
                        ("id", JSONText.quoted(stored.entry.id)), ("feed", JSONText.quoted(feedName)),
                        ("title", JSONText.quoted(stored.entry.title)),
                        ("link", stored.entry.link.map { JSONText.quoted($0.absoluteString) } ?? "null"),
                        ("published", stored.entry.published.map { JSONText.quoted(FeedDate.rfc3339($0)) } ?? "null"),
                        ("read", "\(stored.isRead)"), ("starred", "\(stored.isStarred)"),
                    ]
                    Console.printExact("{" + fields.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}")
                } else {
                    let date = stored.entry.published.map { String(FeedDate.rfc3339($0).prefix(10)) } ?? "undated   "
                    Console.print("\(date)  \(stored.isRead ? " " : "*") \(stored.entry.title)  — \(feedName)")
                }
            }
        }
    }
}
