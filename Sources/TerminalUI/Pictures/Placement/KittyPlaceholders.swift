import Thumbnails

/// Pictures drawn as text through kitty's Unicode placeholders, frame after frame: for
/// terminals that have them (kitty 0.28 and later, Ghostty), and inside tmux, which passes the
/// images through (`allow-passthrough`) and keeps the placeholders as the text they are.
///
/// Each picture's pixels are sent once, with a virtual placement the size of its box, under an
/// id from ``KittyImageIDs`` (at most ``KittyImageIDs/capacity`` pictures and a byte budget,
/// the least recently shown deleted first). Showing it is then only text: each cell of its box
/// gets U+10EEEE with the diacritics of its row and column, in the id's colour
/// (``KittyGraphics/placeholders(id:columns:rows:)``). So a picture scrolls with the text,
/// through scroll regions and tmux's panes, the renderer's diff sends only the cells that
/// changed, and a picture that left the screen needs no command at all: its cells were drawn
/// over.
///
/// Cropping is by cells: the rows of a box outside its clip are not drawn, and the terminal
/// shows the rows that are. The terminal fits and centres the picture in its box.
public struct KittyPlaceholders<Spot: Hashable, Image: Hashable>: PicturePlacing {
    /// A picture to show.
    public typealias Picture = OverlaidPicture<Spot, Image>

    /// Whether the images are sent through tmux's passthrough (the placeholders are text, and
    /// need nothing).
    public var throughTmux: Bool
    /// Whether pictures are sent zlib-compressed: fewer bytes, more time to send a picture.
    public var compresses: Bool
    /// The top byte of every id this instance uses (the third diacritic): tmux's panes share
    /// one kitty window, and two readers in two panes must not replace each other's pictures.
    public let idTopByte: Int
    private var images: KittyImageIDs<Image>
    /// The placeholder cells of each held image (by its full id) in the box of its virtual
    /// placement: sent again if a box changes; made once, not at every frame.
    private var boxes: [Int: (columns: Int, rows: Int, cells: [Cell])] = [:]

    /// No picture sent yet, holding at most `capacity` images and `byteBudget` bytes of their
    /// pixels in the terminal (by default 64 MB, a fifth of kitty's own quota), under ids whose
    /// top byte is `idTopByte` (by default a random one).
    /// - Precondition: `capacity` is 1...255, the ids a placeholder's colour can name, and
    ///   `idTopByte` is below ``KittyGraphics/maxCells``.
    public init(capacity: Int = 128, byteBudget: Int = 64 << 20, throughTmux: Bool = false, compresses: Bool = false,
                idTopByte: Int = Int.random(in: 1..<KittyGraphics.maxCells)) {
        precondition((0..<KittyGraphics.maxCells).contains(idTopByte), "a placeholder's third diacritic names 0 to \(KittyGraphics.maxCells - 1)")
        self.throughTmux = throughTmux
        self.compresses = compresses
        self.idTopByte = idTopByte
        images = KittyImageIDs(capacity: capacity, byteBudget: byteBudget)
    }

    /// The id an image held under `low` (1...255) has in the terminal.
    private func fullID(_ low: Int) -> Int { idTopByte << 24 | low }

    /// Draws `pictures` into `buffer` as placeholder cells, over whatever the cells held (their
    /// background stays); the frame's bytes go before the cells: the images new to the
    /// terminal, and the deletions of those evicted to make room.
    ///
    /// - Complexity: O(cells of the pictures' boxes), plus the pixels of new images.
    public mutating func frame(_ pictures: [Picture], into buffer: inout CellBuffer) -> PictureFrame {
        PictureFrame(before: images(pictures, into: &buffer))
    }

    /// The screen was given away and its images may be gone: every image is deleted, to be
    /// sent again.
    public mutating func invalidate() -> [UInt8] {
        deleteAll()
    }

    private mutating func images(_ pictures: [Picture], into buffer: inout CellBuffer) -> [UInt8] {
        var out: [UInt8] = []
        var drawn: Set<Spot> = []
        for picture in pictures where !drawn.contains(picture.spot) {
            let (columns, rows) = (min(picture.columns, KittyGraphics.maxCells), min(picture.rows, KittyGraphics.maxCells))
            let (top, bottom) = (max(picture.row, picture.clip.lowerBound, 0), min(picture.row + rows, picture.clip.upperBound, buffer.rows))
            guard columns > 0, rows > 0, (0..<buffer.columns).contains(picture.column), top < bottom,
                  picture.pixels.width > 0, picture.pixels.height > 0 else { continue }
            drawn.insert(picture.spot)
            let (low, isNew, evicted) = images.id(for: picture.image, bytes: picture.pixels.width * picture.pixels.height * 4)
            let id = fullID(low)
            for gone in evicted.map(fullID) {
                out += command(KittyGraphics.deleteImage(id: gone))
                boxes[gone] = nil
            }
            if isNew || boxes[id].map({ ($0.columns, $0.rows) != (columns, rows) }) ?? true {
                out += command(KittyGraphics.transmit(picture.pixels, id: id, columns: columns, rows: rows, compressed: compresses))
                boxes[id] = (columns, rows, KittyGraphics.placeholders(id: id, columns: columns, rows: rows))
            }
            guard let cells = boxes[id]?.cells else { continue }
            for row in top..<bottom {
                for column in 0..<min(columns, buffer.columns - picture.column) {
                    var cell = cells[(row - picture.row) * columns + column]
                    cell.style.background = buffer[row, picture.column + column].style.background
                    buffer.set(cell, row: row, column: picture.column + column)
                }
            }
        }
        return out
    }

    /// The bytes that delete every image this terminal holds from us: at the end of a session,
    /// or when the screen was given away and its images may be gone.
    public mutating func deleteAll() -> [UInt8] {
        // By id: `d=A` frees only the images placed on screen, not those held for later or
        // shown through placeholders.
        let held = images.heldIDs.map(fullID)
        boxes = [:]
        images = KittyImageIDs(capacity: images.capacity, byteBudget: images.byteBudget)
        return held.flatMap { command(KittyGraphics.deleteImage(id: $0)) }
    }

    private func command(_ bytes: [UInt8]) -> [UInt8] {
        throughTmux ? KittyGraphics.tmuxPassthrough(commands: bytes) : bytes
    }
}
