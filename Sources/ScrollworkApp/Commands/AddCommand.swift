import ArgumentParser
import Feeds
import ScrollworkReader

struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Subscribe to a feed (a URL or a file); `refresh` fetches it.")

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
        try await reportingFailures("add") {
            let feed = try await store.open().addFeed(url: url, title: nil, category: category)
            Console.print("added \(feed.url.absoluteString)")
        }
    }
}
