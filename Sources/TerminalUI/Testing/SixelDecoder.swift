import Thumbnails

/// Reads sixel images back into pixels, as a terminal draws them: for tests of
/// ``Sixel`` and of what the renderer writes.
public enum SixelDecoder {
    /// The picture the sixel image in `bytes` (from its DCS to its ST) draws, pixels it leaves
    /// alone transparent; `nil` if `bytes` hold no sixel image. Its size is the raster
    /// attributes' if given, else what the data reach.
    public static func decode(_ bytes: [UInt8]) -> PixelBuffer? {
        guard let start = bytes.firstIndex(of: 0x1B), start + 1 < bytes.count, bytes[start + 1] == 0x50,
              let q = bytes[(start + 2)...].firstIndex(of: UInt8(ascii: "q")) else { return nil }
        var registers: [Int: RGBA] = [:]
        var drawn: [Int: RGBA] = [:]
        var width = 0, height = 0
        var declaredWidth: Int?, declaredHeight: Int?
        var color = RGBA(red: 0, green: 0, blue: 0)
        var x = 0, band = 0
        var index = q + 1

        /// The decimal parameters from `index`, separated by `;`.
        func parameters() -> [Int] {
            var values: [Int] = []
            var current: Int?
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x30 && byte <= 0x39 {
                    current = (current ?? 0) * 10 + Int(byte - 0x30)
                } else if byte == UInt8(ascii: ";") {
                    values.append(current ?? 0)
                    current = nil
                } else {
                    break
                }
                index += 1
            }
            if let current { values.append(current) }
            return values
        }
        func paint(_ sixel: UInt8, count: Int) {
            let bits = sixel - 0x3F
            for column in x..<(x + count) {
                for row in 0..<6 where bits & (1 << row) != 0 {
                    drawn[(band + row) << 20 | column] = color
                    height = max(height, band + row + 1)
                }
            }
            x += count
            width = max(width, x)
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                index = bytes.count
            case UInt8(ascii: "\""):
                index += 1
                let values = parameters()
                if values.count >= 4 {
                    declaredWidth = values[2]
                    declaredHeight = values[3]
                }
            case UInt8(ascii: "#"):
                index += 1
                let values = parameters()
                guard let register = values.first else { continue }
                if values.count >= 5, values[1] == 2 {
                    func channel(_ percent: Int) -> UInt8 { UInt8((min(percent, 100) * 255 + 50) / 100) }
                    registers[register] = RGBA(red: channel(values[2]), green: channel(values[3]), blue: channel(values[4]))
                }
                color = registers[register] ?? RGBA(red: 0, green: 0, blue: 0)
            case UInt8(ascii: "!"):
                index += 1
                let count = parameters().first ?? 1
                if index < bytes.count, (0x3F...0x7E).contains(bytes[index]) {
                    paint(bytes[index], count: count)
                    index += 1
                }
            case UInt8(ascii: "$"):
                x = 0
                index += 1
            case UInt8(ascii: "-"):
                x = 0
                band += 6
                index += 1
            case 0x3F...0x7E:
                paint(byte, count: 1)
                index += 1
            default:
                index += 1
            }
        }
        let finalWidth = declaredWidth ?? width, finalHeight = declaredHeight ?? height
        guard finalWidth > 0, finalHeight > 0 else { return nil }
        var image = PixelBuffer(width: finalWidth, height: finalHeight)
        for (key, pixel) in drawn {
            let (row, column) = (key >> 20, key & 0xFFFFF)
            guard row < finalHeight, column < finalWidth else { continue }
            let offset = row * image.bytesPerRow + column * 4
            image.bytes[offset] = pixel.red
            image.bytes[offset + 1] = pixel.green
            image.bytes[offset + 2] = pixel.blue
            image.bytes[offset + 3] = 255
        }
        return image
    }
}
