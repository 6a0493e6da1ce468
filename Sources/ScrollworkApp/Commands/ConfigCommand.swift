import ArgumentParser
import Foundation
import ScrollworkReader
import TerminalUI

/// The `--config` option of the commands that read the reader's settings.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "The settings file.",
            discussion: "Default: $XDG_CONFIG_HOME/scrollwork/config.toml, else ~/.config/scrollwork/config.toml.",
            valueName: "path"))
    var file: String?
}

/// `scrollwork config`: where the reader's files are and which settings are in force;
/// `--example` prints a commented settings file, `--check` checks one.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show where the reader's files are and the settings in force.",
        discussion: """
            Prints the settings file's path and whether it exists, the data directory, the \
            database and the image cache, then the settings in force as TOML. --example prints \
            a settings file with every setting at its default and explained; --check only \
            checks the settings file. A settings file with a mistake is named with the line \
            and what is wrong, and exits with status 1. A missing file means the defaults.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var config: ConfigOptions
    @Flag(help: "Print an example settings file, every setting explained.") var example = false
    @Flag(help: "Check the settings file; exit status 1 if it has a mistake.") var check = false

    func validate() throws {
        guard !(example && check) else { throw ValidationError("--example and --check do not go together") }
    }

    func run() async throws {
        if example {
            Console.print(ReaderSettings.example, terminator: "")
            return
        }
        let paths = store.paths(configFile: config.file)
        let exists = FileManager.default.fileExists(atPath: paths.configFile.path)
        try await reportingFailures("config") {
            if check {
                _ = try ReaderSettings.load(from: paths.configFile)
                Console.print(exists ? "\(paths.configFile.path): ok" : "\(paths.configFile.path): no such file; the defaults apply")
                return
            }
            Console.print("settings: \(paths.configFile.path)\(exists ? "" : " (no such file; the defaults apply)")")
            Console.print("data: \(paths.dataDirectory.path)")
            Console.print("database: \(paths.database.path)")
            Console.print("image cache: \(paths.imageCache.path)")
            let (found, reason) = Self.terminalGraphics()
            Console.print("terminal graphics: \(found.rawValue) (\(reason))")
            let settings = try ReaderSettings.load(from: paths.configFile)
            Console.print("")
            Console.print("# The settings in force")
            Console.print(settings.toml(explained: false), terminator: "")
        }
    }

    /// The picture protocol this terminal has, and what decided it: its answers to the
    /// capability queries (at most 150 ms, raw input only, the screen left alone), else the
    /// environment. Not a terminal: nothing is asked.
    static func terminalGraphics() -> (PictureProtocol, reason: String) {
        let (found, reason, _) = askTerminal()
        return (found, reason)
    }

    /// What ``terminalGraphics()`` finds, with the cell size in pixels the terminal said (or
    /// the kernel knows), if any.
    static func askTerminal() -> (PictureProtocol, reason: String, cellPixels: CellPixelSize?) {
        let environment = ProcessInfo.processInfo.environment
        guard let session = TerminalSession(modes: []) else {
            let (found, reason) = PictureProtocol.detect(TerminalCapabilities(), environment: environment)
            return (found, reason + "; standard input and output are not both a terminal, so it was not asked", nil)
        }
        let (throughTmux, insideTmux) = (TmuxPassthrough.mayAsk(environment: environment), environment["TMUX"] != nil)
        guard let capabilities = try? session.run({ session.queryCapabilities(throughTmux: throughTmux, insideTmux: insideTmux) }) else {
            let (found, reason) = PictureProtocol.detect(TerminalCapabilities(), environment: environment)
            return (found, reason, nil)
        }
        let (found, reason) = PictureProtocol.detect(capabilities, environment: environment)
        return (found, reason, capabilities.cellPixelSize)
    }
}
