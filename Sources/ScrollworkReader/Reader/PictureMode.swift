import Foundation
import TerminalUI

/// How the reader draws pictures: not at all, in half blocks, or at the terminal's own pixel
/// resolution over blank cells.
package enum PictureMode: Equatable, Sendable {
    /// No pictures (`image_mode = "none"`): no thumbnail box either.
    case none
    /// Half blocks (`▀`) in colour: every terminal.
    case blocks
    /// The kitty graphics protocol, each picture placed over its box (cells of `cellPixels`),
    /// wrapped for tmux's passthrough when `throughTmux` (which ``resolve(_:capabilities:environment:)``
    /// never asks for: a picture placed at the cursor lands wherever tmux left the terminal's).
    case kitty(cellPixels: CellPixelSize, throughTmux: Bool)
    /// Sixel images drawn over their boxes (cells of `cellPixels`), drawn again where they move.
    case sixel(cellPixels: CellPixelSize)
    /// iTerm2 inline images (iTerm2, WezTerm), drawn as sixel images are.
    case iterm(cellPixels: CellPixelSize)

    /// What a terminal is assumed to have when it draws pixels but does not say its cell
    /// size: 10 × 20 pixels.
    package static let assumedCellPixels = CellPixelSize(width: 10, height: 20)

    /// The same way of drawing in cells of `cellPixels`; none and blocks have no cell size.
    package func with(cellPixels: CellPixelSize) -> PictureMode {
        switch self {
        case .kitty(_, let throughTmux): .kitty(cellPixels: cellPixels, throughTmux: throughTmux)
        case .sixel: .sixel(cellPixels: cellPixels)
        case .iterm: .iterm(cellPixels: cellPixels)
        case .none, .blocks: self
        }
    }

    /// Whether the renderer may scroll regions of the screen: not under sixel or iTerm2
    /// pictures, which a terminal scrolls with the text.
    package var scrollsRegions: Bool {
        switch self {
        case .sixel, .iterm: false
        case .none, .blocks, .kitty: true
        }
    }

    /// The size of a cell in pixels when pictures are pixels; nil otherwise.
    package var cellPixels: CellPixelSize? {
        switch self {
        case .kitty(let cellPixels, _), .sixel(let cellPixels), .iterm(let cellPixels): cellPixels
        case .none, .blocks: nil
        }
    }

    /// The mode for the setting `imageMode` in a terminal that answered `capabilities` (nil:
    /// it was not asked), in `environment`, and what to tell the person when the setting
    /// cannot be honoured.
    ///
    /// `auto` takes what ``PictureProtocol/detect(_:environment:)`` finds: kitty graphics, sixel
    /// or iTerm2 images, else half blocks. `kitty`, `sixel` and `iterm` are drawn whatever the
    /// terminal answered.
    ///
    /// Inside tmux, pictures are half blocks unless tmux draws sixel itself: the reader places
    /// kitty pictures directly, at the cursor, and through tmux's passthrough the terminal's
    /// cursor is not the pane's. Where the environment names a terminal that draws pictures,
    /// the notice says why they are half blocks.
    package static func resolve(_ imageMode: ReaderSettings.ImageMode, capabilities: TerminalCapabilities?,
                                environment: [String: String]) -> (mode: PictureMode, notice: String?) {
        let cellPixels = capabilities?.cellPixelSize ?? assumedCellPixels
        let inTmux = environment["TMUX"] != nil
        let tmuxNotice = "inside tmux, pictures are half blocks: kitty pictures need the terminal itself"
        switch imageMode {
        case .none:
            return (.none, nil)
        case .blocks:
            return (.blocks, nil)
        case .kitty:
            return inTmux ? (.blocks, tmuxNotice) : (.kitty(cellPixels: cellPixels, throughTmux: false), nil)
        case .sixel:
            return (.sixel(cellPixels: cellPixels), nil)
        case .iterm:
            return (.iterm(cellPixels: cellPixels), nil)
        case .auto:
            switch PictureProtocol.detect(capabilities ?? TerminalCapabilities(), environment: environment).0 {
            case .kitty: return (.kitty(cellPixels: cellPixels, throughTmux: false), nil)
            case .sixel: return (.sixel(cellPixels: cellPixels), nil)
            case .iterm: return (.iterm(cellPixels: cellPixels), nil)
            case .blocks, .none:
                let graphicsOutside = environment["KITTY_WINDOW_ID"] != nil || environment.keys.contains { $0.hasPrefix("WEZTERM_") }
                return (.blocks, inTmux && graphicsOutside ? tmuxNotice : nil)
            }
        }
    }
}
