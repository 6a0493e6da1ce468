import CImageEncoders

/// Encodes PNG files from samples laid out the way PNG stores them, for tests and benchmarks.
package enum PNGFixture {
    /// PNG colour types, with their values in the IHDR chunk.
    package enum ColorType: Int32, CaseIterable, Sendable {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6

        /// Samples per pixel.
        package var channels: Int {
            switch self {
            case .gray, .palette: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }

        /// The bit depths the PNG specification allows for this colour type.
        package var bitDepths: [Int] {
            switch self {
            case .gray: [1, 2, 4, 8, 16]
            case .palette: [1, 2, 4, 8]
            case .rgb, .grayAlpha, .rgba: [8, 16]
            }
        }
    }

    /// Encodes a PNG.
    ///
    /// - Parameters:
    ///   - samples: Row-major samples, `channels` per pixel, each in `0 ..< 1 << bitDepth`
    ///     (palette indices for `.palette`). They are packed here as PNG requires.
    ///   - palette: RGB triples, for `.palette`.
    ///   - transparency: The tRNS payload: one alpha per palette entry, or a 16-bit
    ///     big-endian grey key (2 bytes) or RGB key (6 bytes).
    /// - Precondition: The parameters describe a valid PNG.
    package static func encode(
        samples: [UInt16], width: Int, height: Int, colorType: ColorType, bitDepth: Int,
        interlaced: Bool = false, palette: [UInt8] = [], transparency: [UInt8] = []
    ) -> [UInt8] {
        let rows = packedRows(samples: samples, width: width, height: height, colorType: colorType, bitDepth: bitDepth)
        let rowBytes = self.rowBytes(width: width, colorType: colorType, bitDepth: bitDepth)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = cie_encode_png(
            rows, rowBytes, UInt32(width), UInt32(height), colorType.rawValue, Int32(bitDepth), interlaced ? 1 : 0,
            palette.isEmpty ? nil : palette, Int32(palette.count / 3),
            transparency.isEmpty ? nil : transparency, Int32(transparency.count),
            &output, &size
        )
        precondition(status == 0, "libpng rejected the image")
        defer { cie_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// The bytes of one row of `width` pixels, as PNG packs them (without the filter byte).
    package static func rowBytes(width: Int, colorType: ColorType, bitDepth: Int) -> Int {
        (width * colorType.channels * bitDepth + 7) / 8
    }

    /// `samples` packed into rows the way PNG stores them before filtering: 16-bit samples
    /// big-endian, samples below 8 bits filling each byte from its most significant bit, each
    /// row `rowBytes(width:colorType:bitDepth:)` long.
    ///
    /// - Precondition: One sample per channel per pixel, each in `0 ..< 1 << bitDepth`.
    package static func packedRows(samples: [UInt16], width: Int, height: Int, colorType: ColorType, bitDepth: Int) -> [UInt8] {
        precondition(samples.count == width * height * colorType.channels, "one sample per channel per pixel")
        let rowBytes = rowBytes(width: width, colorType: colorType, bitDepth: bitDepth)
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for index in 0..<(width * colorType.channels) {
                let sample = samples[y * width * colorType.channels + index]
                precondition(Int(sample) < 1 << bitDepth, "sample \(sample) does not fit in \(bitDepth) bits")
                let bit = index * bitDepth
                if bitDepth == 16 {
                    rows[y * rowBytes + bit / 8] = UInt8(sample >> 8)
                    rows[y * rowBytes + bit / 8 + 1] = UInt8(sample & 0xFF)
                } else {
                    rows[y * rowBytes + bit / 8] |= UInt8(sample << (8 - bitDepth - bit % 8) & 0xFF)
                }
            }
        }
        return rows
    }

    /// Encodes 8-bit RGBA pixels (4 bytes each, row-major) as an RGBA PNG.
    package static func encode(rgba: [UInt8], width: Int, height: Int, interlaced: Bool = false) -> [UInt8] {
        encode(samples: rgba.map(UInt16.init), width: width, height: height, colorType: .rgba, bitDepth: 8, interlaced: interlaced)
    }

    /// Encodes 8-bit RGB pixels (3 bytes each, row-major) as an RGB PNG.
    package static func encode(rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        encode(samples: rgb.map(UInt16.init), width: width, height: height, colorType: .rgb, bitDepth: 8)
    }

    /// Encodes 8-bit RGB pixels (3 bytes each, row-major) as an 8-bit palette PNG over the
    /// 3-3-2 colour cube: each pixel becomes the entry named by its top 3 bits of red, 3 of
    /// green and 2 of blue, the way a GIF-era image was quantized.
    package static func encode(quantizing rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        let palette = (0..<256).flatMap { (index: Int) -> [UInt8] in
            [UInt8((index >> 5) * 255 / 7), UInt8((index >> 2 & 7) * 255 / 7), UInt8((index & 3) * 255 / 3)]
        }
        let indices = (0..<(width * height)).map { (pixel: Int) -> UInt16 in
            let red = UInt16(rgb[pixel * 3] >> 5) << 5
            let green = UInt16(rgb[pixel * 3 + 1] >> 5) << 2
            return red | green | UInt16(rgb[pixel * 3 + 2] >> 6)
        }
        return encode(samples: indices, width: width, height: height, colorType: .palette, bitDepth: 8, palette: palette)
    }
}
