import Thumbnails

/// A picture drawn in terminal cells with the upper half block `▀` (U+2580): its foreground
/// is the upper pixel, its background the lower, so each cell shows two pixels stacked.
///
/// Pixels are area-averaged in linear light (see ``init(_:columns:rows:matte:)``). Transparency
/// shows the terminal's own background: a cell whose upper pixel is transparent uses the lower
/// half block `▄` instead, and one with both transparent is blank. Partly transparent pixels
/// are blended over `matte` first.
///
/// Colours are 24-bit; ``FrameRenderer`` and ``CellBuffer/inlineText(colorMode:)`` bring them
/// to the terminal's ``ColorMode``.
public struct HalfBlockPicture: Hashable, Sendable {
    /// The width in cells.
    public let columns: Int
    /// The height in cells.
    public let rows: Int
    /// The cells, row by row.
    public let cells: [Cell]

    /// `image` stretched to exactly `columns` × `rows` cells (`columns` × `2 rows` pixels).
    ///
    /// A pixel that averages to less than half opaque counts as transparent; one more opaque
    /// than that is blended over `matte` by its alpha.
    /// - Precondition: `columns` and `rows` are positive.
    /// - Complexity: about one pass over the image's pixels.
    public init(_ image: PixelBuffer, columns: Int, rows: Int, matte: RGB = RGB(red: 0, green: 0, blue: 0)) {
        precondition(columns > 0 && rows > 0, "a picture takes at least one cell")
        let pixels = LinearAreaResampler.resample(image, width: columns, height: rows * 2)
        let matteLight = SIMD3<Float>(SRGB.linear(matte.red), SRGB.linear(matte.green), SRGB.linear(matte.blue))
        func color(_ pixel: SIMD4<Float>) -> TerminalColor? {
            guard pixel.w >= 0.5 else { return nil }
            let light = SIMD3(pixel.x, pixel.y, pixel.z) * pixel.w + matteLight * (1 - pixel.w)
            return .rgb(SRGB.encode(light.x), SRGB.encode(light.y), SRGB.encode(light.z))
        }
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let upper = color(pixels[(row * 2) * columns + column])
                let lower = color(pixels[(row * 2 + 1) * columns + column])
                switch (upper, lower) {
                case let (upper?, lower?):
                    cells.append(Cell(grapheme: "▀", style: CellStyle(foreground: upper, background: lower), width: 1))
                case let (upper?, nil):
                    cells.append(Cell(grapheme: "▀", style: CellStyle(foreground: upper), width: 1))
                case let (nil, lower?):
                    cells.append(Cell(grapheme: "▄", style: CellStyle(foreground: lower), width: 1))
                case (nil, nil):
                    cells.append(.blank)
                }
            }
        }
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    /// A picture of `cells`, already made.
    init(columns: Int, rows: Int, cells: [Cell]) {
        precondition(cells.count == columns * rows, "a picture has one cell per column and row")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    /// `image` fitted inside `maxColumns` × `maxRows` cells with its aspect ratio kept, as
    /// seen on a terminal whose cells are `cellSize`.
    public init(_ image: PixelBuffer, fittingColumns maxColumns: Int, rows maxRows: Int, cellSize: CellPixelSize = .assumed, matte: RGB = RGB(red: 0, green: 0, blue: 0)) {
        let size = Self.fittedSize(imageWidth: image.width, imageHeight: image.height, maxColumns: maxColumns, maxRows: maxRows, cellSize: cellSize)
        self.init(image, columns: size.columns, rows: size.rows, matte: matte)
    }

    /// The cells an image of `imageWidth` × `imageHeight` pixels takes when fitted inside
    /// `maxColumns` × `maxRows` cells with its aspect ratio kept: as wide as allowed unless
    /// that makes it too tall. Never less than one cell either way.
    /// - Precondition: every size is positive.
    public static func fittedSize(imageWidth: Int, imageHeight: Int, maxColumns: Int, maxRows: Int, cellSize: CellPixelSize = .assumed) -> (columns: Int, rows: Int) {
        precondition(imageWidth > 0 && imageHeight > 0 && maxColumns > 0 && maxRows > 0, "sizes must be positive")
        // The image's height in cells per cell of width.
        let rowsPerColumn = Double(imageHeight) / Double(imageWidth) * Double(cellSize.width) / Double(cellSize.height)
        let rows = Double(maxColumns) * rowsPerColumn
        if rows <= Double(maxRows) {
            return (maxColumns, max(1, Int(rows.rounded())))
        }
        return (max(1, min(maxColumns, Int((Double(maxRows) / rowsPerColumn).rounded()))), maxRows)
    }
}
