import ArgumentParser
import Foundation
import ScrollworkReader
import ImageFixtures
import ScrollSimulation
import SeededRandom
import TerminalUI
import Thumbnails

/// `scrollwork bench terminal`: frames of a 120 × 40 reader screen (text, and eight 16 × 8-cell
/// pictures on screen at any time) written by ``FrameRenderer`` against the naive renderer that
/// writes every cell of every frame, on the same frames in the same run.
struct TerminalBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal",
        abstract: "Bytes and time per frame of the diffing renderer against repainting every cell.",
        discussion: """
            Cases: full-repaint (a first frame, or after a resize), scroll-1 (the list moves one \
            row), one-row (one row of text changes), fling-3s (180 frames of a decelerating fling). \
            frame_ms is building the frame's cells plus diffing and encoding it; bytes are what \
            would be written to the terminal (truecolor, synchronized output on). Each case runs \
            --rounds times; every figure is the median over the rounds of that round's \
            percentile. Every frame is also replayed into the in-memory terminal, outside the \
            timing, and checked.
            """
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Passes over each case's frames; the median pass figures are reported.")
    var rounds = 5

    static let columns = 120
    static let rows = 40

    func validate() throws {
        guard rounds > 0 else { throw ValidationError("--rounds must be positive") }
    }

    func run() throws {
        let screen = ReaderScreen()
        var report = BenchReport(columns: [
            "case", "frames", "bytes_per_frame_p50", "bytes_per_frame_p99", "naive_bytes_per_frame_p50", "bytes_ratio",
            "frame_ms_p50", "frame_ms_p99", "naive_frame_ms_p50",
        ])
        let fling = Self.flingOffsets(from: 100, seconds: 3, framesPerSecond: 60)
        let cases: [(String, [ReaderScreen.Moment], Bool)] = [
            ("full-repaint", (0..<60).map { ReaderScreen.Moment(offset: 100 + $0 * 45, changedRow: nil) }, true),
            ("scroll-1", (0..<300).map { ReaderScreen.Moment(offset: 100 + $0, changedRow: nil) }, false),
            ("one-row", (0..<300).map { ReaderScreen.Moment(offset: 100, changedRow: $0) }, false),
            ("fling-3s", (0..<4).flatMap { _ in fling.map { ReaderScreen.Moment(offset: $0, changedRow: nil) } }, false),
        ]
        for (name, moments, repaints) in cases {
            report.append(Self.measure(name, moments, repaints: repaints, screen: screen, rounds: rounds))
        }
        report.print(json: options.json)
        if !options.json { print() }
        try Self.sixelReport(runs: max(rounds, 9)).print(json: options.json)
    }

    // MARK: Sixel

    /// Sixel encoding of a list thumbnail (12 × 4 cells at 8 × 16 pixels: 96 × 64) and an
    /// article picture (51 × 16 cells: 408 × 256) of a photo, with each palette: median time,
    /// bytes, and the mean error per channel over 4 × 4 blocks (what the eye averages
    /// dithering into); beside libsixel's `img2sixel` on the same picture as a PNG where it
    /// is installed (Debian `libsixel-bin`), its start-up taken out by timing one picture and
    /// many in one process.
    static func sixelReport(runs: Int) throws -> BenchReport {
        var report = BenchReport(columns: ["case", "width", "height", "bytes", "encode_ms", "block_error", "img2sixel_ms", "img2sixel_ratio"])
        let directory = try PythonPeer.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (size, width, height) in [("thumbnail", 96, 64), ("article", 408, 256)] {
            let rgb = PhotoPattern.pixels(width: width, height: height)
            var rgba: [UInt8] = []
            rgba.reserveCapacity(width * height * 4)
            for pixel in 0..<(width * height) { rgba += [rgb[3 * pixel], rgb[3 * pixel + 1], rgb[3 * pixel + 2], 255] }
            let image = PixelBuffer(width: width, height: height, bytesPerRow: width * 4, bytes: rgba)
            let file = "\(directory)/\(size).png"
            try FileBytes.write(PNGFixture.encode(rgba: image.bytes, width: width, height: height), to: file)
            let peer = img2sixelMilliseconds(file: file, runs: runs, copies: size == "thumbnail" ? 201 : 21)
            for (name, palette) in [("adaptive", Sixel.Palette.adaptive(maxColors: 256)), ("cube", .cube)] {
                let sixel = Sixel.encode(image, palette: palette)
                let milliseconds = Stopwatch.medianMilliseconds(runs: runs * 4) { Sixel.encode(image, palette: palette) }
                let decoded = SixelDecoder.decode(sixel)
                report.append([
                    .text("sixel-\(size)-\(name)"), .number(Double(width)), .number(Double(height)), .number(Double(sixel.count)),
                    .number(milliseconds), BenchValue(decoded.map { Self.blockError($0, image) }),
                    BenchValue(peer), BenchValue(peer.map { $0 / milliseconds }),
                ])
            }
            // kitty graphics: the pixels as they are (RGBA, base64), or zlib-compressed as over
            // SSH, sent once per picture and placed by id after that; lossless, no peer.
            let place = KittyGraphics.place(id: 1, placement: 1, offsetX: 0, offsetY: 0, sourceY: 0, sourceWidth: width, sourceHeight: height)
            for (name, compressed) in [("kitty", false), ("kitty-zlib", true)] {
                let kitty = KittyGraphics.transmitOnly(image, id: 1, compressed: compressed)
                let milliseconds = Stopwatch.medianMilliseconds(runs: runs * 4) { KittyGraphics.transmitOnly(image, id: 1, compressed: compressed) }
                report.append([
                    .text("\(name)-\(size)"), .number(Double(width)), .number(Double(height)), .number(Double(kitty.count + place.count)),
                    .number(milliseconds), .number(0), .missing, .missing,
                ])
            }
        }
        return report
    }

    /// The mean difference per channel between `decoded` and `original` over 4 × 4 blocks.
    static func blockError(_ decoded: PixelBuffer, _ original: PixelBuffer) -> Double {
        var total = 0.0, count = 0.0
        for blockY in stride(from: 0, through: original.height - 4, by: 4) {
            for blockX in stride(from: 0, through: original.width - 4, by: 4) {
                for channel in 0..<3 {
                    var difference = 0
                    for y in blockY..<(blockY + 4) {
                        for x in blockX..<(blockX + 4) {
                            difference += Int(decoded.bytes[y * decoded.bytesPerRow + x * 4 + channel])
                                - Int(original.bytes[y * original.bytesPerRow + x * 4 + channel])
                        }
                    }
                    total += Double(abs(difference)) / 16
                    count += 1
                }
            }
        }
        return total / count
    }

    /// img2sixel's milliseconds per picture, without its start-up: the median of one picture
    /// and of `copies` in one process, the difference over `copies - 1`. `nil` without
    /// img2sixel.
    static func img2sixelMilliseconds(file: String, runs: Int, copies: Int) -> Double? {
        func time(_ copies: Int) -> Double? {
            var samples: [Double] = []
            for _ in 0..<runs {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["img2sixel"] + Array(repeating: file, count: copies)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let clock = ContinuousClock()
                let start = clock.now
                do { try process.run() } catch { return nil }
                process.waitUntilExit()
                guard process.terminationStatus == 0 else { return nil }
                samples.append((clock.now - start).milliseconds)
            }
            return Stopwatch.median(samples)
        }
        guard let one = time(1), let many = time(copies) else { return nil }
        return max(0, (many - one) / Double(copies - 1))
    }

    /// The list offsets (in rows) of a fling that starts at 600 rows per second and slows down
    /// exponentially, as touch scrolling does, one per frame.
    static func flingOffsets(from start: Int, seconds: Int, framesPerSecond: Int) -> [Int] {
        let velocity = 600.0, timeConstant = 0.6
        return (0..<(seconds * framesPerSecond)).map { frame in
            let time = Double(frame) / Double(framesPerSecond)
            return start + Int((velocity * timeConstant * (1 - exp(-time / timeConstant))).rounded())
        }
    }

    /// Per-frame samples of one pass over a case's frames.
    private struct Pass {
        var bytes: [Double] = []
        var naiveBytes: [Double] = []
        var milliseconds: [Double] = []
        var naiveMilliseconds: [Double] = []
    }

    /// Runs the case `rounds` times and reports, for each figure, the median over the rounds
    /// of that round's percentile: a round in which another process took the machine away
    /// moves the median far less than it moves a lone p99.
    private static func measure(_ name: String, _ moments: [ReaderScreen.Moment], repaints: Bool, screen: ReaderScreen, rounds: Int) -> [BenchValue] {
        let passes = (0..<rounds).map { _ in run(name, moments, repaints: repaints, screen: screen) }
        func figure(_ samples: KeyPath<Pass, [Double]>, _ fraction: Double) -> Double {
            Stopwatch.median(passes.map { percentile($0[keyPath: samples], fraction) })
        }
        return [
            .text(name), .number(Double(moments.count)),
            .number(figure(\.bytes, 0.5)), .number(figure(\.bytes, 0.99)), .number(figure(\.naiveBytes, 0.5)),
            .number(figure(\.naiveBytes, 0.5) / max(1, figure(\.bytes, 0.5))),
            .number(figure(\.milliseconds, 0.5)), .number(figure(\.milliseconds, 0.99)), .number(figure(\.naiveMilliseconds, 0.5)),
        ]
    }

    private static func run(_ name: String, _ moments: [ReaderScreen.Moment], repaints: Bool, screen: ReaderScreen) -> Pass {
        let options = FrameRenderer.Options(colorMode: .truecolor, synchronizedOutput: true)
        var renderer = FrameRenderer(options: options)
        var terminal = InMemoryTerminal(columns: columns, rows: rows)
        // The frame before the first measured one is on screen already, as in a running reader.
        let previous = screen.frame(at: ReaderScreen.Moment(offset: moments[0].offset - 1, changedRow: nil))
        terminal.apply(renderer.render(previous))
        var pass = Pass()
        let clock = ContinuousClock()
        for moment in moments {
            if repaints { renderer.invalidate() }
            var output: [UInt8] = []
            var frame: CellBuffer?
            pass.milliseconds.append(clock.measure {
                frame = screen.frame(at: moment)
                output = renderer.render(frame!)
            }.milliseconds)
            var naive: [UInt8] = []
            pass.naiveMilliseconds.append(clock.measure {
                naive = FrameRenderer.repaintingEveryCell(screen.frame(at: moment), colorMode: .truecolor)
            }.milliseconds)
            pass.bytes.append(Double(output.count))
            pass.naiveBytes.append(Double(naive.count))
            terminal.apply(output)
            precondition(terminal.screen == frame!, "\(name): the terminal does not show the frame drawn")
        }
        return pass
    }

    /// The value below which `fraction` of `samples` lie (nearest rank), as `bench scroll`
    /// takes it.
    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard let value = ScrollMetrics.percentile(fraction, of: samples) else { preconditionFailure("percentile of no samples") }
        return value
    }
}

/// The screen the terminal bench draws: a header, a scrolling list of posts with a band of four
/// 16 × 8-cell thumbnails every 19 rows (so that the 38 rows of the list always show sixteen
/// rows of bands: eight pictures' worth of cells, whole or cut at an edge),
/// and a footer.
struct ReaderScreen {
    /// What the screen shows at one instant: the list scrolled to `offset` rows, and the text
    /// of its first row of text changed, numbered by `changedRow`, if any.
    struct Moment {
        var offset: Int
        var changedRow: Int?
    }

    static let bandPeriod = 19
    static let pictureRows = 8
    private let lines: [(String, CellStyle)]
    private let pictures: [HalfBlockPicture]

    init() {
        var random = SeededGenerator(seed: 7)
        let words = ["scroll", "feed", "terminal", "render", "cells", "diff", "batch", "thumbnail", "swift", "frame", "日本語", "ニュース", "🚀", "café", "naïve"]
        lines = (0..<4096).map { index in
            let title = (0..<Int.random(in: 4...14, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            let style = index % 3 == 0
                ? CellStyle(foreground: .rgb(230, 230, 230), attributes: .bold)
                : CellStyle(foreground: .rgb(UInt8.random(in: 90...200, using: &random), 150, 170))
            return ("\(index). \(title)", style)
        }
        pictures = (0..<8).map { seed in
            let rgb = PhotoPattern.pixels(width: 64, height: 64, seed: UInt64(seed))
            let rgba = stride(from: 0, to: rgb.count, by: 3).flatMap { rgb[$0..<($0 + 3)] + [255] }
            return HalfBlockPicture(PixelBuffer(width: 64, height: 64, bytesPerRow: 256, bytes: rgba), columns: 16, rows: 8)
        }
    }

    /// The frame at `moment`: everything built from the model, as a reader builds each frame.
    func frame(at moment: Moment) -> CellBuffer {
        var buffer = CellBuffer(columns: TerminalBench.columns, rows: TerminalBench.rows)
        let header = CellStyle(foreground: .rgb(20, 20, 20), background: .rgb(120, 170, 230), attributes: .bold)
        buffer.fill(row: 0, column: 0, width: buffer.columns, height: 1, with: Cell(" ", style: header))
        buffer.write(" scrollwork — 4096 posts, 12 feeds", row: 0, column: 0, style: header)
        let firstTextRow = (1..<(buffer.rows - 1)).first { (moment.offset + $0 - 1) % Self.bandPeriod >= Self.pictureRows }
        for row in 1..<(buffer.rows - 1) {
            let line = moment.offset + row - 1
            let inBand = line % Self.bandPeriod
            if inBand < Self.pictureRows {
                let band = line / Self.bandPeriod
                for slot in 0..<4 {
                    let picture = pictures[(band * 4 + slot) % pictures.count]
                    for x in 0..<picture.columns {
                        buffer.set(picture.cells[inBand * picture.columns + x], row: row, column: 1 + slot * 17 + x)
                    }
                }
                let (text, style) = lines[line % lines.count]
                buffer.write(TextLayout.truncated(text, toWidth: 50), row: row, column: 69, style: style)
            } else {
                var (text, style) = lines[line % lines.count]
                if row == firstTextRow, let changed = moment.changedRow { text = "updated \(changed): " + text }
                buffer.write(TextLayout.truncated(text, toWidth: buffer.columns - 2), row: row, column: 1, style: style)
            }
        }
        let footer = CellStyle(foreground: .rgb(160, 160, 160), background: .rgb(40, 40, 40))
        buffer.fill(row: buffer.rows - 1, column: 0, width: buffer.columns, height: 1, with: Cell(" ", style: footer))
        buffer.write(" j/k scroll  q quit", row: buffer.rows - 1, column: 0, style: footer)
        return buffer
    }
}
