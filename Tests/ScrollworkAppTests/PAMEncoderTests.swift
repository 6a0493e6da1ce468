import Testing
import Thumbnails
@testable import ScrollworkApp

@Suite("PAM encoding")
struct PAMEncoderTests {
    @Test func writesTheHeaderThenPackedRGBARows() {
        // A padded row stride: the padding must not reach the file.
        let image = PixelBuffer(width: 2, height: 2, bytesPerRow: 12, bytes: [
            1, 2, 3, 4, 5, 6, 7, 8, 99, 99, 99, 99,
            9, 10, 11, 12, 13, 14, 15, 16, 99, 99, 99, 99,
        ])

        let bytes = PAMEncoder.encode(image)

        let header = "P7\nWIDTH 2\nHEIGHT 2\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        #expect(Array(bytes.prefix(header.utf8.count)) == Array(header.utf8))
        #expect(Array(bytes.dropFirst(header.utf8.count)) == Array(1...16))
    }
}
