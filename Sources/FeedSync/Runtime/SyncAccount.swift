import Foundation

/// The feed server an account syncs with: where it is, who the user is, and how to get the
/// password when a login is needed. No password is ever kept: only a command that prints it.
public struct SyncAccount: Sendable, Hashable, Codable {
    /// The kinds of server Scrollwork syncs with.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// FreshRSS, over its Google Reader API (`…/api/greader.php`).
        case freshrss
        /// Any server of the Google Reader API (Miniflux, The Old Reader, BazQux, Inoreader),
        /// at the address given.
        case greader

        /// The server's API.
        public var api: any SyncServerAPI { GoogleReaderAPI() }
    }

    /// The kind of server.
    public var kind: Kind
    /// The server's address, as the user gave it.
    public var serverURL: URL
    /// The user's name on the server.
    public var username: String
    /// A shell command that prints the password (`pass show freshrss`), run when a login is
    /// needed; without one, the password is asked on the terminal.
    public var passwordCommand: String?

    /// An account.
    public init(kind: Kind, serverURL: URL, username: String, passwordCommand: String? = nil) {
        self.kind = kind
        self.serverURL = serverURL
        self.username = username
        self.passwordCommand = passwordCommand
    }

    /// Where the API answers: for FreshRSS, its `api/greader.php` below the address given,
    /// unless the address names it already; for the others, the address itself.
    public var apiURL: URL {
        guard kind == .freshrss, !serverURL.path.hasSuffix("greader.php") else { return serverURL }
        var text = serverURL.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        return URL(string: text + "api/greader.php") ?? serverURL
    }

    /// The account kept in `file`, or `nil` when there is none.
    ///
    /// - Throws: ``SyncAccountError`` when the file cannot be read or is not an account.
    public static func load(from file: URL) throws(SyncAccountError) -> SyncAccount? {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw SyncAccountError(description: "cannot read \(file.path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(SyncAccount.self, from: data)
        } catch {
            throw SyncAccountError(description: "\(file.path) is not an account file; remove it with `scrollwork account remove`")
        }
    }

    /// Keeps the account in `file`, replacing it whole (written beside it, then renamed).
    public func save(to file: URL) throws(SyncAccountError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(self).write(to: file, options: .atomic)
        } catch {
            throw SyncAccountError(description: "cannot write \(file.path): \(error.localizedDescription)")
        }
    }
}

/// Why an account or its token could not be read or written.
public struct SyncAccountError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    /// An error that says `description`.
    public init(description: String) {
        self.description = description
    }
}

/// Why no password could be had.
public struct SyncPasswordError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    /// An error that says `description`, which must hold no secret.
    public init(description: String) {
        self.description = description
    }
}
