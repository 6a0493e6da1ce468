import Foundation
import TerminalUI

/// How the reader draws pictures: not at all, in half blocks, or at the terminal's own pixel
/// resolution over blank cells.
package enum PictureMode: Equatable, Sendable {
    /// No pictures (`image_mode = "none"`): no thumbnail box either.
    case none
    /// Half blocks (`▀`) in colour: every terminal.
    case blocks
    /// Sextant mosaics in colour: six pixels a cell, where the font has them.
    case sextants
    /// The kitty graphics protocol, each picture shown in its box (cells of `cellPixels`) as
    /// `placing` says.
    case kitty(cellPixels: CellPixelSize, placing: KittyPlacing)
    /// Sixel images drawn over their boxes (cells of `cellPixels`), drawn again where they move.
    case sixel(cellPixels: CellPixelSize)
    /// iTerm2 inline images (iTerm2, WezTerm), drawn as sixel images are.
    case iterm(cellPixels: CellPixelSize)

    /// How kitty pictures are put in their boxes.
    package enum KittyPlacing: Equatable, Sendable {
        /// Placed over the cells by id, moved and deleted as rows move: kitty before 0.28, WezTerm.
        case direct
        /// Unicode placeholders, text that shows the picture (kitty 0.28 and later, Ghostty),
        /// the images sent through tmux's passthrough when `throughTmux`.
        case placeholders(throughTmux: Bool)
    }

    /// What a terminal is assumed to have when it draws pixels but does not say its cell
    /// size: 10 × 20 pixels.
    package static let assumedCellPixels = CellPixelSize(width: 10, height: 20)

    /// The same way of drawing in cells of `cellPixels`; none and blocks have no cell size.
    package func with(cellPixels: CellPixelSize) -> PictureMode {
        switch self {
        case .kitty(_, let placing): .kitty(cellPixels: cellPixels, placing: placing)
        case .sixel: .sixel(cellPixels: cellPixels)
        case .iterm: .iterm(cellPixels: cellPixels)
        case .none, .blocks, .sextants: self
        }
    }

    /// Whether the renderer may scroll regions of the screen: not under sixel or iTerm2
    /// pictures, which a terminal scrolls with the text.
    package var scrollsRegions: Bool {
        switch self {
        case .sixel, .iterm: false
        case .none, .blocks, .sextants, .kitty: true
        }
    }

    /// The size of a cell in pixels when pictures are pixels; nil otherwise.
    package var cellPixels: CellPixelSize? {
        switch self {
        case .kitty(let cellPixels, _), .sixel(let cellPixels), .iterm(let cellPixels): cellPixels
        case .none, .blocks, .sextants: nil
        }
    }

    /// The glyphs pictures drawn in cells use: sextants when asked for, else half blocks.
    package var glyphs: HalfBlockPicture.Glyphs {
        self == .sextants ? .sextants : .halfBlocks
    }

    /// The mode for the setting `imageMode` in a terminal that answered `capabilities` (nil:
    /// it was not asked), in `environment`, and what to tell the person when the setting
    /// cannot be honoured.
    ///
    /// `auto` takes what ``PictureProtocol/detect(_:environment:)`` finds: kitty graphics, sixel
    /// or iTerm2 images, else half blocks. `kitty`, `sixel` and `iterm` are drawn whatever the
    /// terminal answered.
    ///
    /// kitty pictures are Unicode placeholders where the terminal's version has them, else
    /// direct placements. Inside tmux only placeholders stay in their pane (a direct placement
    /// lands at the outer terminal's cursor, not the pane's): pictures are placeholders when
    /// the terminal outside answered through tmux's passthrough with a version that has them
    /// (or `image_mode` is `kitty`), else half blocks, with a notice that says why where it
    /// draws pictures outside.
    package static func resolve(_ imageMode: ReaderSettings.ImageMode, capabilities: TerminalCapabilities?,
                                environment: [String: String]) -> (mode: PictureMode, notice: String?) {
        let inTmux = environment["TMUX"] != nil
        let outer = capabilities?.outer
        let cellPixels = (inTmux ? outer?.cellPixelSize : nil) ?? capabilities?.cellPixelSize ?? assumedCellPixels
        /// kitty pictures: placeholders where the terminal's version has them, and always
        /// through tmux; else direct placements.
        func kitty() -> PictureMode {
            let placeholders = inTmux || TerminalCapabilities.hasUnicodePlaceholders(version: capabilities?.terminalVersion)
            return .kitty(cellPixels: cellPixels, placing: placeholders ? .placeholders(throughTmux: inTmux) : .direct)
        }
        switch imageMode {
        case .always(.none):
            return (.none, nil)
        case .always(.blocks):
            return (.blocks, nil)
        case .always(.sextants):
            return (.sextants, nil)
        case .always(.kitty):
            return (kitty(), nil)
        case .always(.sixel):
            return (.sixel(cellPixels: cellPixels), nil)
        case .always(.iterm):
            return (.iterm(cellPixels: cellPixels), nil)
        case .auto:
            switch PictureProtocol.detect(capabilities ?? TerminalCapabilities(), environment: environment).0 {
            case .kitty: return (kitty(), nil)
            case .sixel: return (.sixel(cellPixels: cellPixels), nil)
            case .iterm: return (.iterm(cellPixels: cellPixels), nil)
            case .sextants: return (.sextants, nil)
            case .blocks, .none:
                guard inTmux else { return (.blocks, nil) }
                if let outer, outer.kittyGraphics {
                    let name = outer.terminalVersion.map { "\($0) " } ?? "the terminal "
                    return (.blocks, "inside tmux, pictures are half blocks: \(name)outside tmux has no Unicode placeholders (kitty 0.28 or later, Ghostty)")
                }
                let graphicsOutside = environment["KITTY_WINDOW_ID"] != nil || environment.keys.contains { $0.hasPrefix("WEZTERM_") }
                let notice = "inside tmux, pictures are half blocks: kitty pictures need tmux's allow-passthrough"
                return (.blocks, graphicsOutside && outer == nil && capabilities?.askedOutside == true ? notice : nil)
            }
        }
    }
}
