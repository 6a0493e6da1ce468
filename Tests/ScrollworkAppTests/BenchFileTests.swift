import ArgumentParser
import Foundation
import ImageFixtures
import ScrollworkTestSupport
import Testing
@testable import ScrollworkApp

/// `bench decode --file` and `bench feed --file`: the user's own files, one row each.
@Suite struct BenchFileTests {
    let scratch = ScratchDirectory("scrollwork-bench-file")

    @Test func decodeReportsTheThumbnailOfEachFile() throws {
        let png = scratch.path("photo.png")
        try Data(PNGFixture.encode(rgb: PhotoPattern.pixels(width: 300, height: 200), width: 300, height: 200)).write(to: png)

        let row = try DecodeBench.measure(file: png.path, size: 60, runs: 1)

        #expect(Array(row.prefix(4).dropLast()) == [.text(png.path), .number(60), .number(40)])
        guard case .number(let milliseconds) = row[3] else { Issue.record("no time: \(row)"); return }
        #expect(milliseconds > 0)
    }

    @Test func decodeTakesSeveralFilesAndASize() throws {
        let command = try #require(try DecodeBench.parseAsRoot(["--file", "a.png", "b.jpeg", "--size", "64", "--json"]) as? DecodeBench)

        #expect(command.files == ["a.png", "b.jpeg"])
        #expect(command.size == 64)
        #expect(command.options.json)
    }

    @Test func decodeNamesTheFileItCannotRead() {
        let missing = scratch.path("missing.png").path

        #expect {
            try DecodeBench.measure(file: missing, size: 128, runs: 1)
        } throws: { error in
            String(describing: error).hasPrefix("\(missing): ")
        }
    }

    @Test func feedCountsTheEntriesOfEachFile() throws {
        let feed = scratch.path("feed.xml")
        try Data(FeedFixture.make(.rss, entries: 50)).write(to: feed)

        let row = try FeedBench.measure(file: feed.path, runs: 1)

        #expect(Array(row.prefix(2)) == [.text(feed.path), .number(50)])
        #expect(row.count == 4)
    }
}
