/// The size of one terminal cell in pixels, which sets the shape of a half-block pixel.
public struct CellPixelSize: Hashable, Sendable {
    /// The cell's width in pixels.
    public var width: Int
    /// The cell's height in pixels.
    public var height: Int

    /// A cell size; only the ratio matters.
    ///
    /// - Precondition: both sides are positive.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a cell has a positive size")
        self.width = width
        self.height = height
    }

    /// What to assume when the terminal does not say: cells twice as tall as wide, the shape
    /// of most terminal fonts, which makes a half block square.
    public static let assumed = CellPixelSize(width: 1, height: 2)
}
