import Feeds
import FeedSync
import Foundation
import HTTPLoading

/// The account's server, synced: where the account and its session token are kept beside the
/// database, and a ``SyncRuntime`` for them, for the commands and the reader alike.
package struct AccountSync: Sendable {
    /// The account.
    package let account: SyncAccount
    /// The runtime that syncs it into the store.
    package let runtime: SyncRuntime
    private let loader: HTTPDataLoader

    /// Where an account is kept for the database at `database`: `NAME-account.json` beside
    /// `NAME.sqlite`, so that an account belongs to one database (its queue and its feeds'
    /// server ids live there).
    package static func accountFile(for database: URL) -> URL {
        database.deletingPathExtension().appendingPathExtension("account.json")
    }

    /// Where the account's session token is kept (mode 0600): `NAME.account-token`.
    package static func tokenFile(for database: URL) -> SyncTokenFile {
        SyncTokenFile(url: database.deletingPathExtension().appendingPathExtension("account-token"))
    }

    /// The account in force for `database`: the settings file's, else the one kept beside the
    /// database, else `nil`.
    package static func account(for database: URL, settings: ReaderSettings? = nil) throws(SyncAccountError) -> SyncAccount? {
        if let account = settings?.account { return account }
        return try SyncAccount.load(from: accountFile(for: database))
    }

    /// A sync of `account` into `store` (whose file is `database`).
    ///
    /// - Parameter prompting: whether a password may be asked on the terminal when the
    ///   account has no password command (not in the reader, whose screen the terminal is).
    package init(account: SyncAccount, store: FeedStore, database: URL, prompting: Bool) {
        self.account = account
        loader = HTTPDataLoader(configuration: .sync)
        let command = account.passwordCommand
        runtime = SyncRuntime(
            account: account, store: store, tokens: Self.tokenFile(for: database), loader: loader,
            password: { PasswordSource.password(command: command, prompting: prompting, for: account) })
    }

    /// Syncs once (see ``SyncRuntime/sync(edits:refreshingSubscriptions:progress:)``).
    package func sync(edits: [SubscriptionEdit] = [], refreshingSubscriptions: Bool = false,
                      progress: @Sendable (SyncRuntime.Progress) -> Void = { _ in }) async -> SyncRuntime.Outcome {
        await runtime.sync(edits: edits, refreshingSubscriptions: refreshingSubscriptions, progress: progress)
    }

    /// Closes the HTTP client; call once done.
    package func shutdown() async {
        try? await loader.shutdown()
    }
}
