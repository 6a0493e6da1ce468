import Thumbnails

/// Pictures as DEC sixel graphics, which xterm (`-ti vt340`), foot, mlterm, Konsole, contour,
/// WezTerm and Windows Terminal draw at pixel resolution.
///
/// A sixel image is at most 256 colours, so a picture is quantised first: ``Palette/adaptive``
/// (median cut, exact for pictures of up to 256 colours) or ``Palette/cube`` (a fixed 6 × 7 × 6
/// cube with ordered dithering: no palette to compute, and the same colour registers for every
/// picture). The pixels are then written in bands six rows high, one run per colour used in the
/// band, each run-length encoded. Pixels with alpha below half are not drawn at all, so what is
/// behind them shows (the image is sent with P2 = 1).
///
/// Unlike cells, sixel pixels are not text: a terminal scrolls them with the text they overlap,
/// but whatever overwrites their cells erases the pixels under them. A renderer redraws a
/// picture whose cells were drawn over or moved, and never skips one because its cells did
/// not change.
public enum Sixel {
    /// How a picture's colours are reduced to the at most 256 a sixel image has.
    public enum Palette: Sendable, Hashable {
        /// Median cut to at most `maxColors` (2...256) colours, each pixel mapped to the
        /// nearest: a picture of that many colours or fewer keeps them all.
        case adaptive(maxColors: Int)
        /// The 252 colours of a 6 × 7 × 6 RGB cube (seven greens: the eye tells greens apart
        /// best), with 4 × 4 ordered dithering: fastest, and a palette that never changes.
        case cube
    }

    /// The bytes that draw `image` at the cursor, its top-left pixel at the top-left of the
    /// cursor's cell.
    ///
    /// - Complexity: O(pixels × colours in a band) to write, plus O(pixels × log colours)
    ///   to quantise adaptively.
    public static func encode(_ image: PixelBuffer, palette: Palette = .adaptive(maxColors: 256)) -> [UInt8] {
        let (colors, indices) = quantize(image, palette: palette)
        return encode(width: image.width, height: image.height, colors: colors, indices: indices)
    }

    /// A quantised picture: its colours (RGB) and each pixel's index into them, or -1 where it
    /// is transparent.
    package static func quantize(_ image: PixelBuffer, palette: Palette) -> (colors: [RGB], indices: [Int16]) {
        switch palette {
        case .adaptive(let maxColors):
            precondition((2...256).contains(maxColors), "a sixel palette has 2 to 256 colours")
            return MedianCut.quantize(image, maxColors: maxColors)
        case .cube:
            return ditheredCube(image)
        }
    }

    // MARK: Writing

    /// The sixel bytes for `indices` (row-major, -1 transparent) over `colors`.
    ///
    /// Each band is read once, its pixels sorted by colour into a row of bits per colour, and
    /// each colour written over only the columns it spans.
    static func encode(width: Int, height: Int, colors: [RGB], indices: [Int16]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height / 2 + colors.count * 20 + 64)
        // DCS P1=0 (aspect 2:1, overridden by the raster attributes), P2=1 (transparent
        // pixels are left alone), P3=0; q starts the sixel data.
        out += [0x1B, 0x50] + Array("0;1;0q\"1;1;".utf8)
        appendDecimal(width, to: &out)
        out.append(UInt8(ascii: ";"))
        appendDecimal(height, to: &out)
        for (index, color) in colors.enumerated() {
            out.append(UInt8(ascii: "#"))
            appendDecimal(index, to: &out)
            out += Array(";2;".utf8)
            appendDecimal(percent(color.red), to: &out)
            out.append(UInt8(ascii: ";"))
            appendDecimal(percent(color.green), to: &out)
            out.append(UInt8(ascii: ";"))
            appendDecimal(percent(color.blue), to: &out)
        }
        var bits = [UInt8](repeating: 0, count: colors.count * width)
        var first = [Int](repeating: -1, count: colors.count)
        var last = [Int](repeating: -1, count: colors.count)
        var order: [Int] = []
        indices.withUnsafeBufferPointer { indices in
            bits.withUnsafeMutableBufferPointer { bits in
                var band = 0
                while band < height {
                    let rows = min(6, height - band)
                    order.removeAll(keepingCapacity: true)
                    for row in 0..<rows {
                        let start = (band + row) * width
                        let bit: UInt8 = 1 << row
                        for x in 0..<width {
                            let color = Int(indices[start + x])
                            guard color >= 0 else { continue }
                            if last[color] < 0 {
                                order.append(color)
                                first[color] = x
                            }
                            bits[color * width + x] |= bit
                            first[color] = min(first[color], x)
                            last[color] = max(last[color], x)
                        }
                    }
                    for (position, color) in order.enumerated() {
                        out.append(UInt8(ascii: "#"))
                        appendDecimal(color, to: &out)
                        // Empty sixels up to the first column drawn, then runs to the last.
                        appendRun(0x3F, count: first[color], to: &out)
                        let row = color * width
                        var x = first[color]
                        while x <= last[color] {
                            let value = bits[row + x]
                            var run = 1
                            while x + run <= last[color], bits[row + x + run] == value { run += 1 }
                            appendRun(0x3F + value, count: run, to: &out)
                            x += run
                        }
                        for column in first[color]...last[color] { bits[row + column] = 0 }
                        first[color] = -1
                        last[color] = -1
                        // `$` returns to the band's start for the next colour.
                        if position < order.count - 1 { out.append(UInt8(ascii: "$")) }
                    }
                    band += 6
                    // `-` goes down to the next band.
                    if band < height { out.append(UInt8(ascii: "-")) }
                }
            }
        }
        out += [0x1B, 0x5C]
        return out
    }

    /// `count` times `character`: as a repeat (`!count`) when that is shorter.
    private static func appendRun(_ character: UInt8, count: Int, to out: inout [UInt8]) {
        guard count > 0 else { return }
        if count > 3 {
            out.append(UInt8(ascii: "!"))
            appendDecimal(count, to: &out)
            out.append(character)
        } else {
            for _ in 0..<count { out.append(character) }
        }
    }

    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &out) }
        out.append(UInt8(0x30 + value % 10))
    }

    /// A channel as sixel's 0–100 percent, rounded.
    static func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }

    /// Each pixel's palette index, from its column, row and colour; -1 where it is
    /// transparent (alpha below half), which sixel leaves undrawn.
    @inline(__always)
    static func indices(of image: PixelBuffer, _ index: (Int, Int, UInt8, UInt8, UInt8) -> Int16) -> [Int16] {
        var indices = [Int16](repeating: -1, count: image.width * image.height)
        forEachDrawnPixel(of: image) { x, y, red, green, blue in indices[y * image.width + x] = index(x, y, red, green, blue) }
        return indices
    }

    /// Calls `body` with the column, row and colour of every pixel with alpha of half or more.
    @inline(__always)
    static func forEachDrawnPixel(of image: PixelBuffer, _ body: (Int, Int, UInt8, UInt8, UInt8) -> Void) {
        image.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<image.height {
                let row = y * image.bytesPerRow
                for x in 0..<image.width {
                    let pixel = row + x * 4
                    guard bytes[pixel + 3] >= 128 else { continue }
                    body(x, y, bytes[pixel], bytes[pixel + 1], bytes[pixel + 2])
                }
            }
        }
    }

    // MARK: The dithered cube

    /// The cube's levels per channel.
    static let cubeLevels = (red: 6, green: 7, blue: 6)

    /// The 4 × 4 Bayer matrix, as thresholds from -0.5 to 0.5 of a level step.
    private static let bayer: [Double] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map { ($0 + 0.5) / 16 - 0.5 }

    static func ditheredCube(_ image: PixelBuffer) -> (colors: [RGB], indices: [Int16]) {
        let (reds, greens, blues) = cubeLevels
        var colors: [RGB] = []
        for red in 0..<reds {
            for green in 0..<greens {
                for blue in 0..<blues {
                    colors.append(RGB(
                        red: UInt8(red * 255 / (reds - 1)), green: UInt8(green * 255 / (greens - 1)), blue: UInt8(blue * 255 / (blues - 1))))
                }
            }
        }
        // Per threshold and channel value, the level: 16 small tables instead of arithmetic
        // per pixel.
        func table(_ levels: Int) -> [[UInt8]] {
            bayer.map { threshold in
                (0..<256).map { value in
                    let scaled = Double(value) * Double(levels - 1) / 255 + threshold
                    return UInt8(min(max(scaled.rounded(), 0), Double(levels - 1)))
                }
            }
        }
        let redTable = table(reds), greenTable = table(greens), blueTable = table(blues)
        let indices = indices(of: image) { x, y, red, green, blue in
            let cell = (y & 3) * 4 + (x & 3)
            let level = (Int(redTable[cell][Int(red)]) * greens + Int(greenTable[cell][Int(green)])) * blues + Int(blueTable[cell][Int(blue)])
            return Int16(level)
        }
        return (colors, indices)
    }
}

/// Median cut: the picture's colours split, again and again, across the channel in which
/// the box with the most pixels spreads widest, at its median, until there are enough boxes;
/// each box's mean is a palette colour. Colours are counted at 5 bits a channel first, so a
/// thumbnail's few thousand pixels become at most a few thousand distinct entries.
enum MedianCut {
    static func quantize(_ image: PixelBuffer, maxColors: Int) -> (colors: [RGB], indices: [Int16]) {
        // Exact colours when there are few enough: no approximation at all.
        var exact: [UInt32: Int16] = [:]
        var exactColors: [RGB] = []
        var histogram = [UInt32](repeating: 0, count: 1 << 15)
        Sixel.forEachDrawnPixel(of: image) { _, _, red, green, blue in
            histogram[Int(red >> 3) << 10 | Int(green >> 3) << 5 | Int(blue >> 3)] += 1
            if exactColors.count <= maxColors {
                let key = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
                if exact[key] == nil {
                    exact[key] = Int16(exactColors.count)
                    exactColors.append(RGB(red: red, green: green, blue: blue))
                }
            }
        }
        if exactColors.count <= maxColors {
            return (exactColors, mapPixels(image) { exact[UInt32($0.red) << 16 | UInt32($0.green) << 8 | UInt32($0.blue)]! })
        }

        // Boxes of histogram entries (5-bit colours with counts).
        var entries: [(color: Int, count: UInt32)] = []
        for (color, count) in histogram.enumerated() where count > 0 { entries.append((color, count)) }
        var boxes: [Range<Int>] = [0..<entries.count]
        func channel(_ color: Int, _ which: Int) -> Int { color >> (10 - 5 * which) & 31 }
        func spread(_ box: Range<Int>) -> (which: Int, width: Int) {
            var best = (0, -1)
            for which in 0..<3 {
                var low = 31, high = 0
                for entry in entries[box] {
                    let value = channel(entry.color, which)
                    low = min(low, value)
                    high = max(high, value)
                }
                if high - low > best.1 { best = (which, high - low) }
            }
            return best
        }
        // Per box: its pixels and its widest channel, kept as boxes are split.
        func stats(_ box: Range<Int>) -> (pixels: UInt64, which: Int, width: Int) {
            let pixels = entries[box].reduce(UInt64(0)) { $0 + UInt64($1.count) }
            let (which, width) = spread(box)
            return (pixels, which, width)
        }
        var boxStats = [stats(boxes[0])]
        while boxes.count < maxColors {
            // The box to split: the most pixels, weighted by its spread, among those of more
            // than one colour.
            var choice = -1
            var score: UInt64 = 0
            for (index, box) in boxes.enumerated() where box.count > 1 {
                let weighted = boxStats[index].pixels * UInt64(boxStats[index].width + 1)
                if weighted > score {
                    score = weighted
                    choice = index
                }
            }
            guard choice >= 0 else { break }
            let box = boxes[choice]
            let which = boxStats[choice].which
            entries[box].sort { channel($0.color, which) < channel($1.color, which) }
            let total = boxStats[choice].pixels
            var running: UInt64 = 0
            var cut = box.lowerBound + 1
            for index in box {
                running += UInt64(entries[index].count)
                if running * 2 >= total {
                    cut = min(max(index + 1, box.lowerBound + 1), box.upperBound - 1)
                    break
                }
            }
            boxes[choice] = box.lowerBound..<cut
            boxStats[choice] = stats(boxes[choice])
            boxes.append(cut..<box.upperBound)
            boxStats.append(stats(boxes[boxes.count - 1]))
        }
        var colors: [RGB] = []
        var lookup = [Int16](repeating: 0, count: 1 << 15)
        for (index, box) in boxes.enumerated() {
            var sums = (0, 0, 0), total = 0
            for entry in entries[box] {
                let count = Int(entry.count)
                sums.0 += (channel(entry.color, 0) << 3 | 4) * count
                sums.1 += (channel(entry.color, 1) << 3 | 4) * count
                sums.2 += (channel(entry.color, 2) << 3 | 4) * count
                total += count
            }
            colors.append(RGB(red: UInt8(sums.0 / total), green: UInt8(sums.1 / total), blue: UInt8(sums.2 / total)))
            for entry in entries[box] { lookup[entry.color] = Int16(index) }
        }
        return (colors, mapPixels(image) { lookup[Int($0.red >> 3) << 10 | Int($0.green >> 3) << 5 | Int($0.blue >> 3)] })
    }

    /// Each pixel's index by `index`, -1 where it is transparent.
    private static func mapPixels(_ image: PixelBuffer, _ index: (RGB) -> Int16) -> [Int16] {
        Sixel.indices(of: image) { _, _, red, green, blue in index(RGB(red: red, green: green, blue: blue)) }
    }
}
