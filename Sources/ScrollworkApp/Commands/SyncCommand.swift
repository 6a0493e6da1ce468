import ArgumentParser
import Feeds
import FeedSync
import Foundation
import ScrollworkReader

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync with the account's feed server: push what you read and starred, pull what is new.",
        discussion: """
            Pushes the read, unread, starred and unstarred changes made since the last sync, then \
            pulls new items and the read and starred states made on other devices. A change not \
            yet pushed wins over the server's state; once pushed, the server's state wins. On a \
            terminal, the step shows as it goes; the end says what changed ("42 new, 7 marked \
            read, 3 starred, 2 pushed"). With --json, one line: {"new", "markedRead", \
            "markedUnread", "starred", "unstarred", "pushed", "received", "requests", "error"}. \
            Exit status 1 when the sync failed; what it did before stays, and the queue of \
            changes waits for the next sync.
            """)

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print one JSON line.") var json = false

    func run() async throws {
        let outcome = try await reportingFailures("sync") {
            let (sync, _) = try store.accountSync(prompting: true)
            return await Self.runOnce(sync, json: json)
        }
        if outcome.failure != nil { throw ExitCode.failure }
    }

    /// Syncs once with `edits`, showing the steps on a terminal, prints what changed, and closes
    /// the sync's HTTP client (awaited: a command ends right after); returns the outcome.
    static func runOnce(_ sync: AccountSync, edits: [SubscriptionEdit] = [], json: Bool, command: String = "sync") async -> SyncRuntime.Outcome {
        let showsSteps = !json && isatty(STDERR_FILENO) == 1
        let outcome = await sync.sync(edits: edits) { progress in
            guard showsSteps else { return }
            Console.showStatus("syncing: \(progress.step)… \(progress.summary.received) items received")
        }
        await sync.shutdown()
        if showsSteps { Console.showStatus(nil) }
        if json {
            Console.printExact(Self.json(outcome))
        } else if let failure = outcome.failure {
            let sofar = outcome.summary.received + outcome.summary.pushed > 0 ? " (so far: \(outcome.summary))" : ""
            printError("scrollwork \(command): \(failure)\(sofar)")
        } else {
            Console.print(outcome.summary.description)
        }
        return outcome
    }

    /// The `--json` line.
    static func json(_ outcome: SyncRuntime.Outcome) -> String {
        let summary = outcome.summary
        var fields = [
            ("new", summary.new), ("markedRead", summary.markedRead), ("markedUnread", summary.markedUnread), ("starred", summary.starred),
            ("unstarred", summary.unstarred), ("pushed", summary.pushed), ("received", summary.received), ("requests", summary.requests),
        ].map { ($0.0, "\($0.1)") }
        fields.append(("error", outcome.failure.map { JSONText.quoted($0.description) } ?? "null"))
        return "{" + fields.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}"
    }
}

extension StoreLocating {
    /// The account kept for this store and a sync of it, with the store opened (created if
    /// needed); fails when there is no account.
    func accountSync(prompting: Bool) throws -> (AccountSync, FeedStore) {
        guard let sync = try optionalAccountSync(prompting: prompting) else {
            throw Failure("no account: add one with `scrollwork account add freshrss URL --user NAME`")
        }
        return sync
    }

    /// As ``accountSync(prompting:)``, or `nil` when there is no account.
    func optionalAccountSync(prompting: Bool) throws -> (AccountSync, FeedStore)? {
        let database = URL(fileURLWithPath: path)
        let account: SyncAccount?
        do {
            account = try AccountSync.account(for: database, settings: try ReaderSettings.load(from: paths().configFile))
        } catch let error as SettingsError {
            throw Failure(error.description)
        } catch {
            throw Failure("\(error)")
        }
        guard let account else { return nil }
        let store = try open()
        return (AccountSync(account: account, store: store, database: database, prompting: prompting), store)
    }
}
