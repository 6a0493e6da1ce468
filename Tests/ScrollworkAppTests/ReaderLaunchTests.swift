import Testing

@testable import ScrollworkApp

/// A bare `scrollwork` starts the reader without ArgumentParser: its launch must be the one the
/// parser would have made, and anything on the command line must go to the parser.
@Suite struct ReaderLaunchTests {
    @Test func aBareScrollworkLaunchesWhatTheParserMakesOfNoArguments() throws {
        let parsed = try #require(try ScrollworkCommand.parseAsRoot([]) as? ReadCommand)
        let bare = try #require(ReaderLaunch.bare(arguments: []))
        #expect(bare == parsed.launch)
    }

    @Test(arguments: [["--demo"], ["read"], ["--data-dir", "folder"], ["--help"], ["list"], [""], ["--"]])
    func anyArgumentGoesToTheParser(_ arguments: [String]) {
        #expect(ReaderLaunch.bare(arguments: arguments) == nil)
    }

    @Test func theParsedOptionsMakeTheLaunch() throws {
        let arguments = ["read", "--data-dir", "folder", "--database", "feeds.sqlite", "--config", "settings.toml", "--demo"]
        let parsed = try #require(try ScrollworkCommand.parseAsRoot(arguments) as? ReadCommand)
        #expect(parsed.launch == ReaderLaunch(dataDirectory: "folder", database: "feeds.sqlite", configFile: "settings.toml", demo: true))
    }
}
