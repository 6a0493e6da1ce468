import Feeds
import Foundation
import ImageFixtures
import ScrollworkTestSupport
import Testing
import Thumbnails
@testable import ScrollworkApp
@testable import ScrollworkBench
@testable import ScrollworkReader

/// Files whose cost is what they declare, not what they are: the memory a command spends on
/// them is bounded by what it keeps.
@Suite(.serialized) struct HostileFileTests {
    let scratch = ScratchDirectory("scrollwork-hostile-files")

    /// A sparse file of `size` bytes, which takes no disk space and no memory until read.
    func sparseFile(_ name: String, size: Int, startingWith start: [UInt8] = []) throws -> String {
        let path = scratch.path(name).path
        try Data(start).write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, off_t(size)) == 0)
        return path
    }

    @Test func aGigabyteFeedIsRefusedByItsSizeBeforeItIsRead() throws {
        let path = try sparseFile("huge.xml", size: 1 << 30, startingWith: Array("<rss version=\"2.0\"><channel>".utf8))

        let (outcome, peak) = PeakMemory.measure { ParseCommand.parse(path, with: FeedDocumentParser()) }

        guard case .failed(let reason) = outcome else { Issue.record("parsed a 1 GB file"); return }
        #expect(reason.contains("over the limit of \(FeedParser.Configuration().maxFeedBytes) bytes"), "\(reason)")
        if let peak { #expect(peak < 100 << 20, "peak \(peak / 1_048_576) MB") }
    }

    @Test func aGigabyteImageIsRefusedByItsSizeBeforeItIsRead() throws {
        let path = try sparseFile("huge.png", size: 1 << 30, startingWith: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

        #expect {
            try ImageFile.decode(path, maxPixelSize: 64, decoder: ThumbnailDecoder())
        } throws: { error in
            String(describing: error).contains("over the limit of \(ImageFile.maxFileBytes) bytes")
        }
    }

    @Test func aFileWithNoSizeIsCutOffAtTheLimit() throws {
        // /dev/zero never ends and has no size to check first.
        #expect {
            try FileBytes.read("/dev/zero", limit: 100_000)
        } throws: { error in
            String(describing: error).contains("goes on past 100000 bytes")
        }
        #expect(try FileBytes.read("/dev/null", limit: 10) == [])
        let small = scratch.path("small.txt")
        try Data("twelve bytes".utf8).write(to: small)
        #expect(try FileBytes.read(small.path, limit: 12) == Array("twelve bytes".utf8))
        #expect(throws: FileBytes.Failure.self) { try FileBytes.read(small.path, limit: 11) }
    }

    /// A PNG of a signature, a header, and a chunk of `type` that declares a gigabyte and holds
    /// three bytes: the 57-byte files of libpng's own crash tests.
    static func pngDeclaringAGigabyteChunk(_ type: String) -> [UInt8] {
        var header = PNGChunks.bigEndian(1) + PNGChunks.bigEndian(1)
        header += [8, 0, 0, 0, 0]
        return PNGChunks.signature + PNGChunks.chunk("IHDR", header) + PNGChunks.bigEndian(1 << 30) + Array(type.utf8) + [1, 2, 3]
    }

    @Test(arguments: ["zTXt", "iTXt", "tEXt", "iCCP", "sPLT", "sCAL", "pCAL", "eXIf", "abCd"])
    func aPNGDeclaringAGigabyteChunkIsRefusedWithoutAllocatingIt(type: String) throws {
        let png = Self.pngDeclaringAGigabyteChunk(type)

        let (result, peak) = PeakMemory.measure { Result { try ThumbnailDecoder().decode(png, maxPixelSize: 64) } }

        #expect(throws: ThumbnailError.self) { try result.get() }
        if let peak { #expect(peak < 100 << 20, "\(type): peak \(peak / 1_048_576) MB") }
    }

    @Test func importSubscribesOnlyHTTPFeedsAndNamesTheRest() throws {
        let refused = [
            "gopher://example.com/feed", "javascript:alert(1)", "data:text/xml,<rss/>", "ftp://example.com/feed.xml",
            "http+unix://%2Fvar%2Frun%2Fdocker.sock/containers/json", "file:///etc/passwd",
        ]
        let outlines = (refused + ["https://example.com/feed.xml"]).map { #"<outline text="f" xmlUrl="\#($0.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;"))"/>"# }
        let opml = scratch.path("list.opml")
        try Data(#"<?xml version="1.0"?><opml version="2.0"><body>\#(outlines.joined())</body></opml>"#.utf8).write(to: opml)
        let database = scratch.path("db.sqlite").path

        let imported = try BuiltExecutable.run("scrollwork", ["import", opml.path, "--database", database])
        let list = try BuiltExecutable.run("scrollwork", ["export", "--database", database])

        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("imported 1 feeds (0 already subscribed, 6 skipped)"), "\(imported.output)")
        for url in refused {
            #expect(imported.error.contains("skipped \(URL(string: url)!.absoluteString): only http and https"), "\(url): \(imported.error)")
            #expect(!list.output.contains(URL(string: url)!.absoluteString))
        }
        #expect(list.output.contains("https://example.com/feed.xml"))
    }

    @Test func importRefusesAGigabyteFileByItsSize() throws {
        let path = try sparseFile("huge.opml", size: 1 << 30, startingWith: Array("<opml><body>".utf8))

        let result = try BuiltExecutable.run("scrollwork", ["import", path, "--database", scratch.path("db.sqlite").path])

        #expect(result.status == 1)
        #expect(result.error.contains("over the limit of"), "\(result.error)")
    }
}
