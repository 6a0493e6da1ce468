import ArgumentParser

/// The `scrollwork` command line: the reader's entry point and its tools.
public struct ScrollworkCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scrollwork",
        abstract: "Scrollwork: an engine for long scrolling lists of remote content, and its terminal feed reader.",
        discussion: """
            The terminal reader is not built yet. Today the commands are the engines' tools:
            `diff` computes animated batch updates between two list snapshots, and `bench`
            measures the engines against the alternatives on the same data.
            """,
        subcommands: [BenchCommand.self, ThumbnailCommand.self]
    )

    public init() {}
}
