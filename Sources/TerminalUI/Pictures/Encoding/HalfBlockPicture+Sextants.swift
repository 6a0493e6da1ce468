import Thumbnails

extension HalfBlockPicture {
    /// How a picture's cells are drawn.
    public enum Glyphs: String, Sendable, CaseIterable {
        /// Upper half blocks (`▀`): two pixels a cell, one above the other, each its own colour.
        case halfBlocks
        /// Sextants (U+1FB00…U+1FB3B, Unicode 13's block mosaics, with `▌`, `▐` and `█`): six
        /// pixels a cell, two across and three down, in the two colours that draw them best,
        /// as chafa draws them. Three times the detail of half blocks, in terminals whose font
        /// has the glyphs (kitty and foot draw them themselves).
        case sextants
    }

    /// `image` stretched to exactly `columns` × `rows` cells drawn with `glyphs`.
    /// - Precondition: `columns` and `rows` are positive.
    public init(_ image: PixelBuffer, columns: Int, rows: Int, glyphs: Glyphs, matte: RGB = RGB(red: 0, green: 0, blue: 0)) {
        switch glyphs {
        case .halfBlocks: self.init(image, columns: columns, rows: rows, matte: matte)
        case .sextants: self.init(sextantsOf: image, columns: columns, rows: rows, matte: matte)
        }
    }

    /// `image` fitted inside `maxColumns` × `maxRows` cells with its aspect ratio kept, drawn
    /// with `glyphs`, as seen on a terminal whose cells are `cellSize`.
    public init(_ image: PixelBuffer, fittingColumns maxColumns: Int, rows maxRows: Int, cellSize: CellPixelSize = .assumed,
                glyphs: Glyphs, matte: RGB = RGB(red: 0, green: 0, blue: 0)) {
        let size = Self.fittedSize(imageWidth: image.width, imageHeight: image.height, maxColumns: maxColumns, maxRows: maxRows, cellSize: cellSize)
        self.init(image, columns: size.columns, rows: size.rows, glyphs: glyphs, matte: matte)
    }

    /// Sextants: each cell's six pixels (area-averaged in linear light) split into the two
    /// groups whose mean colours leave the least squared error, the first drawn in the
    /// foreground, the other in the background. The error is measured on the square roots of
    /// the light, near the eye's scale (in light itself, a difference between dark pixels would
    /// count for nothing); each group's colour is its mean light, as the eye mixes it. Pixels less than half opaque show the
    /// terminal's background: the opaque ones are drawn in their mean colour over it.
    /// - Complexity: O(pixels of the image + 32 × 6 per cell).
    private init(sextantsOf image: PixelBuffer, columns: Int, rows: Int, matte: RGB) {
        precondition(columns > 0 && rows > 0, "a picture takes at least one cell")
        let width = columns * 2
        let pixels = LinearAreaResampler.resample(image, width: width, height: rows * 3)
        let matteLight = SIMD3<Float>(SRGB.linear(matte.red), SRGB.linear(matte.green), SRGB.linear(matte.blue))
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        var light = [SIMD3<Float>](repeating: .zero, count: 6)
        var tone = [SIMD3<Float>](repeating: .zero, count: 6)
        for row in 0..<rows {
            for column in 0..<columns {
                // Bit i of a pattern is the cell's pixel i: left then right, top to bottom.
                var opaque = 0
                for index in 0..<6 {
                    let pixel = pixels[(row * 3 + index / 2) * width + column * 2 + index % 2]
                    light[index] = SIMD3(pixel.x, pixel.y, pixel.z) * pixel.w + matteLight * (1 - pixel.w)
                    tone[index] = light[index].squareRoot()
                    if pixel.w >= 0.5 { opaque |= 1 << index }
                }
                if opaque == 0 {
                    cells.append(.blank)
                    continue
                }
                if opaque != 63 {
                    // The terminal's background where the picture is transparent.
                    let mean = Self.mean(of: light, in: opaque)
                    cells.append(Cell(grapheme: Self.sextant(opaque), style: CellStyle(foreground: Self.color(mean)), width: 1))
                    continue
                }
                var best = (pattern: 63, error: Float.infinity)
                // A pattern and its complement draw the same cell: those with pixel 5 in the
                // foreground are enough, 63 (one colour) included.
                for pattern in 32..<64 {
                    let error = Self.error(of: tone, in: pattern) + Self.error(of: tone, in: 63 ^ pattern)
                    if error < best.error { best = (pattern, error) }
                }
                let foreground = Self.color(Self.mean(of: light, in: best.pattern))
                if best.pattern == 63 {
                    cells.append(Cell(grapheme: "█", style: CellStyle(foreground: foreground), width: 1))
                } else {
                    let background = Self.color(Self.mean(of: light, in: 63 ^ best.pattern))
                    cells.append(Cell(grapheme: Self.sextant(best.pattern), style: CellStyle(foreground: foreground, background: background), width: 1))
                }
            }
        }
        self.init(columns: columns, rows: rows, cells: cells)
    }

    /// The glyph whose foreground covers the pixels of `pattern` (1...63): U+1FB00 onwards in
    /// pattern order, less the three that exist already (`▌` 21, `▐` 42, `█` 63).
    static func sextant(_ pattern: Int) -> Character {
        switch pattern {
        case 21: return "▌"
        case 42: return "▐"
        case 63: return "█"
        default:
            let skipped = (pattern > 21 ? 1 : 0) + (pattern > 42 ? 1 : 0)
            return Character(Unicode.Scalar(UInt32(0x1FB00 + pattern - 1 - skipped))!)
        }
    }

    /// The pattern `glyph` draws in its foreground, if it is a sextant (or `▌`, `▐`, `█`).
    static func sextantPattern(of glyph: Character?) -> Int? {
        switch glyph {
        case "▌": return 21
        case "▐": return 42
        case "█": return 63
        default:
            guard let scalar = glyph?.unicodeScalars.first, glyph?.unicodeScalars.count == 1,
                  (0x1FB00...0x1FB3B).contains(scalar.value) else { return nil }
            var pattern = Int(scalar.value - 0x1FB00) + 1
            if pattern >= 21 { pattern += 1 }
            if pattern >= 42 { pattern += 1 }
            return pattern
        }
    }

    private static func mean(of light: [SIMD3<Float>], in pattern: Int) -> SIMD3<Float> {
        var sum = SIMD3<Float>.zero
        var count: Float = 0
        for index in 0..<6 where pattern & (1 << index) != 0 {
            sum += light[index]
            count += 1
        }
        return count > 0 ? sum / count : .zero
    }

    /// The squared distance of the values of `pattern` from their mean.
    private static func error(of values: [SIMD3<Float>], in pattern: Int) -> Float {
        let mean = mean(of: values, in: pattern)
        var error: Float = 0
        for index in 0..<6 where pattern & (1 << index) != 0 {
            let difference = values[index] - mean
            error += (difference * difference).sum()
        }
        return error
    }

    private static func color(_ light: SIMD3<Float>) -> TerminalColor {
        .rgb(SRGB.encode(light.x), SRGB.encode(light.y), SRGB.encode(light.z))
    }
}
