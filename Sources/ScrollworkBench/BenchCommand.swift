import ArgumentParser
import CommandLineMain
import Foundation
import ScrollworkReader

/// `scrollwork-bench` (also run as `scrollwork bench`): measures Scrollwork against the
/// alternatives in the same run. It is an executable of its own so that the shipped reader
/// carries none of the benchmarks, the simulation or the fixtures; the cases that launch the
/// reader as a whole process run the `scrollwork` beside it.
package struct BenchCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "scrollwork-bench",
        abstract: "Measure Scrollwork against the alternatives on the same data, in the same run.",
        discussion: """
            Build in release mode for meaningful figures: `swift build -c release`, then \
            `.build/release/scrollwork bench diff` (or `scrollwork-bench diff`). The cases that \
            launch the reader run the `scrollwork` built beside this executable. \
            Timings on shared machines are noisy: read the ratios and medians, not a lone time.
            """,
        subcommands: [DiffBench.self, DecodeBench.self, LoaderBench.self, FeedBench.self, ScrollBench.self, TerminalBench.self, UIBench.self, SyncBench.self, SearchBench.self]
    )

    package init() {}

    /// Parses the process's arguments, runs the benchmark and exits, as `scrollwork` does (see
    /// `runAsMainExitingTwoOnBadUsage`): the allocator's arenas are capped as the reader's
    /// are, so that what `bench ui` measures of the reader in this process holds as much as
    /// the reader does.
    @MainActor
    package static func runAsMain() async -> Never {
        await runAsMainExitingTwoOnBadUsage()
    }
}

/// Options every benchmark takes.
struct BenchOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object per case instead of a table.")
    var json = false
}
