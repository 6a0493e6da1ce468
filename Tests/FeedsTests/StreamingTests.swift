import Feeds
import Foundation
import Testing

@Suite("Streaming")
struct StreamingTests {
    static func item(_ index: Int) -> String {
        """
        <item><title>Post \(index) &amp; more</title><link>https://s.example/\(index)</link><guid>id-\(index)</guid>
        <description>&lt;p&gt;Body of \(index) &lt;img src="/i/\(index).jpg"&gt;&lt;/p&gt;</description>
        <pubDate>Sat, 02 Mar 2024 10:00:00 GMT</pubDate></item>

        """
    }

    static let header = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Stream</title><link>https://s.example/</link>\n"
    static let footer = "</channel></rss>\n"

    @Test func deliversBatchesBeforeTheDocumentEnds() throws {
        let document = Array((Self.header + (0..<35).map(Self.item).joined() + Self.footer).utf8)
        var parser = FeedParser(url: URL(string: "https://s.example/rss"))
        var batches: [[FeedEntry]] = []
        var chunksBeforeFirstBatch: Int?
        let chunks = stride(from: 0, to: document.count, by: 97).map { document[$0..<min($0 + 97, document.count)] }
        for (index, chunk) in chunks.enumerated() {
            let delivered = try parser.consume(chunk)
            if !delivered.isEmpty, chunksBeforeFirstBatch == nil { chunksBeforeFirstBatch = index }
            batches += delivered
            #expect(parser.bufferedEntryCount < 10)
        }
        let end = try parser.finish()
        let first = try #require(chunksBeforeFirstBatch)
        #expect(first < chunks.count - 1, "the first batch arrived with the last chunk")
        #expect(batches.map(\.count) == [10, 10, 10])
        #expect(end.entries.count == 5)
        #expect((batches.flatMap { $0 } + end.entries).map(\.id) == (0..<35).map { "id-\($0)" })
        #expect(end.info.title == "Stream")
        #expect(!end.isMalformed)
    }

    @Test func theFeedDetailsAreKnownBeforeTheFirstEntry() throws {
        var parser = FeedParser()
        _ = try parser.consume(Array((Self.header + Self.item(0)).utf8) + Array(repeating: UInt8(ascii: " "), count: 300))
        #expect(parser.info?.title == "Stream")
        #expect(parser.info?.format == .rss2)
    }

    @Test func takesBatchSizeFromTheConfiguration() throws {
        let document = Array((Self.header + (0..<7).map(Self.item).joined() + Self.footer).utf8)
        var parser = FeedParser(configuration: .init(batchSize: 3))
        let batches = try parser.consume(document)
        #expect(batches.map(\.count) == [3, 3])
        #expect(try parser.finish().entries.count == 1)
    }

    /// About 50 MB generated chunk by chunk, never held whole: each batch is handed over as soon
    /// as it is complete and the parser never holds a full batch between chunks.
    @Test func holdsAtMostOneBatchOnAFiftyMegabyteFeed() throws {
        var configuration = FeedParser.Configuration()
        configuration.maxFeedBytes = 80 << 20
        var parser = FeedParser(url: URL(string: "https://s.example/rss"), configuration: configuration)
        var total = 0
        var entries = 0
        var largestBuffered = 0
        var index = 0
        var chunk = Array(Self.header.utf8)
        while total < 50_000_000 {
            chunk.append(contentsOf: Self.item(index).utf8)
            index += 1
            guard chunk.count >= 64 * 1024 else { continue }
            total += chunk.count
            for batch in try parser.consume(chunk) {
                #expect(batch.count == 10)
                entries += batch.count
            }
            largestBuffered = max(largestBuffered, parser.bufferedEntryCount)
            chunk.removeAll(keepingCapacity: true)
        }
        chunk.append(contentsOf: Self.footer.utf8)
        for batch in try parser.consume(chunk) { entries += batch.count }
        let end = try parser.finish()
        entries += end.entries.count
        #expect(entries == index)
        #expect(largestBuffered < 10)
        #expect(!end.isMalformed)
    }
}

/// Chunks of a document, produced on demand, counting how many have been produced.
final class CountingChunks: AsyncSequence, @unchecked Sendable {
    let chunks: [[UInt8]]
    private(set) var produced = 0

    init(_ document: [UInt8], size: Int) {
        chunks = stride(from: 0, to: document.count, by: size).map { Array(document[$0..<Swift.min($0 + size, document.count)]) }
    }

    struct Iterator: AsyncIteratorProtocol {
        let source: CountingChunks
        mutating func next() async -> [UInt8]? {
            guard source.produced < source.chunks.count else { return nil }
            source.produced += 1
            return source.chunks[source.produced - 1]
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(source: self) }
}

extension StreamingTests {
    @Test func theAsyncFrontEndDeliversBatchesWhileChunksStillArrive() async throws {
        let document = Array((Self.header + (0..<25).map(Self.item).joined() + Self.footer).utf8)
        let chunks = CountingChunks(document, size: 200)
        var producedAtEachBatch: [Int] = []
        var ids: [String] = []
        let end = try await FeedParser.parse(chunks, url: URL(string: "https://s.example/rss")) { batch in
            producedAtEachBatch.append(chunks.produced)
            ids += batch.map(\.id)
        }
        ids += end.entries.map(\.id)
        #expect(producedAtEachBatch.count == 2)
        #expect(producedAtEachBatch.allSatisfy { $0 < chunks.chunks.count })
        #expect(ids == (0..<25).map { "id-\($0)" })
    }
}
