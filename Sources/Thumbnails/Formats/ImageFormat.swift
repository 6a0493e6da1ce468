/// The encoded formats the decoder reads, recognised by their leading bytes, never by a name.
enum ImageFormat: Hashable, Sendable {
    case png
    case jpeg

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format of `data`, from its signature.
    ///
    /// - Throws: `ThumbnailError.unsupportedFormat` naming what the bytes look like instead.
    /// - Complexity: O(1).
    static func sniff(_ data: [UInt8]) throws(ThumbnailError) -> ImageFormat {
        if data.starts(with: pngSignature) { return .png }
        // SOI followed by the first marker's 0xFF.
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        throw .unsupportedFormat(describeUnsupported(data))
    }

    /// A name for well-known formats Scrollwork does not decode, else the first bytes in hex.
    private static func describeUnsupported(_ data: [UInt8]) -> String {
        func ascii(_ range: Range<Int>) -> String? {
            guard data.count >= range.upperBound else { return nil }
            return String(decoding: data[range], as: Unicode.ASCII.self)
        }
        if data.isEmpty { return "empty data" }
        if let magic = ascii(0..<6), magic == "GIF87a" || magic == "GIF89a" { return "GIF" }
        if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" { return "WebP" }
        if ascii(4..<8) == "ftyp", let brand = ascii(8..<12) {
            if brand.hasPrefix("avi") { return "AVIF" }
            if brand.hasPrefix("hei") || brand.hasPrefix("mif") { return "HEIF" }
        }
        if data.starts(with: [0x49, 0x49, 0x2A, 0x00]) || data.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if ascii(0..<2) == "BM" { return "BMP" }
        if data.starts(with: [0xFF, 0x0A]) { return "JPEG XL" }
        let hex = data.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        return "unknown (first bytes 0x\(hex))"
    }
}
