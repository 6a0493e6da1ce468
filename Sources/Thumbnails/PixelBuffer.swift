/// A decoded image: 8-bit RGBA samples with straight (not premultiplied) alpha, row by row
/// from the top.
public struct PixelBuffer: Hashable, Sendable, CustomStringConvertible {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The distance in bytes from the start of one row to the start of the next, at least `width * 4`.
    public let bytesPerRow: Int
    /// The samples: `height` rows of `bytesPerRow` bytes, each pixel red, green, blue, alpha.
    public var bytes: [UInt8]

    /// Creates a buffer over `bytes`.
    ///
    /// - Precondition: `width` and `height` are positive, `bytesPerRow >= width * 4`, and
    ///   `bytes` holds exactly `height * bytesPerRow` bytes.
    public init(width: Int, height: Int, bytesPerRow: Int, bytes: [UInt8]) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        precondition(bytesPerRow >= width * 4, "a row must hold four bytes per pixel")
        precondition(bytes.count == height * bytesPerRow, "bytes must hold height * bytesPerRow bytes")
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.bytes = bytes
    }

    /// Creates a tightly packed buffer (`bytesPerRow == width * 4`) of transparent black pixels.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, bytesPerRow: width * 4, bytes: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// The pixel at column `x`, row `y`.
    ///
    /// - Precondition: `0 <= x < width` and `0 <= y < height`.
    /// - Complexity: O(1).
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            let offset = checkedOffset(x: x, y: y)
            return RGBA(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2], alpha: bytes[offset + 3])
        }
        set {
            let offset = checkedOffset(x: x, y: y)
            bytes[offset] = newValue.red
            bytes[offset + 1] = newValue.green
            bytes[offset + 2] = newValue.blue
            bytes[offset + 3] = newValue.alpha
        }
    }

    /// `PixelBuffer(128x85, 512 bytes per row)`: the size, not the pixels.
    public var description: String { "PixelBuffer(\(width)x\(height), \(bytesPerRow) bytes per row)" }

    private func checkedOffset(x: Int, y: Int) -> Int {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
        return y * bytesPerRow + x * 4
    }
}

/// One pixel: 8-bit red, green, blue and straight alpha.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0 to 255.
    public var red: UInt8
    /// Green, 0 to 255.
    public var green: UInt8
    /// Blue, 0 to 255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) to 255 (opaque); the colour is not premultiplied by it.
    public var alpha: UInt8

    /// Creates a pixel; alpha defaults to opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `rgba(r, g, b, a)`.
    public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
}
