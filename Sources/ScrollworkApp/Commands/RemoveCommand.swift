import ArgumentParser
import Feeds
import ScrollworkReader

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Unsubscribe from a feed and delete its stored entries.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The feed's URL (or path) as added.") var url: String

    func validate() throws { _ = try feedURL(url) }

    func run() async throws {
        let url = try feedURL(self.url)
        try await reportingFailures("remove") {
            let store = try store.openExisting()
            guard let feed = try await store.feed(url: url) else { throw Failure("not subscribed to \(url.absoluteString)") }
            try await store.removeFeed(feed.id)
            Console.print("removed \(url.absoluteString)")
        }
    }
}
