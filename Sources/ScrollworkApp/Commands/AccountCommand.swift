import ArgumentParser
import Feeds
import FeedSync
import Foundation
import ScrollworkReader

/// `scrollwork account add|list|remove`: the feed server the reader syncs with.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "The feed server to sync with (FreshRSS, or any server of the Google Reader API).",
        discussion: """
            With an account, the server fetches the feeds: `sync`, `refresh` and the reader's r \
            and R pull from it and push what you read and starred; `add`, `remove` and `import` \
            change the subscriptions on the server. The password is never stored: a session \
            token is, beside the database, readable only by you, and renewed with one login \
            when the server refuses it (from --password-command, else asked on the terminal).
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Log in to a feed server and sync with it from now on.")

        @OptionGroup var store: StoreOptions
        @Argument(help: "The kind of server: freshrss, or greader for another server of the Google Reader API.")
        var kind: SyncAccount.Kind
        @Argument(help: "The server's address (for FreshRSS, its base address; …/api/greader.php is added).")
        var url: String
        @Option(help: "Your user name on the server.") var user: String
        @Option(name: .customLong("password-command"),
                help: "A command that prints the API password (e.g. `pass show freshrss`); without it, the password is asked.")
        var passwordCommand: String?
        @Flag(help: "Print the first sync's summary as one JSON line.") var json = false

        func validate() throws {
            guard let url = URL(string: url), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("the server's address must be an http or https URL")
            }
            guard !user.isEmpty else { throw ValidationError("--user must not be empty") }
        }

        func run() async throws {
            let outcome = try await reportingFailures("account add") {
                let database = URL(fileURLWithPath: store.path)
                if (try? ReaderSettings.load(from: store.paths().configFile))?.account != nil {
                    throw Failure("the settings file \(store.paths().configFile.path) names an account already ([account])")
                }
                if (try? AccountSync.account(for: database)) != nil {
                    throw Failure("an account is set already; remove it first with `scrollwork account remove`")
                }
                let account = SyncAccount(kind: kind, serverURL: URL(string: url)!, username: user, passwordCommand: passwordCommand)
                let opened = try store.open()
                let sync = AccountSync(account: account, store: opened, database: database, prompting: true)
                // The first sync logs in: a wrong address or password keeps no account.
                try? AccountSync.tokenFile(for: database).save(nil)
                let outcome = await SyncCommand.runOnce(sync, json: json, command: "account add")
                if let failure = outcome.failure, failure.step == .logIn {
                    return outcome
                }
                do {
                    try account.save(to: AccountSync.accountFile(for: database))
                } catch {
                    throw Failure("\(error)")
                }
                if !json { Console.print("syncing with \(user) at \(account.apiURL.absoluteString)") }
                return outcome
            }
            if outcome.failure != nil { throw ExitCode.failure }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the account, its last sync and its queued changes.")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await reportingFailures("account list") {
                let database = URL(fileURLWithPath: store.path)
                let account: SyncAccount?
                do {
                    account = try AccountSync.account(for: database, settings: try ReaderSettings.load(from: store.paths().configFile))
                } catch { throw Failure("\(error)") }
                guard let account else {
                    Console.print("no account: add one with `scrollwork account add freshrss URL --user NAME`")
                    return
                }
                var lines = ["\(account.kind.rawValue) \(account.username) at \(account.apiURL.absoluteString)"]
                if let command = account.passwordCommand { lines.append("  password from: \(command)") }
                lines.append("  session: \(AccountSync.tokenFile(for: database).load() == nil ? "none (the next sync logs in)" : "kept")")
                if FileManager.default.fileExists(atPath: database.path) {
                    let opened = try store.openForReading()
                    let marks = try await opened.syncMarks()
                    let queued = try await opened.queuedStateChanges().count
                    let synced = try await opened.feeds().filter { $0.remoteID != nil }.count
                    lines.append("  last sync: \(marks.itemsPulledUpTo.map { FeedDate.rfc3339($0) } ?? "never")")
                    lines.append("  \(synced) \(synced == 1 ? "feed" : "feeds") from the server, \(queued) \(queued == 1 ? "change" : "changes") waiting to be pushed")
                }
                Console.print(lines.joined(separator: "\n"))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Stop syncing: the account and its session go, its feeds and posts stay here.")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await reportingFailures("account remove") {
                let database = URL(fileURLWithPath: store.path)
                guard (try? AccountSync.account(for: database)) != nil
                    || FileManager.default.fileExists(atPath: AccountSync.accountFile(for: database).path) else {
                    throw Failure("no account to remove")
                }
                do { try AccountSync.tokenFile(for: database).save(nil) } catch { throw Failure("\(error)") }
                if FileManager.default.fileExists(atPath: database.path) {
                    try await store.openExisting().forgetSync()
                }
                try? FileManager.default.removeItem(at: AccountSync.accountFile(for: database))
                Console.print("removed the account; its feeds stay, refreshed from the feeds themselves")
            }
        }
    }
}

extension SyncAccount.Kind: ExpressibleByArgument {}
