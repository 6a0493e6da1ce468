#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size of a terminal in cells, and of its cells in pixels when it says.
public struct TerminalSize: Hashable, Sendable {
    /// The width in cells.
    public var columns: Int
    /// The height in cells.
    public var rows: Int
    /// The size of a cell in pixels, if the terminal fills in the pixel fields of its window
    /// size (many do; some leave them 0).
    public var cellPixelSize: CellPixelSize?

    /// A size.
    public init(columns: Int, rows: Int, cellPixelSize: CellPixelSize? = nil) {
        self.columns = columns
        self.rows = rows
        self.cellPixelSize = cellPixelSize
    }

    /// The size of the terminal `fileDescriptor` refers to (TIOCGWINSZ), or nil when it is not
    /// a terminal or reports no size.
    public static func of(fileDescriptor: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        let columns = Int(size.ws_col), rows = Int(size.ws_row)
        let cell = size.ws_xpixel > 0 && size.ws_ypixel > 0
            ? CellPixelSize(width: max(1, Int(size.ws_xpixel) / columns), height: max(1, Int(size.ws_ypixel) / rows))
            : nil
        return TerminalSize(columns: columns, rows: rows, cellPixelSize: cell)
    }
}
