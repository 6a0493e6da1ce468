/// What a picture's box shows: a placeholder while its image loads, the picture, or a mark
/// that it failed.
public enum PictureState: Hashable, Sendable {
    /// The image is on its way: the box shows a light shade, so the layout is already there.
    case loading
    /// The picture, centred in its box.
    case loaded(HalfBlockPicture)
    /// The image could not be had: the box shows a cross in its middle.
    case failed
    /// The picture is drawn over the cells at pixel resolution (``KittyPlacements``,
    /// ``InlinePlacements``): the box
    /// is left blank under it.
    case overlaid
}

extension CellBuffer {
    /// Draws `state` in the box of `columns` × `rows` cells at `row`, `column`, clipped to the
    /// buffer. A picture smaller than the box is centred, the rest of the box left blank.
    public mutating func draw(_ state: PictureState, row: Int, column: Int, columns: Int, rows: Int) {
        switch state {
        case .loading:
            fill(row: row, column: column, width: columns, height: rows, with: Cell("░", style: CellStyle(foreground: .indexed(240))))
        case .failed:
            fill(row: row, column: column, width: columns, height: rows, with: Cell(" ", style: CellStyle(background: .indexed(236))))
            let middle = (row + rows / 2, column + columns / 2)
            if contains(row: middle.0, column: middle.1) {
                set(Cell("✕", style: CellStyle(foreground: .indexed(203), background: .indexed(236))), row: middle.0, column: middle.1)
            }
        case .overlaid:
            fill(row: row, column: column, width: columns, height: rows, with: .blank)
        case .loaded(let picture):
            fill(row: row, column: column, width: columns, height: rows, with: .blank)
            draw(picture, row: row + max(0, rows - picture.rows) / 2, column: column + max(0, columns - picture.columns) / 2)
        }
    }

    /// Draws `picture` with its top left cell at `row`, `column`, clipped to the buffer.
    /// - Complexity: O(the picture's cells).
    public mutating func draw(_ picture: HalfBlockPicture, row: Int, column: Int) {
        for y in 0..<picture.rows where row + y >= 0 && row + y < rows {
            for x in 0..<picture.columns where column + x >= 0 && column + x < columns {
                place(picture.cells[y * picture.columns + x], row: row + y, column: column + x)
            }
        }
    }
}
