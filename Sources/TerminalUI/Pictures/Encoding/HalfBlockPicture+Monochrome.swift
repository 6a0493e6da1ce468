#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HalfBlockPicture {
    /// The picture for a terminal shown without colour (`NO_COLOR`, ``ColorMode/none``): each
    /// cell a shade, ` ░▒▓█`, by the light its two pixels send, as a light-on-dark terminal
    /// shows it. Half blocks in the default colours would draw a plain rectangle.
    ///
    /// Light is relative luminance, averaged over the cell's two halves in linear light; a
    /// transparent half counts as dark.
    /// - Complexity: O(cells).
    public var monochrome: HalfBlockPicture {
        let shades: [Character] = [" ", "░", "▒", "▓", "█"]
        let cells = cells.map { cell -> Cell in
            let light: Float
            switch cell.grapheme {
            case "▀": light = (Self.luminance(cell.style.foreground) + Self.luminance(cell.style.background)) / 2
            case "▄": light = Self.luminance(cell.style.foreground) / 2
            default:
                // A sextant: its six pixels, so many in the foreground, the rest in the background.
                guard let pattern = Self.sextantPattern(of: cell.grapheme) else { light = 0; break }
                let shown = Float(pattern.nonzeroBitCount)
                light = (Self.luminance(cell.style.foreground) * shown + Self.luminance(cell.style.background) * (6 - shown)) / 6
            }
            // Steps spaced evenly in perceived lightness (L* is about the cube root of Y).
            let index = Int((cbrtf(light) * Float(shades.count - 1)).rounded())
            return Cell(shades[min(max(index, 0), shades.count - 1)])
        }
        return HalfBlockPicture(columns: columns, rows: rows, cells: cells)
    }

    private static func luminance(_ color: TerminalColor) -> Float {
        guard case .rgb(let red, let green, let blue) = color else { return 0 }
        return 0.2126 * SRGB.linear(red) + 0.7152 * SRGB.linear(green) + 0.0722 * SRGB.linear(blue)
    }
}
