import ContentLoading
import Foundation
import ImageFixtures
import Testing
import ThumbnailLoading
import Thumbnails

/// Thumbnails plugged into ContentLoading as the decode stage.
@Suite struct ThumbnailPipelineTests {
    /// Serves generated images from memory, keyed by URL.
    private struct ImageSource: DataLoading {
        let images: [URL: [UInt8]]
        /// Holds every load until it opens, when given.
        var gate: Gate? = nil

        func loadData(for url: URL) async throws -> [UInt8] {
            await gate?.wait()
            guard let bytes = images[url] else { throw URLError(.fileDoesNotExist) }
            return bytes
        }
    }

    /// Shut until ``open()``; then every waiter goes on, and every later one at once.
    private final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            await withCheckedContinuation { continuation in
                lock.lock()
                if isOpen {
                    lock.unlock()
                    continuation.resume()
                } else {
                    waiting.append(continuation)
                    lock.unlock()
                }
            }
        }

        func open() {
            lock.lock()
            isOpen = true
            let waiters = waiting
            waiting = []
            lock.unlock()
            for waiter in waiters { waiter.resume() }
        }
    }

    @Test func aPipelineDeliversThumbnailsOfEachSizeFromOneDownload() async throws {
        let url = URL(string: "https://example.com/photo.png")!
        let png = PNGFixture.encode(rgba: PhotoPattern.pixels(width: 300, height: 200, withAlpha: true), width: 300, height: 200)
        // The download waits until all three sizes are asked for, however fast it would be:
        // the three share it (a download that ended before the third request made another).
        let gate = Gate()
        let pipeline = ContentPipeline(
            loader: ImageSource(images: [url: png], gate: gate), processor: ThumbnailProcessor(),
            memoryCache: MemoryCache(), configuration: .init(cost: ThumbnailProcessor.cost))
        let sizes: [Int?] = [64, 128, nil]
        let (arrivals, arrived) = AsyncStream<(Int?, PixelBuffer?)>.makeStream()
        for size in sizes {
            await pipeline.request(ThumbnailRequest(url: url, maxPixelSize: size), priority: .visible, consumer: ContentConsumerID()) {
                result, _ in arrived.yield((size, try? result.get()))
            }
        }
        gate.open()
        var thumbnails: [Int: PixelBuffer] = [:]
        var received = 0
        for await (size, buffer) in arrivals {
            thumbnails[size ?? 0] = buffer
            received += 1
            if received == sizes.count { break }
        }
        #expect(thumbnails[64].map { [$0.width, $0.height] } == [64, 43])
        #expect(thumbnails[128].map { [$0.width, $0.height] } == [128, 85])
        #expect(thumbnails[0].map { [$0.width, $0.height] } == [300, 200])
        #expect(pipeline.metrics.loadsStarted == 1)
        #expect(pipeline.metrics.processingStarted == 3)
        #expect(pipeline.memoryCache?.totalCost == thumbnails.values.reduce(0) { $0 + $1.bytes.count })
    }

    @Test func aCorruptImageIsAProcessingFailure() async {
        let url = URL(string: "https://example.com/broken.jpg")!
        let pipeline = ContentPipeline(
            loader: ImageSource(images: [url: [0xFF, 0xD8, 0xFF, 0x00, 0x01]]), processor: ThumbnailProcessor())
        let outcome: String = await withCheckedContinuation { continuation in
            Task {
                await pipeline.request(
                    ThumbnailRequest(url: url, maxPixelSize: 64), priority: .visible, consumer: ContentConsumerID()
                ) { result, _ in
                    switch result {
                    case .success: continuation.resume(returning: "decoded")
                    case .failure(.processingFailed(let error)): continuation.resume(returning: "\(type(of: error))")
                    case .failure(let other): continuation.resume(returning: "\(other)")
                    }
                }
            }
        }
        #expect(outcome == "ThumbnailError")
    }
}
