import Thumbnails

/// Pictures drawn over the cells through kitty's direct placements, frame after frame: for
/// terminals with the kitty graphics protocol but no Unicode placeholders (kitty before 0.28,
/// WezTerm).
///
/// Each frame the caller lists the pictures on screen; ``frame(_:into:)`` returns the bytes that make
/// the terminal show exactly those. A picture's pixels are sent once per image key and kept in
/// the terminal (at most ``KittyImageIDs/capacity`` of them, the least recently shown deleted
/// first); after that, showing it costs a placement of about fifty bytes, and only when it
/// moved. A picture that left the screen has its placement deleted. Pictures are clipped to
/// the rows the caller allows (the list's band, so never over its title bar or status line)
/// by cropping the source rectangle, at pixel precision.
///
/// The cells under a picture should be blank: placements are drawn above text. Everything is
/// written with the cursor saved and restored (`ESC 7`, `ESC 8`), so a renderer that tracks the
/// cursor is not misled.
public struct KittyPlacements<Spot: Hashable, Image: Hashable>: PicturePlacing {
    /// A picture to show.
    public typealias Picture = OverlaidPicture<Spot, Image>

    /// Where a placement is now, to place it again only when it moved.
    struct Placement: Equatable {
        var image: Int
        var id: Int
        var row: Int
        var column: Int
        var offsetX: Int
        var offsetY: Int
        var sourceY: Int
        var sourceHeight: Int
    }

    /// The size of a cell in pixels, which maps pictures to cells.
    public var cellSize: CellPixelSize
    /// Whether every command is wrapped for tmux's passthrough. The placements go to the
    /// terminal's cursor, not the pane's: usable only where the pane's cursor is the terminal's.
    public var throughTmux: Bool
    /// Whether pictures are sent zlib-compressed: fewer bytes, more time to send a picture.
    public var compresses: Bool
    private var images: KittyImageIDs<Image>
    private var placed: [Spot: Placement] = [:]
    private var nextPlacement = 1

    /// No picture shown yet, in cells of `cellSize`, holding at most `capacity` images and
    /// `byteBudget` bytes of their pixels in the terminal (by default 64 MB, a fifth of kitty's
    /// own quota).
    public init(cellSize: CellPixelSize, capacity: Int = 128, byteBudget: Int = 64 << 20, throughTmux: Bool = false,
                compresses: Bool = false) {
        self.cellSize = cellSize
        self.throughTmux = throughTmux
        self.compresses = compresses
        images = KittyImageIDs(capacity: capacity, byteBudget: byteBudget)
    }

    /// Shows `pictures`, and only them, after the cells: new images sent, moved ones placed
    /// again, the ones no longer listed removed. Empty when nothing changed; `buffer` is left
    /// as it is.
    ///
    /// - Complexity: O(pictures + placed), plus the pixels of new images.
    public mutating func frame(_ pictures: [Picture], into buffer: inout CellBuffer) -> PictureFrame {
        PictureFrame(after: placements(pictures))
    }

    /// The screen lost its pictures: every image is deleted, to be sent again.
    public mutating func invalidate() -> [UInt8] {
        deleteAll()
    }

    private mutating func placements(_ pictures: [Picture]) -> [UInt8] {
        var out: [UInt8] = []
        var shown: Set<Spot> = []
        for picture in pictures where !shown.contains(picture.spot) {
            guard let geometry = geometry(of: picture) else { continue }
            let (id, isNew, evicted) = images.id(for: picture.image, bytes: picture.pixels.width * picture.pixels.height * 4)
            for gone in evicted {
                out += command(KittyGraphics.deleteImage(id: gone))
                // Its placements went with it.
                placed = placed.filter { $0.value.image != gone }
            }
            if isNew { out += command(KittyGraphics.transmitOnly(picture.pixels, id: id, compressed: compresses)) }
            shown.insert(picture.spot)
            var placement = geometry
            placement.image = id
            if let old = placed[picture.spot] {
                placement.id = old.id
                if old == placement { continue }
                if old.image != id { out += command(KittyGraphics.deletePlacement(id: old.image, placement: old.id)) }
            } else {
                placement.id = nextPlacement
                nextPlacement = nextPlacement % 0xFF_FFFF + 1
            }
            placed[picture.spot] = placement
            var move = EscapeSequenceWriter()
            move.moveCursor(row: placement.row, column: placement.column)
            out += move.bytes
            out += command(KittyGraphics.place(
                id: id, placement: placement.id, offsetX: placement.offsetX, offsetY: placement.offsetY,
                sourceY: placement.sourceY, sourceWidth: picture.pixels.width, sourceHeight: placement.sourceHeight))
        }
        for (spot, placement) in placed where !shown.contains(spot) {
            out += command(KittyGraphics.deletePlacement(id: placement.image, placement: placement.id))
            placed[spot] = nil
        }
        return EscapeSequenceWriter.keepingCursor(out)
    }

    /// The bytes that delete every image this terminal holds from us, for the end of a session.
    public mutating func deleteAll() -> [UInt8] {
        // By id: `d=A` frees only the images placed on screen, not those held for later or
        // shown through placeholders.
        let held = images.heldIDs
        placed = [:]
        images = KittyImageIDs(capacity: images.capacity, byteBudget: images.byteBudget)
        return held.flatMap { command(KittyGraphics.deleteImage(id: $0)) }
    }

    /// Where `picture` lands, cropped to its clip; nil when none of it is inside.
    private func geometry(of picture: Picture) -> Placement? {
        guard let area = picture.visibleArea(cellSize: cellSize) else { return nil }
        return Placement(
            image: 0, id: 0, row: area.top / cellSize.height, column: area.left / cellSize.width, offsetX: area.left % cellSize.width,
            offsetY: area.top % cellSize.height, sourceY: area.sourceRows.lowerBound, sourceHeight: area.sourceRows.count)
    }

    private func command(_ bytes: [UInt8]) -> [UInt8] {
        throughTmux ? KittyGraphics.tmuxPassthrough(commands: bytes) : bytes
    }
}
