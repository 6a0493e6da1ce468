import Thumbnails

/// Pictures drawn inline over the cells, frame after frame: as sixel images, for xterm
/// (`-ti vt340`), foot, mlterm, Konsole, contour and the other terminals with sixel but not
/// kitty graphics, or as iTerm2 inline images (iTerm2, WezTerm).
///
/// Such pixels belong to the terminal's screen, not to any cell: a picture stays where it was
/// drawn until something erases it. So each frame, ``frame(_:into:)`` works out which pictures
/// are new, moved, cropped differently or gone. It erases the cells each of those covered
/// (``PictureFrame/before``, `ECH`, which takes the pixels with the cells), names those cells
/// so the renderer draws them again (``PictureFrame/stale``), and draws the new and moved
/// pictures (``PictureFrame/after``) after the renderer's output. A picture that stays put costs nothing, and
/// one that moves costs its whole image again: the bytes of a fling are the pictures it moves.
///
/// The renderer must not scroll regions (`FrameRenderer.Options.scrollsRegions` off): a
/// terminal scrolls sixel pixels with the text, which would leave pictures where no cell says.
/// Pictures are clipped to the rows the caller allows by drawing only their rows inside, and
/// aligned to the pixel inside their first cell by transparent margins.
public struct InlinePlacements<Spot: Hashable, Image: Hashable>: PicturePlacing {
    /// A picture to show.
    public typealias Picture = OverlaidPicture<Spot, Image>

    /// Where a picture is drawn and what of it.
    struct Shown: Equatable {
        var image: Image
        var row: Int
        var column: Int
        /// Transparent pixels above and left of the picture inside its first cell.
        var padTop: Int
        var padLeft: Int
        /// The rows of the picture's pixels drawn.
        var sourceRows: Range<Int>
        /// The cells it covers.
        var rows: Range<Int>
        var columns: Range<Int>

        func intersects(_ other: Shown) -> Bool {
            rows.overlaps(other.rows) && columns.overlaps(other.columns)
        }
    }

    /// How pictures are written.
    public enum Encoding: Sendable, Hashable {
        /// Sixel, its colours reduced to 256 by `palette`.
        case sixel(Sixel.Palette)
        /// iTerm2 inline images (PNG).
        case iterm
    }

    /// The size of a cell in pixels, which maps pictures to cells.
    public var cellSize: CellPixelSize
    /// How pictures are written.
    public var encoding: Encoding
    private var shown: [Spot: Shown] = [:]
    /// The bytes of the pictures drawn whole, by image and margins, kept while shown.
    private var encoded: [EncodedKey: [UInt8]] = [:]
    /// Each sixel picture's colours and pixels' indices, kept while shown.
    private var quantized: [Image: (colors: [RGB], indices: [Int16])] = [:]

    struct EncodedKey: Hashable {
        var image: Image
        var padTop: Int
        var padLeft: Int
    }

    /// No picture shown yet, in cells of `cellSize`, written as `encoding` says.
    public init(cellSize: CellPixelSize, encoding: Encoding = .sixel(.adaptive(maxColors: 256))) {
        self.cellSize = cellSize
        self.encoding = encoding
    }

    /// The writes that make the screen show `pictures`, and only them: before the cells,
    /// erasing the pictures that moved or left; the cells erased, for the renderer to draw
    /// again; after the cells, the pictures that are new or moved. `buffer` is left as it is.
    ///
    /// - Complexity: O(pictures + shown), plus encoding the pixels of the pictures drawn.
    public mutating func frame(_ pictures: [Picture], into buffer: inout CellBuffer) -> PictureFrame {
        var next: [Spot: Shown] = [:]
        var pixels: [Spot: PixelBuffer] = [:]
        for picture in pictures where next[picture.spot] == nil {
            guard let area = picture.visibleArea(cellSize: cellSize) else { continue }
            let (row, padTop) = (area.top / cellSize.height, area.top % cellSize.height)
            let (column, padLeft) = (area.left / cellSize.width, area.left % cellSize.width)
            let rowCount = (padTop + area.sourceRows.count + cellSize.height - 1) / cellSize.height
            let columnCount = (padLeft + picture.pixels.width + cellSize.width - 1) / cellSize.width
            next[picture.spot] = Shown(image: picture.image, row: row, column: column, padTop: padTop, padLeft: padLeft,
                                       sourceRows: area.sourceRows, rows: row..<(row + rowCount), columns: column..<(column + columnCount))
            pixels[picture.spot] = picture.pixels
        }
        var frame = PictureFrame()
        var erased: [Shown] = []
        for (spot, old) in shown where next[spot] != old {
            erased.append(old)
            for row in old.rows {
                frame.stale.append(CellSpan(row: row, columns: old.columns))
                var out = EscapeSequenceWriter()
                out.moveCursor(row: row, column: old.column)
                out.csi(old.columns.count, 0x58)
                frame.before += out.bytes
            }
        }
        // Pictures to draw: the new and moved ones, and any an erased area cut into.
        var keys: Set<EncodedKey> = []
        for (spot, new) in next.sorted(by: { ($0.value.row, $0.value.column) < ($1.value.row, $1.value.column) }) {
            let key = EncodedKey(image: new.image, padTop: new.padTop, padLeft: new.padLeft)
            keys.insert(key)
            guard shown[spot] != new || erased.contains(where: { $0.intersects(new) }) else { continue }
            var out = EscapeSequenceWriter()
            out.moveCursor(row: new.row, column: new.column)
            frame.after += out.bytes
            let picture = pixels[spot]!
            let whole = new.sourceRows.count == picture.height
            if whole, let bytes = encoded[key] {
                frame.after += bytes
                continue
            }
            let bytes: [UInt8]
            switch encoding {
            case .sixel(let palette):
                // One palette per picture, so a picture cropped at the band's edge keeps its
                // colours, and its crops cost no quantising.
                let colors = quantized[new.image] ?? Sixel.quantize(picture, palette: palette)
                quantized[new.image] = colors
                let (width, height, indices) = Self.framed(colors.indices, width: picture.width, new)
                bytes = Sixel.encode(width: width, height: height, colors: colors.colors, indices: indices)
            case .iterm:
                bytes = ITermImages.encode(Self.framed(picture, new))
            }
            if whole { encoded[key] = bytes }
            frame.after += bytes
        }
        encoded = encoded.filter { keys.contains($0.key) }
        let images = Set(next.values.map(\.image))
        quantized = quantized.filter { images.contains($0.key) }
        shown = next
        frame.before = EscapeSequenceWriter.keepingCursor(frame.before)
        frame.after = EscapeSequenceWriter.keepingCursor(frame.after)
        return frame
    }

    /// Forgets what is shown, without erasing it: after the screen was cleared whole (a
    /// repaint, a resize, the terminal given back), every picture is drawn again. The pixels
    /// belong to the screen: nothing is left to free.
    public mutating func invalidate() -> [UInt8] {
        shown = [:]
        return []
    }

    /// Forgets every picture and what was kept of them: the terminal holds no image of ours
    /// (its pixels went with the screen's cells).
    public mutating func deleteAll() -> [UInt8] {
        shown = [:]
        encoded = [:]
        quantized = [:]
        return []
    }

    /// A quantised picture's rows `shown.sourceRows`, behind transparent margins (-1) that put
    /// its first pixel where it belongs inside its first cell.
    static func framed(_ indices: [Int16], width pictureWidth: Int, _ shown: Shown) -> (width: Int, height: Int, indices: [Int16]) {
        let width = shown.padLeft + pictureWidth
        let height = shown.padTop + shown.sourceRows.count
        if shown.padTop == 0, shown.padLeft == 0, shown.sourceRows.count * pictureWidth == indices.count {
            return (width, height, indices)
        }
        var framed = [Int16](repeating: -1, count: width * height)
        for (index, sourceRow) in shown.sourceRows.enumerated() {
            let from = sourceRow * pictureWidth
            let to = (shown.padTop + index) * width + shown.padLeft
            framed.replaceSubrange(to..<(to + pictureWidth), with: indices[from..<(from + pictureWidth)])
        }
        return (width, height, framed)
    }

    /// `picture`'s rows `shown.sourceRows`, behind transparent margins that put its first
    /// pixel where it belongs inside its first cell.
    static func framed(_ picture: PixelBuffer, _ shown: Shown) -> PixelBuffer {
        if shown.padTop == 0, shown.padLeft == 0, shown.sourceRows.count == picture.height { return picture }
        let width = shown.padLeft + picture.width
        let height = shown.padTop + shown.sourceRows.count
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for (index, sourceRow) in shown.sourceRows.enumerated() {
            let from = sourceRow * picture.bytesPerRow
            let to = ((shown.padTop + index) * width + shown.padLeft) * 4
            bytes.replaceSubrange(to..<(to + picture.width * 4), with: picture.bytes[from..<(from + picture.width * 4)])
        }
        return PixelBuffer(width: width, height: height, bytesPerRow: width * 4, bytes: bytes)
    }

}
