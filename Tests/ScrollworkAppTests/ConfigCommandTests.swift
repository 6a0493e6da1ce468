import Foundation
import ScrollworkTestSupport
import Testing
@testable import ScrollworkApp
@testable import ScrollworkReader

/// `scrollwork config`, `--data-dir` and a bad settings file, end to end on the built binary,
/// in an environment of the test's own (no `HOME` of the person running the tests).
@Suite struct ConfigCommandTests {
    private let scratch = ScratchDirectory("scrollwork-config")

    private var environment: [String: String] {
        ["HOME": scratch.path("home").path, "PATH": "/usr/bin:/bin"]
    }

    private func scrollwork(_ arguments: [String]) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run("scrollwork", arguments, environment: environment)
    }

    @Test func listUsesTheDataDirectoryAndCreatesNothingThere() throws {
        let data = scratch.path("data")
        let empty = try scrollwork(["list", "--data-dir", data.path])
        #expect(empty.status == 1)
        #expect(empty.error.contains("no database at \(data.path)/scrollwork.sqlite"), "\(empty.error)")
        #expect(empty.error.contains("scrollwork add URL"))
        #expect(!FileManager.default.fileExists(atPath: data.path))

        let feed = try scratch.file(
            #"<rss version="2.0"><channel><title>Mine</title><item><guid>1</guid><title>Kept in the data dir</title></item></channel></rss>"#,
            suffix: "xml")
        #expect(try scrollwork(["add", feed.path, "--data-dir", data.path]).status == 0)
        #expect(try scrollwork(["refresh", "--data-dir", data.path]).status == 0)
        let listed = try scrollwork(["list", "--data-dir", data.path])
        #expect(listed.status == 0, "\(listed.error)")
        #expect(listed.output.contains("Kept in the data dir"))
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("scrollwork.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("home/.local").path), "the default data directory was used")
    }

    @Test func configShowsThePathsAndTheSettingsInForce() throws {
        let result = try scrollwork(["config", "--data-dir", scratch.path("data").path])
        #expect(result.status == 0, "\(result.error)")
        let home = scratch.path("home").path
        #expect(result.output.contains("settings: \(home)/.config/scrollwork/config.toml (no such file; the defaults apply)"))
        #expect(result.output.contains("database: \(scratch.path("data").path)/scrollwork.sqlite"))
        #expect(result.output.contains("image cache: \(scratch.path("data").path)/images"))
        let settings = try #require(result.output.range(of: "# The settings in force\n"))
        #expect(try ReaderSettings(toml: String(result.output[settings.upperBound...]), file: "output") == .defaults)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("data").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("home/.config").path))
    }

    @Test func exampleIsAValidSettingsFile() throws {
        let result = try scrollwork(["config", "--example"])
        #expect(result.status == 0)
        #expect(result.output == ReaderSettings.example)
        let file = try scratch.file(result.output, named: "example.toml")
        let checked = try scrollwork(["config", "--check", "--config", file.path])
        #expect(checked.status == 0)
        #expect(checked.output == "\(file.path): ok\n")
        let missing = scratch.path("none.toml").path
        let none = try scrollwork(["config", "--check", "--config", missing])
        #expect(none.status == 0)
        #expect(none.output == "\(missing): no such file; the defaults apply\n")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func aBadSettingsFileIsNamedWithItsLineAndExitsOne() throws {
        let file = try scratch.file("refresh_interval = 30\n\n[keys]\nrefresh_al = \"R\"\n", named: "bad.toml")
        let expected = "scrollwork config: \(file.path):4: keys.refresh_al is not an action (did you mean refresh_all?)"
        let checked = try scrollwork(["config", "--check", "--config", file.path])
        #expect(checked.status == 1)
        #expect(checked.output.isEmpty)
        #expect(checked.error.hasPrefix(expected), "\(checked.error)")
        // The reader says so before it looks for a terminal.
        let read = try scrollwork(["read", "--config", file.path, "--data-dir", scratch.path("data").path])
        #expect(read.status == 1)
        #expect(read.error.hasPrefix(expected.replacingOccurrences(of: "scrollwork config:", with: "scrollwork read:")), "\(read.error)")
        #expect(!read.error.contains("needs a terminal"))
    }

    @Test func aHeaderOf100000DottedPartsIsAClearErrorEverywhereTheSettingsAreRead() throws {
        let file = try scratch.file("# deep\n[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]\n", named: "deep.toml")
        let expected = "\(file.path):2: not read: nested more than \(TOMLDocument.Limits.maxDepth) levels deep"
        for arguments in [["config", "--check"], ["config"], ["read", "--data-dir", scratch.path("data").path]] {
            let result = try scrollwork(arguments + ["--config", file.path])
            #expect(result.status == 1, "\(arguments): \(result.error)")
            #expect(result.error.hasPrefix("scrollwork \(arguments[0]): \(expected)"), "\(arguments): \(result.error)")
        }
    }

    @Test func aFileOfTwoMillionKeysIsRefusedForItsSize() throws {
        let keys = (0..<2_000_000).map { "k\($0) = 1\n" }.joined()
        let file = try scratch.file(keys, named: "huge.toml")
        let checked = try scrollwork(["config", "--check", "--config", file.path])
        #expect(checked.status == 1)
        #expect(checked.error == "scrollwork config: \(file.path): not read: it is \(keys.utf8.count) bytes, and a settings file may be at most 1048576 (1 MiB)\n")
    }

    @Test func aFileThatNeverEndsIsRefusedAtTheLimitNotBlamedOnPermissions() throws {
        let checked = try scrollwork(["config", "--check", "--config", "/dev/zero"])

        #expect(checked.status == 1)
        #expect(checked.error == "scrollwork config: /dev/zero: not read: it goes on past 1048576 bytes, and a settings file may be at most 1048576 (1 MiB)\n")
    }
}
