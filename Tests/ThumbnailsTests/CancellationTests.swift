import Testing
import Thumbnails

@Suite("Cancellation")
struct CancellationTests {
    /// A check that answers `false` `batches` times, then `true`, counting how often it is asked.
    final class FlipAfter: @unchecked Sendable {
        private let batches: Int
        private(set) var calls = 0

        init(batches: Int) { self.batches = batches }

        func check() -> Bool {
            calls += 1
            return calls > batches
        }
    }

    @Test(arguments: ["png", "interlaced png", "jpeg", "progressive jpeg"])
    func stopsBetweenBatchesOnceCancelled(kind: String) {
        let data = switch kind {
        case "png": TestImages.smoothPNG(width: 64, height: 64)
        case "interlaced png": TestImages.smoothPNG(width: 64, height: 64, interlaced: true)
        case "jpeg": TestImages.smoothJPEG(width: 64, height: 64)
        default: TestImages.smoothJPEG(width: 64, height: 64, progressive: true)
        }
        let flip = FlipAfter(batches: 1)
        let decoder = ThumbnailDecoder(configuration: .init(rowsPerBatch: 8))

        #expect(throws: ThumbnailError.cancelled) {
            try decoder.decode(data, maxPixelSize: nil, isCancelled: flip.check)
        }
        // Asked before the first batch and the second, then stopped.
        #expect(flip.calls == 2)
    }

    @Test func stopsAProgressiveJPEGWhileItsScansAreRead() {
        let progressive = TestImages.smoothJPEG(width: 64, height: 64, progressive: true)
        let flip = FlipAfter(batches: 5)
        // One batch for the whole image: only checks during the scans can see the flip.
        let decoder = ThumbnailDecoder(configuration: .init(rowsPerBatch: 64))

        #expect(throws: ThumbnailError.cancelled) {
            try decoder.decode(progressive, maxPixelSize: nil, isCancelled: flip.check)
        }
        #expect(flip.calls == 6)
    }

    @Test func aDecodeThatIsNeverCancelledAsksBeforeEveryBatch() throws {
        let flip = FlipAfter(batches: .max)
        let decoder = ThumbnailDecoder(configuration: .init(rowsPerBatch: 8))

        _ = try decoder.decode(TestImages.smoothPNG(width: 64, height: 64), maxPixelSize: 16, isCancelled: flip.check)

        #expect(flip.calls == 8)
    }

    @Test func honoursTaskCancellation() async {
        let data = TestImages.smoothJPEG(width: 64, height: 64)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { () throws(ThumbnailError) in try ThumbnailDecoder().decode(data, maxPixelSize: 16) }
        }

        let result = await task.value

        #expect(throws: ThumbnailError.cancelled) { try result.get() }
    }
}
