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
    /// wrapped for tmux's passthrough when `throughTmux`.
    case kitty(cellPixels: CellPixelSize, throughTmux: Bool)

    /// What a terminal is assumed to have when it draws kitty graphics but does not say its
    /// cell size: 10 × 20 pixels.
    package static let assumedCellPixels = CellPixelSize(width: 10, height: 20)

    /// The size of a cell in pixels when pictures are pixels; nil otherwise.
    package var cellPixels: CellPixelSize? {
        if case .kitty(let cellPixels, _) = self { cellPixels } else { nil }
    }

    /// The mode for the setting `imageMode` in a terminal that answered `capabilities` (nil:
    /// it was not asked), in `environment`, and what to tell the person when the setting
    /// cannot be honoured.
    ///
    /// `auto` takes what ``PictureProtocol/detect(_:environment:)`` finds: kitty graphics, else
    /// half blocks (this reader draws sixel and iTerm2 images in `view` only, so far). `kitty`
    /// is kitty whatever the terminal answered, through tmux's passthrough inside tmux (which
    /// needs `set -g allow-passthrough on`).
    package static func resolve(_ imageMode: ReaderSettings.ImageMode, capabilities: TerminalCapabilities?,
                                environment: [String: String]) -> (mode: PictureMode, notice: String?) {
        let cellPixels = capabilities?.cellPixelSize ?? assumedCellPixels
        let inTmux = environment["TMUX"] != nil
        switch imageMode {
        case .none:
            return (.none, nil)
        case .blocks:
            return (.blocks, nil)
        case .kitty:
            return (.kitty(cellPixels: cellPixels, throughTmux: inTmux), nil)
        case .sixel, .iterm:
            return (.blocks, "image_mode = \"\(imageMode.rawValue)\": the reader draws half blocks (scrollwork view draws \(imageMode.rawValue))")
        case .auto:
            let (found, _) = PictureProtocol.detect(capabilities ?? TerminalCapabilities(), environment: environment)
            return found == .kitty ? (.kitty(cellPixels: cellPixels, throughTmux: false), nil) : (.blocks, nil)
        }
    }
}
