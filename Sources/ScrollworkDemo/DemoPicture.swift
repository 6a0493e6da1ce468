import SeededRandom

/// Landscapes for the demo's thumbnails: a sky in one of several lights, a sun or moon, layers
/// of mountains fading with distance, and sometimes a lake that mirrors them. Each seed gives
/// a different picture, so a list of them looks like a list of photos.
enum DemoPicture {
    /// Tightly packed RGB pixels of the picture for `seed`.
    /// - Complexity: O(`width` × `height`).
    static func pixels(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ 7)
        let palette = palettes[Int.random(in: 0..<palettes.count, using: &random)]
        let sunX = Double.random(in: 0.15...0.85, using: &random) * Double(width)
        let sunY = Double.random(in: 0.12...0.4, using: &random) * Double(height)
        let sunRadius = Double(min(width, height)) * Double.random(in: 0.05...0.1, using: &random)
        let horizon = Int(Double(height) * Double.random(in: 0.55...0.75, using: &random))
        let hasLake = Bool.random(using: &random)
        let layers = (0..<3).map { layer in
            ridge(width: width, base: Double(height) * (0.3 + 0.12 * Double(layer)), roughness: Double(height) * (0.22 - 0.05 * Double(layer)),
                  using: &random)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                // Below the horizon of a lake, the scene mirrors what is above it, darker.
                let mirrored = hasLake && y > horizon
                let sceneY = mirrored ? 2 * horizon - y : y
                var color = mix(palette.top, palette.bottom, Double(max(0, sceneY)) / Double(max(1, horizon)))
                let distance = ((Double(x) - sunX) * (Double(x) - sunX) + (Double(sceneY) - sunY) * (Double(sceneY) - sunY)).squareRoot()
                if distance < sunRadius {
                    color = palette.sun
                } else if distance < sunRadius * 3 {
                    color = mix(palette.sun, color, (distance - sunRadius) / (sunRadius * 2))
                }
                for (layer, ridge) in layers.enumerated() where Double(sceneY) >= ridge[x] && sceneY <= horizon {
                    color = mix(palette.mountain, palette.top, 0.55 - 0.25 * Double(layer))
                }
                if mirrored {
                    color = mix(color, palette.water, 0.45)
                } else if y > horizon {
                    // The near ground, darkening towards the viewer.
                    color = mix(palette.mountain, (0, 0, 0), 0.2 + 0.5 * Double(y - horizon) / Double(max(1, height - horizon)))
                }
                let noise = Double(Int(random.next() & 0x0F) - 8)
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(clamping: Int(color.0 + noise))
                pixels[offset + 1] = UInt8(clamping: Int(color.1 + noise))
                pixels[offset + 2] = UInt8(clamping: Int(color.2 + noise))
            }
        }
        return pixels
    }

    typealias RGB = (Double, Double, Double)

    struct Palette {
        var top: RGB, bottom: RGB, sun: RGB, mountain: RGB, water: RGB
    }

    static let palettes = [
        Palette(top: (40, 90, 170), bottom: (170, 210, 240), sun: (255, 250, 220), mountain: (40, 70, 60), water: (20, 60, 110)),
        Palette(top: (60, 30, 90), bottom: (250, 140, 60), sun: (255, 220, 120), mountain: (50, 25, 50), water: (70, 30, 60)),
        Palette(top: (10, 15, 40), bottom: (40, 60, 110), sun: (235, 235, 225), mountain: (15, 20, 35), water: (10, 20, 50)),
        Palette(top: (120, 160, 200), bottom: (240, 225, 200), sun: (255, 255, 240), mountain: (110, 100, 90), water: (80, 110, 130)),
        Palette(top: (200, 90, 80), bottom: (255, 200, 120), sun: (255, 245, 200), mountain: (90, 40, 40), water: (120, 60, 60)),
    ]

    /// A mountain ridge: for each column, the row where the mountain starts, by midpoint
    /// displacement.
    private static func ridge(width: Int, base: Double, roughness: Double, using random: inout SeededGenerator) -> [Double] {
        var size = 1
        while size < width { size *= 2 }
        var heights = [Double](repeating: base, count: size + 1)
        heights[0] = base + Double.random(in: -roughness...roughness, using: &random)
        heights[size] = base + Double.random(in: -roughness...roughness, using: &random)
        var step = size
        var spread = roughness
        while step > 1 {
            for start in stride(from: 0, to: size, by: step) {
                let middle = start + step / 2
                heights[middle] = (heights[start] + heights[start + step]) / 2 + Double.random(in: -spread...spread, using: &random)
            }
            step /= 2
            spread *= 0.55
        }
        return Array(heights.prefix(width))
    }

    private static func mix(_ a: RGB, _ b: RGB, _ t: Double) -> RGB {
        let t = min(1, max(0, t))
        return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }
}
