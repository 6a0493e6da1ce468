import ArgumentParser
import Foundation
import ImageFixtures
import ScrollworkTestSupport
import Testing
import Thumbnails
@testable import ScrollworkApp
@testable import ScrollworkBench

/// `bench decode --file` and `bench feed --file`: the user's own files, one row each.
@Suite struct BenchFileTests {
    let scratch = ScratchDirectory("scrollwork-bench-file")

    @Test func decodeReportsTheThumbnailOfEachFile() throws {
        let png = scratch.path("photo.png")
        try Data(PNGFixture.encode(rgb: PhotoPattern.pixels(width: 300, height: 200), width: 300, height: 200)).write(to: png)

        let row = try DecodeBench.measure(file: png.path, size: 60, runs: 1)

        #expect(row.count == DecodeBench.fileColumns.count)
        #expect(row[0] == .text(png.path))
        #expect(Array(row[2...3]) == [.number(60), .number(40)])
        guard case .number(let milliseconds) = row[4] else { Issue.record("no time: \(row)"); return }
        #expect(milliseconds > 0)
        // Pillow was not asked for.
        #expect(Array(row[5...6]) == [.missing, .missing])
    }

    @Test func decodeNamesTheInflateOfEachPNGRowAndNoneForAJPEG() throws {
        let png = scratch.path("photo.png")
        let jpeg = scratch.path("photo.jpeg")
        let pixels = PhotoPattern.pixels(width: 64, height: 48)
        try Data(PNGFixture.encode(rgb: pixels, width: 64, height: 48)).write(to: png)
        try Data(JPEGFixture.encode(pixels: pixels, width: 64, height: 48, quality: 80)).write(to: jpeg)

        let zlib = try DecodeBench.measure(file: png.path, size: 32, runs: 1, inflate: .zlib)
        let fastest = try DecodeBench.measure(file: png.path, size: 32, runs: 1, inflate: .fastest)
        let photo = try DecodeBench.measure(file: jpeg.path, size: 32, runs: 1)

        #expect(zlib[1] == .text(ThumbnailDecoder.Inflate.zlib.library))
        guard case .text(let library) = zlib[1] else { return }
        #expect(library.hasPrefix("zlib "))
        #expect(fastest[1] == .text(ThumbnailDecoder.Inflate.fastest.library))
        #expect(photo[1] == .missing)
    }

    @Test func decodeTakesAnInflateAndPillow() throws {
        let command = try #require(try DecodeBench.parseAsRoot(["--file", "a.png", "--inflate", "both", "--pillow"]) as? DecodeBench)

        #expect(command.inflate.choices == [.fastest, .zlib])
        #expect(command.pillow)
        #expect(throws: (any Error).self) { try DecodeBench.parseAsRoot(["--inflate", "libdeflate"]) }
    }

    @Test func pillowThatCannotReadAFileSaysSo() {
        // Whether or not this machine has Pillow, the failure is named, never a number.
        #expect {
            try PythonPeer.pillowThumbnail(file: scratch.path("missing.png").path, size: 64, runs: 1)
        } throws: { error in
            String(describing: error).hasPrefix("pillow failed: ") || String(describing: error).hasPrefix("timing pillow needs python3")
        }
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

/// `bench feed`'s `ingest-process-N`: whole processes of the built `scrollwork`, each round
/// from an empty data folder.
@Suite struct ProcessIngestBenchTests {
    /// A program measured reports its own peak memory, not this process's: spawned from this
    /// process, a child counted this process's resident memory in its own (`ru_maxrss`), and a
    /// benchmark holding 120 MB measured every child at 120 MB.
    @Test func aChildsPeakMemoryIsItsOwnNotThatOfTheProcessThatStartedIt() throws {
        let ballast = UnsafeMutableRawBufferPointer.allocate(byteCount: 200 << 20, alignment: 4096)
        defer { ballast.deallocate() }
        for offset in stride(from: 0, to: ballast.count, by: 4096) { ballast[offset] = 1 }
        let child = try MeasuredChild.run("/bin/sh", ["-c", "exit 3"], environment: [:])
        #expect(child.status >> 8 == 3)
        #expect(child.peakBytes > 0 && child.peakBytes < 50 << 20, "\(child.peakBytes) bytes")
        #expect(child.milliseconds > 0)
    }

    @Test func reportsTheFreshAndTheUnchangedIngestOfTheBuiltExecutable() throws {
        let scrollwork = try BuiltExecutable.url(named: "scrollwork").path

        let row = try ProcessIngestBench.measure(entries: 20, rounds: 2, scrollwork: scrollwork, newsboat: nil)

        #expect(row.count == ProcessIngestBench.columns.count)
        #expect(Array(row[0...1]) == [.text("ingest-process-20"), .number(2)])
        for value in row[2...3] {
            guard case .number(let milliseconds) = value else { Issue.record("no time: \(row)"); continue }
            #expect(milliseconds > 0)
        }
        // Without newsboat, its figures and the ratios are missing, not made up.
        #expect(Array(row[4...7]) == [.missing, .missing, .missing, .missing])
        guard case .number(let peak) = row[8] else { Issue.record("no peak memory: \(row)"); return }
        #expect(peak > 1, "the peak of a whole process, in MB")
        #expect(row[9] == .missing)
    }

    @Test func aProgramThatFailsIsNamed() {
        #expect {
            _ = try ProcessIngestBench.measure(entries: 5, rounds: 1, scrollwork: "/bin/false", newsboat: nil)
        } throws: { error in
            String(describing: error).contains("false add") && String(describing: error).contains("status 1")
        }
    }
}
