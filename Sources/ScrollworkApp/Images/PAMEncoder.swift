import Thumbnails

/// Writes pixel buffers as PAM (Netpbm's portable arbitrary map): a short text header and
/// then the raw samples, which every Netpbm tool and most image viewers read.
enum PAMEncoder {
    /// `image` as an 8-bit `RGB_ALPHA` PAM file, rows packed without padding.
    ///
    /// - Complexity: O(`width` × `height`).
    static func encode(_ image: PixelBuffer) -> [UInt8] {
        let header = "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        var bytes = Array(header.utf8)
        let rowBytes = image.width * 4
        bytes.reserveCapacity(bytes.count + rowBytes * image.height)
        for row in 0..<image.height {
            let start = row * image.bytesPerRow
            bytes += image.bytes[start..<(start + rowBytes)]
        }
        return bytes
    }
}
