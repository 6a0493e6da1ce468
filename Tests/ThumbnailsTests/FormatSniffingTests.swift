import ImageFixtures
import Testing
@testable import Thumbnails

@Suite("Format sniffing")
struct FormatSniffingTests {
    @Test func recognisesPNGAndJPEGBySignature() throws {
        #expect(try ImageFormat.sniff(TestImages.smoothPNG(width: 4, height: 4)) == .png)
        #expect(try ImageFormat.sniff(TestImages.smoothJPEG(width: 8, height: 8)) == .jpeg)
    }

    @Test(arguments: [
        (Array("GIF89a".utf8) + [1, 0, 1, 0], "GIF"),
        (Array("GIF87a".utf8), "GIF"),
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), "WebP"),
        ([0, 0, 0, 0x1C] + Array("ftypavif".utf8), "AVIF"),
        ([0, 0, 0, 0x1C] + Array("ftypheic".utf8), "HEIF"),
        ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "TIFF"),
        (Array("BM".utf8) + [0, 0, 0, 0], "BMP"),
        ([], "empty data"),
        ([0x01, 0x02, 0xAB], "unknown (first bytes 0x0102AB)"),
        (Array("<!DOCTYPE html>".utf8), "unknown (first bytes 0x3C21444F43545950)"),
    ] as [([UInt8], String)])
    func namesWhatItFoundForUnsupportedData(data: [UInt8], name: String) {
        #expect(throws: ThumbnailError.unsupportedFormat(name)) {
            try ThumbnailDecoder().decode(data, maxPixelSize: nil)
        }
    }

    @Test func aPNGSignatureAloneIsTruncated() {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect {
            try ThumbnailDecoder().decode(signature, maxPixelSize: nil)
        } throws: { error in
            guard case .truncated = error as? ThumbnailError else { return false }
            return true
        }
    }
}
