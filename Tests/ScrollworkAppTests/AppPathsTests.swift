import Foundation
import Testing
@testable import ScrollworkApp
@testable import ScrollworkReader

/// Where the reader's files go, from flags and an injected environment.
@Suite struct AppPathsTests {
    private func paths(_ arguments: [String] = [], config: String? = nil, _ environment: [String: String] = [:]) throws -> AppPaths {
        try StoreOptions.parse(arguments).paths(configFile: config, environment: ["HOME": "/home/ada"].merging(environment) { $1 })
    }

    @Test func defaultsFollowTheHomeDirectory() throws {
        let paths = try paths()
        #expect(paths.dataDirectory.path == "/home/ada/.local/share/scrollwork")
        #expect(paths.database.path == "/home/ada/.local/share/scrollwork/scrollwork.sqlite")
        #expect(paths.imageCache.path == "/home/ada/.local/share/scrollwork/images")
        #expect(paths.configFile.path == "/home/ada/.config/scrollwork/config.toml")
    }

    /// The reader computes its paths from these variables alone, before reading the whole
    /// environment: no other variable may change them.
    @Test func theListedVariablesAloneGiveThePaths() {
        let candidates = ["HOME": ["/home/ada", ""], "XDG_DATA_HOME": ["/xdg/data", "rel", ""], "XDG_CONFIG_HOME": ["/xdg/config", ""],
                          "SCROLLWORK_DATABASE": ["/db/feeds.sqlite", ""], "XDG_CACHE_HOME": ["/xdg/cache"], "XDG_STATE_HOME": ["/xdg/state"],
                          "SCROLLWORK_DATA_DIR": ["/elsewhere"], "SCROLLWORK_CONFIG": ["/elsewhere/config.toml"], "TMPDIR": ["/tmp/x"], "PWD": ["/work"]]
        var environments: [[String: String]] = [[:]]
        for (name, values) in candidates.sorted(by: { $0.key < $1.key }) {
            environments = environments.flatMap { environment in [environment] + values.map { environment.merging([name: $0]) { $1 } } }
        }
        for environment in environments {
            let listed = environment.filter { AppPaths.environmentVariables.contains($0.key) }
            for flags in [(nil, nil), ("/flag/data", nil), (nil, "/flag/db.sqlite")] as [(String?, String?)] {
                let whole = AppPaths(dataDirectory: flags.0, database: flags.1, environment: environment, homeDirectory: URL(fileURLWithPath: "/account"))
                let alone = AppPaths(dataDirectory: flags.0, database: flags.1, environment: listed, homeDirectory: URL(fileURLWithPath: "/account"))
                #expect(whole == alone, "\(environment)")
            }
        }
    }

    @Test func absoluteXDGDirectoriesAreUsed() throws {
        let paths = try paths([], ["XDG_DATA_HOME": "/xdg/data", "XDG_CONFIG_HOME": "/xdg/config"])
        #expect(paths.dataDirectory.path == "/xdg/data/scrollwork")
        #expect(paths.database.path == "/xdg/data/scrollwork/scrollwork.sqlite")
        #expect(paths.imageCache.path == "/xdg/data/scrollwork/images")
        #expect(paths.configFile.path == "/xdg/config/scrollwork/config.toml")
    }

    @Test func emptyOrRelativeXDGDirectoriesAreIgnored() throws {
        for value in ["", "relative/dir"] {
            let paths = try paths([], ["XDG_DATA_HOME": value, "XDG_CONFIG_HOME": value])
            #expect(paths.dataDirectory.path == "/home/ada/.local/share/scrollwork", "\(value)")
            #expect(paths.configFile.path == "/home/ada/.config/scrollwork/config.toml", "\(value)")
        }
    }

    @Test func dataDirectoryFlagHoldsTheDatabaseAndTheImages() throws {
        let paths = try paths(["--data-dir", "/tmp/elsewhere"], ["XDG_DATA_HOME": "/xdg/data", "SCROLLWORK_DATABASE": "/env/db.sqlite"])
        #expect(paths.dataDirectory.path == "/tmp/elsewhere")
        #expect(paths.database.path == "/tmp/elsewhere/scrollwork.sqlite")
        #expect(paths.imageCache.path == "/tmp/elsewhere/images")
    }

    @Test func databaseFlagAndVariableMoveOnlyTheDatabase() throws {
        let flagged = try paths(["--database", "/db/mine.sqlite", "--data-dir", "/tmp/elsewhere"])
        #expect(flagged.database.path == "/db/mine.sqlite")
        #expect(flagged.imageCache.path == "/tmp/elsewhere/images")
        let variable = try paths([], ["SCROLLWORK_DATABASE": "/env/db.sqlite", "XDG_DATA_HOME": "/xdg/data"])
        #expect(variable.database.path == "/env/db.sqlite")
        #expect(variable.imageCache.path == "/xdg/data/scrollwork/images")
        let empty = try paths([], ["SCROLLWORK_DATABASE": ""])
        #expect(empty.database.path == "/home/ada/.local/share/scrollwork/scrollwork.sqlite")
    }

    @Test func configFlagNamesTheSettingsFile() throws {
        let paths = try paths([], config: "/etc/scrollwork.toml", ["XDG_CONFIG_HOME": "/xdg/config"])
        #expect(paths.configFile.path == "/etc/scrollwork.toml")
    }

    @Test func withoutHOMETheAccountsHomeDirectoryIsUsed() {
        let paths = AppPaths(environment: [:], homeDirectory: URL(fileURLWithPath: "/var/lib/someone", isDirectory: true))
        #expect(paths.dataDirectory.path == "/var/lib/someone/.local/share/scrollwork")
        #expect(paths.configFile.path == "/var/lib/someone/.config/scrollwork/config.toml")
    }

    @Test func relativeFlagsAreRelativeToTheCurrentDirectory() throws {
        let paths = try paths(["--data-dir", "data"], config: "my.toml")
        let current = FileManager.default.currentDirectoryPath
        #expect(paths.database.path == current + "/data/scrollwork.sqlite")
        #expect(paths.configFile.path == current + "/my.toml")
    }
}
