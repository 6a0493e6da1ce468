import Feeds
import Foundation
import ScrollworkTestSupport
import Testing

/// What the fuzz targets found (`Scripts/fuzz.sh`), each with the input that found it.
@Suite struct FuzzFindingTests {
    /// fuzz-feed-parser, LeakSanitizer: an entity the document declares leaked its declaration's
    /// raw text, 100 bytes a parse. libxml2 gives that text to the entity `getEntity` returns
    /// right after the declaration, an entity of ours, which never freed it. Measured in a
    /// process of its own (`feeds-heap-helper`), where nothing else allocates meanwhile.
    @Test func aDeclaredEntityLeaksNothing() throws {
        let folder = try ScratchDirectory()
        let file = folder.url.appendingPathComponent("entity.xml")
        try Data("""
            <!DOCTYPE rss [<!ENTITY host "cdn.example">]>
            <rss version="2.0"><channel><title>T</title><item><title>t</title>
            <enclosure url="https://&host;/b.jpg" type="image/jpeg"/></item></channel></rss>
            """.utf8).write(to: file)
        let result = try BuiltExecutable.run("feeds-heap-helper", [file.path, "5000"])
        #expect(result.status == 0, "\(result.error)")
        let lines = Dictionary(uniqueKeysWithValues: result.output.split(separator: "\n").compactMap { line -> (String, Int)? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            return (String(parts[0]), value)
        })
        #expect(lines["entries"] == 1)
        #if os(Linux)
        #expect((lines["heap"] ?? 0) > 0, "glibc says how much of the heap is in use")
        #endif
        // It leaked 560,000 bytes.
        #expect((lines["grown"] ?? .max) < 50_000, "5,000 parses kept \(lines["grown"] ?? -1) bytes")
    }

    /// fuzz-feed-parser, whole against in pieces: a character data section broken by a NUL
    /// gave its entry the text before the NUL when the bytes came in pieces (libxml2 and the
    /// scanner hand out long text as it arrives) and none when they came whole (libxml2 checks
    /// a section it has whole before handing any of it out). The field a document breaks off
    /// in is now dropped either way; the entry stays.
    @Test func aFieldBrokenOffReadsTheSameWholeAndInPieces() throws {
        let document = Array("""
            <rss version="2.0"><channel><title>C</title><item><title>t</title>
            <description><![CDATA[<p>Tom & Jerry \(String(repeating: "and more words ", count: 40))
            """.utf8) + [0, 0, 0] + Array("]]></description></item></channel></rss>".utf8)
        func parse(pieceSize: Int) throws -> [FeedEntry] {
            var parser = FeedParser()
            var entries: [FeedEntry] = []
            var start = 0
            while start < document.count {
                entries += try parser.consume(document[start..<min(document.count, start + pieceSize)]).joined()
                start += pieceSize
            }
            let end = try parser.finish()
            #expect(end.isMalformed)
            return entries + end.entries
        }
        let whole = try parse(pieceSize: document.count)
        #expect(whole.map(\.title) == ["t"])
        #expect(whole.first?.summary == nil)
        for pieceSize in [1, 7, 64, 300] {
            #expect(try parse(pieceSize: pieceSize) == whole, "in pieces of \(pieceSize)")
        }
    }
}
