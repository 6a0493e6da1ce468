import ArgumentParser
import Feeds
import ScrollworkReader

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Subscribe to a feed (a URL or a file); `refresh` fetches it. With an account, on the server, which fetches it.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The feed's URL, or a path to a feed file.") var url: String
    @Option(help: "A category to file the feed under.") var category: String?

    func validate() throws {
        _ = try feedURL(url)
        let depth = category.map { Subscription.folders(ofCategory: $0).count } ?? 0
        guard depth <= OPML.maxCategoryDepth else {
            throw ValidationError("--category is \(depth) folders deep; categories nest at most \(OPML.maxCategoryDepth) levels")
        }
    }

    func run() async throws {
        let url = try feedURL(self.url)
        let failed = try await reportingFailures("add") {
            if let (sync, _) = try store.optionalAccountSync(prompting: true) {
                // The server follows the feed and fetches it; the sync brings its posts.
                let folder = category.map { Subscription.folders(ofCategory: $0) }?.last
                let outcome = await SyncCommand.runOnce(sync, edits: [.subscribe(url, title: nil, folder: folder)], json: false, command: "add")
                if outcome.failure == nil { Console.print("added \(url.absoluteString) on \(sync.account.apiURL.host ?? "the server")") }
                return outcome.failure != nil
            }
            let feed = try await store.open().addFeed(url: url, title: nil, category: category)
            Console.print("added \(feed.url.absoluteString)")
            return false
        }
        if failed { throw ExitCode.failure }
    }
}
