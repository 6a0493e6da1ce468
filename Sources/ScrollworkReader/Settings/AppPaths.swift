import Foundation

/// Where the reader keeps its files, following the XDG base directories.
///
/// - The data directory: `--data-dir DIR`, else `$XDG_DATA_HOME/scrollwork`, else
///   `~/.local/share/scrollwork`. It holds the database (`scrollwork.sqlite`) and the image
///   cache (`images/`).
/// - The database: `--database PATH`, else inside `--data-dir` when one is given, else
///   `$SCROLLWORK_DATABASE`, else inside the data directory. A flag beats an environment
///   variable, so `--data-dir` really puts everything elsewhere (the demo and the tests rely
///   on that).
/// - The settings file: `--config PATH`, else `$XDG_CONFIG_HOME/scrollwork/config.toml`,
///   else `~/.config/scrollwork/config.toml`.
///
/// XDG variables count only when set to an absolute path, as the XDG specification says;
/// an empty or relative one is ignored. Nothing here touches the file system: paths are only
/// computed, so commands that only read create nothing.
package struct AppPaths: Sendable, Equatable {
    /// The directory of the database and the image cache.
    package var dataDirectory: URL
    /// The SQLite database of feeds and entries.
    package var database: URL
    /// The directory of the disk cache of pictures (ContentLoading's disk cache).
    package var imageCache: URL
    /// The settings file; it need not exist.
    package var configFile: URL

    /// The environment variables the paths are made of: an environment of these alone gives
    /// the same paths as the whole.
    package static let environmentVariables = ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "SCROLLWORK_DATABASE"]

    /// The paths for the given flags and environment.
    ///
    /// - Parameters:
    ///   - dataDirectory: `--data-dir`, if given.
    ///   - database: `--database`, if given.
    ///   - configFile: `--config`, if given.
    ///   - environment: The environment to read `XDG_DATA_HOME`, `XDG_CONFIG_HOME`,
    ///     `SCROLLWORK_DATABASE` and `HOME` from.
    ///   - homeDirectory: The home directory when `HOME` is not set (the account's).
    ///
    /// Relative paths given as flags are relative to the current directory.
    package init(
        dataDirectory: String? = nil, database: String? = nil, configFile: String? = nil,
        environment: [String: String], homeDirectory: @autoclosure () -> URL = FileManager.default.homeDirectoryForCurrentUser
    ) {
        let home = Self.nonEmpty(environment["HOME"]).map { URL(fileURLWithPath: $0, isDirectory: true) } ?? homeDirectory()
        let dataFlag = Self.nonEmpty(dataDirectory).map { URL(fileURLWithPath: $0, isDirectory: true) }
        self.dataDirectory = dataFlag
            ?? Self.absolute(environment["XDG_DATA_HOME"]).map { $0.appendingPathComponent("scrollwork", isDirectory: true) }
            ?? home.appendingPathComponent(".local/share/scrollwork", isDirectory: true)
        let databaseInData = self.dataDirectory.appendingPathComponent("scrollwork.sqlite")
        if let database = Self.nonEmpty(database) {
            self.database = URL(fileURLWithPath: database)
        } else if dataFlag != nil {
            self.database = databaseInData
        } else {
            self.database = Self.nonEmpty(environment["SCROLLWORK_DATABASE"]).map { URL(fileURLWithPath: $0) } ?? databaseInData
        }
        imageCache = self.dataDirectory.appendingPathComponent("images", isDirectory: true)
        self.configFile = Self.nonEmpty(configFile).map { URL(fileURLWithPath: $0) }
            ?? (Self.absolute(environment["XDG_CONFIG_HOME"]) ?? home.appendingPathComponent(".config", isDirectory: true))
                .appendingPathComponent("scrollwork/config.toml")
    }

    private static func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func absolute(_ value: String?) -> URL? {
        nonEmpty(value).flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
    }
}
