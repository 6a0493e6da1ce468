import ArgumentParser
import Feeds
import FeedSync
import Foundation
import HTTPLoading
import ScrollworkReader

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Subscribe to the feeds of an OPML file; nested outlines become categories.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The OPML file.") var file: String

    func run() async throws {
        try await reportingFailures("import") {
            // An OPML file is no larger than the feeds it lists may be.
            let data: [UInt8]
            do { data = try FileBytes.read(file, limit: FeedParser.Configuration().maxFeedBytes) } catch {
                throw Failure("cannot read \(error)")
            }
            let listed: [Subscription]
            do {
                listed = try OPML.subscriptions(from: data, url: URL(fileURLWithPath: file))
            } catch {
                throw Failure("\(file): \(error)")
            }
            // A document may name anything; only http and https feeds are subscribed (a file
            // feed is subscribed by `add PATH`, never by a document).
            let subscriptions = listed.filter { RequestTarget.isFetchable($0.feedURL) }
            for refused in listed where !RequestTarget.isFetchable(refused.feedURL) {
                printError("scrollwork import: skipped \(refused.feedURL.absoluteString): only http and https feeds are imported")
            }
            // Folder names may hold slashes, which the stored category splits at.
            for subscription in subscriptions {
                let depth = subscription.storedCategory.map { Subscription.folders(ofCategory: $0).count } ?? 0
                guard depth <= OPML.maxCategoryDepth else {
                    throw Failure("\(file): \(OPMLError.categoryTooDeep(feedURL: subscription.feedURL, depth: depth, limit: OPML.maxCategoryDepth))")
                }
            }
            let skipped = listed.count - subscriptions.count
            if let (sync, opened) = try store.optionalAccountSync(prompting: true) {
                // The server follows the feeds, each in its innermost folder (its folders do not nest).
                var fresh: [Subscription] = []
                for subscription in subscriptions where try await opened.feed(url: subscription.feedURL)?.remoteID == nil {
                    fresh.append(subscription)
                }
                let outcome = await SyncCommand.runOnce(sync, edits: SubscriptionEdit.subscribing(to: fresh), json: false, command: "import")
                guard outcome.failure == nil else { throw ExitCode.failure }
                Console.print("imported \(fresh.count) feeds on the server (\(subscriptions.count - fresh.count) already subscribed\(skipped > 0 ? ", \(skipped) skipped" : ""))")
                return
            }
            let store = try store.open()
            var added = 0
            for subscription in subscriptions {
                guard try await store.feed(url: subscription.feedURL) == nil else { continue }
                _ = try await store.addFeed(url: subscription.feedURL, title: subscription.title, category: subscription.storedCategory)
                added += 1
            }
            Console.print("imported \(added) feeds (\(subscriptions.count - added) already subscribed\(skipped > 0 ? ", \(skipped) skipped" : ""))")
        }
    }
}
