import ArgumentParser
import Feeds
import FeedsHTTP
import ScrollworkReader

struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Fetch every feed and store its entries; one line per feed: new, modified, unchanged, or the error.",
        discussion: """
            Feeds are fetched conditionally (ETag, Last-Modified), a few at once. A feed that \
            fails keeps its stored entries and records the error. With --json, one object per \
            feed: {"feed", "new", "modified", "unchanged", "malformed"}, {"feed", "notModified": \
            true}, or {"feed", "error"}; "movedTo" when the feed moved permanently. Exit \
            status 1 if any feed failed. With an account (`scrollwork account`), the server \
            fetches the feeds and refresh syncs with it, as `scrollwork sync` does.
            """)

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print one JSON object per feed.") var json = false

    func run() async throws {
        var anyFailed = false
        try await reportingFailures("refresh") {
            if let (sync, _) = try store.optionalAccountSync(prompting: true) {
                // The server fetches the feeds: a refresh is a sync.
                anyFailed = await SyncCommand.runOnce(sync, json: json, command: "refresh").failure != nil
                return
            }
            let fetcher = FeedFetcher()
            let outcomes: [FeedRefreshOutcome]
            do {
                outcomes = try await FeedRefresher(store: try store.openExisting(), fetcher: fetcher).refreshAll()
            } catch {
                try? await fetcher.shutdown()
                throw error
            }
            try? await fetcher.shutdown()
            for outcome in outcomes {
                if case .failed = outcome.status { anyFailed = true }
                if json { Console.printExact(Self.json(outcome)) } else { Console.print(Self.line(outcome)) }
            }
            if outcomes.isEmpty && !json { Console.print("no feeds: add one with `scrollwork add URL`") }
        }
        if anyFailed { throw ExitCode.failure }
    }

    static func line(_ outcome: FeedRefreshOutcome) -> String {
        let name = outcome.feed.url.absoluteString
        let moved = outcome.movedTo.map { " (moved to \($0.absoluteString))" } ?? ""
        switch outcome.status {
        case let .refreshed(new, modified, unchanged, malformed):
            return "\(name): \(new) new, \(modified) modified, \(unchanged) unchanged\(malformed ? " (malformed, salvaged)" : "")\(moved)"
        case .notModified:
            return "\(name): not modified\(moved)"
        case .failed(let message):
            return "\(name): error: \(message)"
        }
    }

    static func json(_ outcome: FeedRefreshOutcome) -> String {
        var fields = [("feed", JSONText.quoted(outcome.feed.url.absoluteString))]
        switch outcome.status {
        case let .refreshed(new, modified, unchanged, malformed):
            fields += [("new", "\(new)"), ("modified", "\(modified)"), ("unchanged", "\(unchanged)"), ("malformed", "\(malformed)")]
        case .notModified:
            fields.append(("notModified", "true"))
        case .failed(let message):
            fields.append(("error", JSONText.quoted(message)))
        }
        if let moved = outcome.movedTo { fields.append(("movedTo", JSONText.quoted(moved.absoluteString))) }
        return "{" + fields.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}"
    }
}
