import ArgumentParser

/// `scrollwork bench`: measures Scrollwork against the alternatives in the same run.
package struct BenchCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Scrollwork against the alternatives on the same data, in the same run.",
        discussion: """
            Build in release mode for meaningful figures: `swift run -c release scrollwork bench diff`.
            Timings on shared machines are noisy: read the ratios and medians, not a lone time.
            """,
        subcommands: [DiffBench.self, DecodeBench.self, LoaderBench.self, FeedBench.self, ScrollBench.self, TerminalBench.self, UIBench.self, SyncBench.self, SearchBench.self]
    )

    package init() {}
}

/// Options every benchmark takes.
struct BenchOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON object per case instead of a table.")
    var json = false
}
