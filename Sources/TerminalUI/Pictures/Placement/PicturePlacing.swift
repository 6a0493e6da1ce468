/// Cells on one row.
public struct CellSpan: Hashable, Sendable {
    public var row: Int
    public var columns: Range<Int>

    public init(row: Int, columns: Range<Int>) {
        self.row = row
        self.columns = columns
    }
}

/// What a placer writes around one frame of cells, whatever the way pictures are drawn.
public struct PictureFrame: Equatable, Sendable {
    /// Written before the cells: images that placeholder cells show (kitty's placeholders),
    /// erasing the pictures that moved or left (sixel, iTerm2), freeing what a lost screen held.
    public var before: [UInt8]
    /// Cells a picture covered: the renderer draws them again (`FrameRenderer.forget`).
    public var stale: [CellSpan]
    /// Written after the cells: placements over them (kitty), new and moved pictures (sixel,
    /// iTerm2).
    public var after: [UInt8]

    public init(before: [UInt8] = [], stale: [CellSpan] = [], after: [UInt8] = []) {
        self.before = before
        self.stale = stale
        self.after = after
    }

    /// Whether the frame writes nothing and leaves every cell as the renderer has it.
    public var isEmpty: Bool { before.isEmpty && stale.isEmpty && after.isEmpty }
}

/// Pictures drawn over a terminal's cells at pixel resolution, frame after frame: kitty's
/// placements (``KittyPlacements``) or Unicode placeholders (``KittyPlaceholders``), sixel and
/// iTerm2 images (``InlinePlacements``). A reader holds one placer, whichever the terminal
/// speaks, and draws a frame the same way with any:
///
/// ```swift
/// var frame = placer.frame(pictures, into: &cells)   // placeholders write into the cells
/// renderer.forget(frame.stale.map { ($0.row, $0.columns) })
/// terminal.write(frame.before + renderer.render(cells) + frame.after)
/// ```
///
/// The cells under a picture drawn over them should be blank (``PictureState/overlaid``).
public protocol PicturePlacing<Spot, Image> {
    /// Where a picture stands (a row's box, an article's figure): a picture that keeps its
    /// spot and place costs nothing the next frame.
    associatedtype Spot: Hashable
    /// What a picture shows: equal images are sent to the terminal once where it keeps them.
    associatedtype Image: Hashable

    /// The frame that makes the terminal show `pictures`, and only them. A placer whose
    /// pictures are text writes them into `buffer`; the others leave it as it is.
    mutating func frame(_ pictures: [OverlaidPicture<Spot, Image>], into buffer: inout CellBuffer) -> PictureFrame

    /// The screen was cleared or given back (a repaint, a resize, a suspend): the next frame
    /// draws every picture again. Returns the bytes that free what the terminal may still hold.
    mutating func invalidate() -> [UInt8]

    /// The bytes that free everything the terminal holds from this placer: at the end of a
    /// session, or before another placer takes over.
    mutating func deleteAll() -> [UInt8]
}
