import ArgumentParser
import Foundation
import ScrollworkReader
import HTTPLoading
import TerminalUI
import Thumbnails

/// `scrollwork view IMAGE... [--width COLUMNS] [--height ROWS] [--colors MODE] [--protocol
/// auto|blocks|sixel|kitty|iterm]`: prints PNG and JPEG files, or images at `http(s)` URLs, as
/// kitty, sixel or iTerm2 images at the terminal's pixel size where it has them, else as
/// pictures of half blocks, like `chafa` or `viu`.
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Print PNG or JPEG files or URLs as pictures in the terminal, at its pixel size where it can, else two pixels per cell.",
        discussion: """
            Each image is decoded straight to about the size it is shown at, then area-averaged \
            in linear light into half-block cells. Width defaults to the terminal's (80 columns \
            when standard output is not a terminal); when it is a terminal and no size is given, \
            pictures also fit its height. Colours default from COLORTERM, TERM and NO_COLOR; \
            without colour, pictures are drawn in shades (░▒▓█).

            An http or https URL is fetched through ContentLoading's loader (with its retries and \
            size limit). A file or URL that cannot be read or decoded is named on standard \
            error, the others are still shown, and the exit status is 1.
            """
    )

    /// The `--colors` choices.
    enum Colors: String, ExpressibleByArgument, CaseIterable {
        case truecolor
        case palette256 = "256"
        case palette16 = "16"

        var mode: ColorMode {
            switch self {
            case .truecolor: .truecolor
            case .palette256: .palette256
            case .palette16: .palette16
            }
        }
    }

    @Argument(help: "The PNG or JPEG files, or http(s) URLs, to show.")
    var images: [String]

    @Option(name: .long, help: "The most columns a picture takes (default: the terminal's width, or 80).")
    var width: Int?

    @Option(name: .long, help: "The most rows a picture takes (default: the terminal's height when no size is given).")
    var height: Int?

    @Option(name: .long, help: "truecolor, 256 or 16 (default: from COLORTERM and TERM; none with NO_COLOR).")
    var colors: Colors?

    @Option(name: .customLong("protocol"), help: "auto (what the terminal answers it draws, as scrollwork config shows; blocks when standard output is not a terminal), blocks (half blocks, any terminal), sextants (six pixels a cell, where the font has Unicode 13's sextant mosaics), sixel (pixels: xterm -ti vt340, foot, mlterm, WezTerm…) or kitty (pixels: kitty, Ghostty, WezTerm) or iterm (pixels: iTerm2, WezTerm); default auto.",
            transform: { name in
                // The settings' `image_mode` values, but `none`, which would draw nothing.
                guard let mode = ReaderSettings.ImageMode(rawValue: name.lowercased()), mode != .always(.none) else {
                    throw ValidationError("--protocol takes auto, blocks, sextants, sixel, kitty or iterm, not \(name)")
                }
                return mode
            })
    var pictureProtocol = ReaderSettings.ImageMode.auto

    /// The protocol `--protocol` names, `auto` resolved, with the cell size in pixels the
    /// terminal said: it is asked (at most 150 ms) only for `auto`, and only when standard
    /// output is a terminal.
    func resolvedProtocol() -> (PictureProtocol, cellPixels: CellPixelSize?) {
        if case .always(let picture) = pictureProtocol { return (picture, nil) }
        guard isatty(STDOUT_FILENO) == 1 else { return (.blocks, nil) }
        let (found, _, cellPixels) = ConfigCommand.askTerminal()
        return (found == .none ? .blocks : found, cellPixels)
    }

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("name at least one image") }
        if let width, width <= 0 { throw ValidationError("--width must be a positive number of columns") }
        if let height, height <= 0 { throw ValidationError("--height must be a positive number of rows") }
    }

    func run() async throws {
        let terminal = TerminalSize.of(fileDescriptor: STDOUT_FILENO)
        let box = Self.box(width: width, height: height, terminal: terminal)
        let mode = colors?.mode ?? ColorMode.detect(environment: ProcessInfo.processInfo.environment)
        let (pictureProtocol, answeredCellPixels) = resolvedProtocol()
        // Only made when a URL is given: starting an HTTP client costs threads and time.
        var loader: HTTPDataLoader?
        var failed = false
        for image in images {
            do {
                let data: [UInt8]?
                if let url = Self.webURL(image) {
                    if loader == nil { loader = HTTPDataLoader() }
                    do { data = try await loader!.loadData(for: url) } catch { throw ImageFile.Failure.load(url: image, error) }
                } else {
                    data = nil
                }
                let cellSize = terminal?.cellPixelSize ?? .assumed
                if pictureProtocol != .blocks && pictureProtocol != .sextants {
                    // A terminal that does not say its cell size in pixels gets the usual 10 × 20.
                    let pixelSize = answeredCellPixels ?? terminal?.cellPixelSize ?? CellPixelSize(width: 10, height: 20)
                    let pixels = try Self.pixels(of: image, data: data, box: box, cellSize: pixelSize, decoder: ThumbnailDecoder())
                    if pictureProtocol == .sixel {
                        Console.printTerminalOutput(Sixel.encode(pixels) + [0x0A])
                    } else if pictureProtocol == .iterm {
                        Console.printTerminalOutput(ITermImages.encode(pixels) + [0x0A])
                    } else if ProcessInfo.processInfo.environment["TMUX"] != nil {
                        // Inside tmux, only placeholders stay in the pane.
                        let id = Int.random(in: 1..<KittyGraphics.maxCells) << 24 | Int.random(in: 1...255)
                        Console.printTerminalOutput(Self.kittyPlaceholders(pixels, id: id, cellSize: pixelSize))
                    } else {
                        // An id of its own: kitty replaces an image sent again under an id, and
                        // the pictures of earlier runs are still on the screen or above it.
                        Console.printTerminalOutput(Self.kitty(pixels, id: Int.random(in: 256...0xFFFF_FFFF), cellSize: pixelSize))
                    }
                    continue
                }
                let glyphs: HalfBlockPicture.Glyphs = pictureProtocol == .sextants ? .sextants : .halfBlocks
                let picture = try picture(of: image, data: data, box: box, cellSize: cellSize, glyphs: glyphs, decoder: ThumbnailDecoder())
                var buffer = CellBuffer(columns: picture.columns, rows: picture.rows)
                buffer.draw(mode == .none ? picture.monochrome : picture, row: 0, column: 0)
                Console.printTerminalOutput(buffer.inlineText(colorMode: mode))
            } catch {
                printError("scrollwork view: \(error)")
                failed = true
            }
        }
        try await loader?.shutdown()
        if failed { throw ExitCode(1) }
    }

    /// The image at `path` (or `data`) at the pixel size of `box`'s cells, for a protocol
    /// that draws pixels: no larger than the box, never enlarged.
    static func pixels(
        of path: String, data: [UInt8]?, box: (columns: Int, rows: Int), cellSize: CellPixelSize, decoder: some ImageDecoding
    ) throws(ImageFile.Failure) -> PixelBuffer {
        let (width, height) = (box.columns * cellSize.width, min(box.rows, 1 << 16) * cellSize.height)
        let image = try ImageFile.decode(path, data: data, maxPixelSize: max(width, height), decoder: decoder)
        let scale = min(1, Double(width) / Double(image.width), Double(height) / Double(image.height))
        guard scale < 1 else { return image }
        return image.downsampled(toFit: max(1, Int((Double(max(image.width, image.height)) * scale).rounded(.down))))
    }

    /// `pixels` as a kitty image placed at the cursor over the cells it covers (placed by id,
    /// which kitty before 0.28 understands too), then the cursor below it.
    static func kitty(_ pixels: PixelBuffer, id: Int, cellSize: CellPixelSize) -> [UInt8] {
        let columns = max(1, (pixels.width + cellSize.width - 1) / cellSize.width)
        let rows = max(1, (pixels.height + cellSize.height - 1) / cellSize.height)
        return KittyGraphics.transmitOnly(pixels, id: id) + KittyGraphics.place(id: id, placement: 1, columns: columns, rows: rows)
            + Array(String(repeating: "\n", count: rows).utf8)
    }

    /// `pixels` as a kitty image sent through tmux's passthrough and shown by lines of Unicode
    /// placeholders, which tmux keeps in its pane as text (the terminal outside needs kitty
    /// 0.28 or later, or Ghostty); `id` must be one placeholders can name
    /// (``KittyGraphics/isPlaceholderID(_:)``).
    static func kittyPlaceholders(_ pixels: PixelBuffer, id: Int, cellSize: CellPixelSize) -> [UInt8] {
        let columns = min(KittyGraphics.maxCells, max(1, (pixels.width + cellSize.width - 1) / cellSize.width))
        let rows = min(KittyGraphics.maxCells, max(1, (pixels.height + cellSize.height - 1) / cellSize.height))
        var buffer = CellBuffer(columns: columns, rows: rows)
        for (index, cell) in KittyGraphics.placeholders(id: id, columns: columns, rows: rows).enumerated() {
            buffer.set(cell, row: index / columns, column: index % columns)
        }
        return KittyGraphics.tmuxPassthrough(commands: KittyGraphics.transmit(pixels, id: id, columns: columns, rows: rows))
            + buffer.inlineText(colorMode: .palette256)
    }

    /// `argument` as a URL if it is an http or https one.
    static func webURL(_ argument: String) -> URL? {
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return url
    }

    /// The most columns and rows a picture may take: what was asked, else the terminal's width
    /// (80 when not a terminal) and, when nothing was asked and it is a terminal, its height
    /// less the row the prompt comes back on.
    static func box(width: Int?, height: Int?, terminal: TerminalSize?) -> (columns: Int, rows: Int) {
        let columns = width ?? terminal?.columns ?? 80
        let rows = height ?? (width == nil ? terminal.map { max(1, $0.rows - 1) } : nil) ?? Int(Int32.max)
        return (columns, rows)
    }

    /// The file at `path` (or `data`, the image fetched from the URL `path`) as a picture
    /// fitted in `box`.
    ///
    /// The decoder reduces the image to four times the box's width on its longer side while
    /// decoding (for a JPEG mostly by DCT scaling, nearly free): enough pixels that the final
    /// reduction, the one that decides what each cell shows, happens in linear light.
    func picture(of path: String, data: [UInt8]? = nil, box: (columns: Int, rows: Int), cellSize: CellPixelSize,
                 glyphs: HalfBlockPicture.Glyphs = .halfBlocks, decoder: some ImageDecoding) throws(ImageFile.Failure) -> HalfBlockPicture {
        let image = try ImageFile.decode(path, data: data, maxPixelSize: 4 * box.columns, decoder: decoder)
        return HalfBlockPicture(image, fittingColumns: box.columns, rows: box.rows, cellSize: cellSize, glyphs: glyphs)
    }
}
