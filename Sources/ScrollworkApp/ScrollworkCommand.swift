import ArgumentParser
import CommandLineMain
import Foundation
import ScrollworkReader

/// The `scrollwork` command line: the reader's entry point and its tools.
public struct ScrollworkCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scrollwork",
        abstract: "Scrollwork: an engine for long scrolling lists of remote content, and its terminal feed reader.",
        discussion: """
            With no command, `scrollwork` opens the terminal reader (`read`): the embedded demo \
            when there are no subscriptions. The other commands manage subscriptions and entries, \
            show the reader's files and settings (`config`), and are the engines' tools: `diff` \
            computes animated batch updates between two list snapshots, `thumbnail` decodes \
            and downsamples a PNG or JPEG, `view` prints PNG and JPEG files as pictures in the \
            terminal, `parse` reads RSS, Atom and JSON Feed files, and `bench` \
            measures the engines against the alternatives on the same data.

            Exit status: 0 on success, 1 when the work fails (a feed, the network, a file that \
            cannot be decoded), 2 on bad usage or malformed input.
            """,
        subcommands: [
            ReadCommand.self, AddCommand.self, RemoveCommand.self, ImportCommand.self, ExportCommand.self, RefreshCommand.self,
            SyncCommand.self, AccountCommand.self, ListCommand.self, SearchCommand.self, ConfigCommand.self, ParseCommand.self, DiffCommand.self, ThumbnailCommand.self, ViewCommand.self, BenchLauncher.self,
        ],
        defaultSubcommand: ReadCommand.self
    )

    public init() {}

    /// Parses the process's arguments, runs the command and exits (see
    /// `runAsMainExitingTwoOnBadUsage`); a bare `scrollwork` starts the reader without the
    /// parser (see ``ReaderLaunch``).
    @MainActor
    public static func runAsMain() async -> Never {
        await runAsMainExitingTwoOnBadUsage {
            guard let launch = ReaderLaunch.bare(arguments: Array(CommandLine.arguments.dropFirst())) else { return false }
            try await launch.run()
            return true
        }
    }
}
