/// Nearest palette colours, measured in OKLab.
enum ColorQuantizer {
    /// The xterm 256-colour palette: 16 theme colours (xterm's defaults), the 6 × 6 × 6 cube,
    /// then 24 greys.
    static let xterm256: [RGB] = {
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        var palette = xterm16
        for red in levels {
            for green in levels {
                for blue in levels { palette.append(RGB(red: red, green: green, blue: blue)) }
            }
        }
        for step in 0..<24 {
            let grey = UInt8(8 + 10 * step)
            palette.append(RGB(red: grey, green: grey, blue: grey))
        }
        return palette
    }()

    /// xterm's default 16 theme colours.
    static let xterm16: [RGB] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ].map { RGB(red: $0.0, green: $0.1, blue: $0.2) }

    private static let lab256: [OKLab] = xterm256.map(OKLab.init)

    /// The index (16–255) of the palette entry nearest `color`.
    ///
    /// - Complexity: O(1): 240 distances.
    static func nearest256(_ color: RGB) -> UInt8 {
        UInt8(nearest(OKLab(color), in: lab256, from: 16))
    }

    /// The index (0–15) of the theme colour nearest `color`, assuming xterm's default theme.
    static func nearest16(_ color: RGB) -> UInt8 {
        UInt8(nearest(OKLab(color), in: lab256[0..<16], from: 0))
    }

    private static func nearest(_ target: OKLab, in palette: ArraySlice<OKLab>, from start: Int) -> Int {
        var best = start
        var bestDistance = Float.infinity
        for index in start..<palette.endIndex {
            let distance = palette[index].squaredDistance(to: target)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }

    private static func nearest(_ target: OKLab, in palette: [OKLab], from start: Int) -> Int {
        nearest(target, in: palette[...], from: start)
    }
}
