import ArgumentParser

/// Where the reader's files live, for every command that uses them: the database, and for
/// the reader the image cache (see ``AppPaths``).
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The directory of the database and the image cache.",
            discussion: "Default: $XDG_DATA_HOME/scrollwork, else ~/.local/share/scrollwork.",
            valueName: "dir"))
    var dataDirectory: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The SQLite database of feeds and entries.",
            discussion: "Default: scrollwork.sqlite in --data-dir when given, else $SCROLLWORK_DATABASE, else scrollwork.sqlite in the data directory."))
    var database: String?
}

extension StoreOptions: StoreLocating {}
