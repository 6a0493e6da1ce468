import Thumbnails

/// A picture drawn over the cells at the terminal's pixel resolution (kitty graphics, sixel):
/// where it is (its spot: a list row, an article's figure), which image it is, its pixels and
/// its box in cells.
public struct OverlaidPicture<Spot: Hashable, Image: Hashable> {
    /// Where the picture is: a spot shows one picture at a time, moved as the spot moves.
    public var spot: Spot
    /// Which picture: a terminal that keeps images is sent each key once.
    public var image: Image
    /// The pixels, at the size they are shown (one image pixel per screen pixel).
    public var pixels: PixelBuffer
    /// The top left cell of the picture's box, which may be above or below `clip`.
    public var row: Int
    public var column: Int
    /// The box in cells: the picture is centred in it.
    public var columns: Int
    public var rows: Int
    /// The screen rows the picture may cover.
    public var clip: Range<Int>

    public init(spot: Spot, image: Image, pixels: PixelBuffer, row: Int, column: Int, columns: Int, rows: Int, clip: Range<Int>) {
        self.spot = spot
        self.image = image
        self.pixels = pixels
        self.row = row
        self.column = column
        self.columns = columns
        self.rows = rows
        self.clip = clip
    }

    /// What of the picture is on screen, in cells of `cellSize`: the screen pixel of its left
    /// edge and of its first visible row, and which of its rows of pixels show; nil when none
    /// of it is inside `clip` (or it has no pixels).
    public func visibleArea(cellSize: CellPixelSize) -> (left: Int, top: Int, sourceRows: Range<Int>)? {
        let (width, height) = (pixels.width, pixels.height)
        guard width > 0, height > 0 else { return nil }
        // The picture centred in its box, in screen pixels.
        let left = column * cellSize.width + max(0, columns * cellSize.width - width) / 2
        let top = row * cellSize.height + max(0, rows * cellSize.height - height) / 2
        let visibleTop = max(top, clip.lowerBound * cellSize.height)
        let visibleBottom = min(top + height, clip.upperBound * cellSize.height)
        guard visibleBottom > visibleTop, left >= 0 else { return nil }
        return (left, visibleTop, (visibleTop - top)..<(visibleBottom - top))
    }
}
