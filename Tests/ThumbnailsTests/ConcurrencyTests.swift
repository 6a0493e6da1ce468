import Testing
import Thumbnails

@Suite("Concurrent decoding")
struct ConcurrencyTests {
    @Test func decodesTheSameFilesOnManyTasksAtOnce() async throws {
        let files = [
            TestImages.smoothJPEG(width: 120, height: 80),
            TestImages.smoothJPEG(width: 120, height: 80, progressive: true),
            TestImages.smoothPNG(width: 120, height: 80),
            TestImages.smoothPNG(width: 120, height: 80, interlaced: true),
        ]
        let decoder = ThumbnailDecoder()
        let expected = try files.map { try decoder.decode($0, maxPixelSize: 32) }

        let results = await withTaskGroup(of: (Int, PixelBuffer?).self) { group in
            for index in 0..<64 {
                group.addTask { (index, try? decoder.decode(files[index % files.count], maxPixelSize: 32)) }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }

        #expect(results.count == 64)
        for (index, image) in results {
            #expect(image == expected[index % files.count], "decode \(index)")
        }
    }
}
