import CImageEncoders

/// Encodes JPEG files and edits their markers, for tests and benchmarks.
package enum JPEGFixture {
    /// The colour model of the input samples and of the file.
    package enum ColorModel: Sendable {
        /// One sample per pixel.
        case gray
        /// Three samples per pixel, stored as YCbCr.
        case rgb
        /// Four samples per pixel, Adobe-inverted CMYK (255 = no ink), stored as CMYK.
        case cmyk
        /// The same input, stored in Adobe's YCCK transform.
        case ycck

        var channels: Int {
            switch self {
            case .gray: 1
            case .rgb: 3
            case .cmyk, .ycck: 4
            }
        }

        var shimValue: cie_jpeg_color {
            switch self {
            case .gray: CIE_JPEG_GRAY
            case .rgb: CIE_JPEG_RGB
            case .cmyk: CIE_JPEG_CMYK
            case .ycck: CIE_JPEG_YCCK
            }
        }
    }

    /// Encodes row-major, tightly packed `pixels` as a baseline or progressive JPEG.
    ///
    /// - Precondition: `pixels` holds `width × height` pixels of `color`.
    package static func encode(pixels: [UInt8], width: Int, height: Int, color: ColorModel = .rgb, quality: Int = 90, progressive: Bool = false) -> [UInt8] {
        precondition(pixels.count == width * height * color.channels, "one sample per channel per pixel")
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = cie_encode_jpeg(pixels, UInt32(width), UInt32(height), color.shimValue, Int32(quality), progressive ? 1 : 0, &output, &size)
        precondition(status == 0, "libjpeg rejected the image")
        defer { cie_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// `jpeg` with an Exif APP1 segment right after SOI whose IFD0 holds only the
    /// orientation tag (0x0112) with `orientation`, in big- or little-endian TIFF byte order.
    package static func insertingExifOrientation(_ orientation: UInt16, into jpeg: [UInt8], bigEndian: Bool = true) -> [UInt8] {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "not a JPEG")
        let tiff = exifOrientationTIFF(orientation, bigEndian: bigEndian)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return [0xFF, 0xD8] + segment + jpeg[2...]
    }

    /// The TIFF structure of an EXIF block holding only an orientation: what follows "Exif\0\0"
    /// in a JPEG's APP1 segment, and what a PNG's `eXIf` chunk holds.
    package static func exifOrientationTIFF(_ orientation: UInt16, bigEndian: Bool = true) -> [UInt8] {
        func bytes(_ value: Int, size: Int) -> [UInt8] {
            let bigEndianBytes = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
            return bigEndian ? bigEndianBytes : bigEndianBytes.reversed()
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += bytes(42, size: 2) + bytes(8, size: 4)
        tiff += bytes(1, size: 2)
        // Tag, type SHORT, count 1, and the value left-aligned in the 4-byte value field.
        tiff += bytes(0x0112, size: 2) + bytes(3, size: 2) + bytes(1, size: 4) + bytes(Int(orientation), size: 2) + [0, 0]
        tiff += bytes(0, size: 4)
        return tiff
    }
}
