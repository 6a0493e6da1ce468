import SeededRandom

/// Photo-like test content: smooth gradients with sensor-like noise, which compresses about
/// as well as a real photo does (noise-free gradients would flatter the JPEG decoder).
package enum PhotoPattern {
    /// Tightly packed RGB (or RGBA, with an alpha gradient) pixels, fixed by `seed`.
    ///
    /// - Complexity: O(`width` × `height`).
    package static func pixels(width: Int, height: Int, withAlpha: Bool = false, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        let channels = withAlpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        pixels.withUnsafeMutableBufferPointer { pixels in
            var offset = 0
            for y in 0..<height {
                for x in 0..<width {
                    let noise = generator.next()
                    let red = x * 200 / width + 20
                    let green = y * 200 / height + 20
                    let blue = 230 - (x + y) * 200 / (width + height)
                    pixels[offset] = UInt8(clamping: red + Int(noise & 0x0F) - 8)
                    pixels[offset + 1] = UInt8(clamping: green + Int(noise >> 8 & 0x0F) - 8)
                    pixels[offset + 2] = UInt8(clamping: blue + Int(noise >> 16 & 0x0F) - 8)
                    if withAlpha { pixels[offset + 3] = UInt8(x * 255 / max(1, width - 1)) }
                    offset += channels
                }
            }
        }
        return pixels
    }
}
