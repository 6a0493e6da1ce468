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
            let opened = try store.openExisting()
            guard let feed = try await opened.feed(url: url) else { throw Failure("not subscribed to \(url.absoluteString)") }
            if let remoteID = feed.remoteID, let (sync, _) = try store.optionalAccountSync(prompting: true) {
                // The server stops following it; its list, fetched after, removes it here.
                let outcome = await SyncCommand.runOnce(sync, edits: [.unsubscribe(streamID: remoteID)], json: false, command: "remove")
                guard outcome.failure == nil else { throw ExitCode.failure }
            } else {
                try await opened.removeFeed(feed.id)
            }
            Console.print("removed \(url.absoluteString)")
        }
    }
}
