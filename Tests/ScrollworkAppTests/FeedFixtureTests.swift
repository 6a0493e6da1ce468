import Feeds
import Testing
@testable import ScrollworkApp
@testable import ScrollworkBench

/// The benchmark's feeds must be what they claim: a parse that recovers from an error measures
/// the recovery, not the parser.
@Suite struct FeedFixtureTests {
    @Test(arguments: FeedFixture.Format.allCases)
    func generatedFeedsAreWellFormed(format: FeedFixture.Format) throws {
        var parser = FeedParser()
        var entries = Array(try parser.consume(FeedFixture.make(format, entries: 200)).joined())
        let end = try parser.finish()
        entries += end.entries
        #expect(!end.isMalformed)
        #expect(entries.count == 200)
        #expect(entries.contains { $0.categories.contains("Food & Drink") })
    }
}
