import ArgumentParser
import Feeds
import ScrollworkReader

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Print the subscriptions as OPML, categories as nested outlines.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        try await reportingFailures("export") {
            let subscriptions = try await store.openForReading().feeds().map(Subscription.init)
            do {
                Console.printExact(try OPML.document(for: subscriptions), terminator: "")
            } catch {
                throw Failure("\(error); remove the feed and add it again with a shorter --category")
            }
        }
    }
}
