import ArgumentParser
import Dispatch
import Foundation
import ScrollworkReader
import ImageFixtures
import Thumbnails

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `scrollwork bench decode`: 128-pixel thumbnails through `ThumbnailDecoder` against the naive
/// way, a full decode followed by a resample, on the same generated files in the same run; or,
/// with `--file`, the thumbnails of the user's own files. With `--pillow`, Pillow's
/// `Image.thumbnail` on the same files in the same run as well.
///
/// Both sides use the same libraries and the same area averaging; the only difference is
/// that Scrollwork reduces while decoding (DCT scaling for JPEG, row streaming for PNG). Every
/// PNG row names the library that inflated it, so that a figure cannot silently come from
/// the other path.
struct DecodeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Thumbnail decoding (128 px) against full decode plus resample, per image kind.",
        discussion: """
            Columns: the library that inflated a PNG (inflate), median milliseconds per
            thumbnail single-threaded (scrollwork_ms) and for full decode + resample
            (baseline_ms), their ratio, thumbnails per second with every core busy, and the
            peak resident memory each way adds (MB).

            With --file, each given file instead: the thumbnail's width and height, the median
            milliseconds of reading the file and making its thumbnail on one thread (ms), and
            the peak resident memory that adds (peak_mb).

            With --pillow, also the median milliseconds of Pillow reading the same file and
            making its thumbnail (Image.thumbnail, one thread; needs python3 with Pillow) and
            Pillow's time over ours (pillow_ratio: above 1, Scrollwork is faster).

            --inflate zlib times PNGs with zlib even where ISA-L is found; both times them
            each way, a row each.
            """
    )

    /// One benchmark input: a name for the report and the encoded file.
    struct Case {
        var name: String
        var data: [UInt8]

        var isPNG: Bool { name.hasPrefix("png") }
    }

    /// Which inflate the PNG rows use.
    enum InflateOption: String, ExpressibleByArgument, CaseIterable {
        case fastest, zlib, both

        var choices: [ThumbnailDecoder.Inflate] {
            switch self {
            case .fastest: [.fastest]
            case .zlib: [.zlib]
            case .both: [.fastest, .zlib]
            }
        }
    }

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Timed runs per measurement; the median is reported.")
    var runs = 9

    @Option(name: .customLong("file"), parsing: .upToNextOption, help: "Time the thumbnails of these PNG or JPEG files instead.")
    var files: [String] = []

    @Option(name: .long, help: "The thumbnail's larger side, in pixels, for --file.")
    var size = thumbnailSize

    @Option(name: .long, help: "The PNG inflate to time: fastest (ISA-L where found, else zlib), zlib, or both.")
    var inflate = InflateOption.fastest

    @Flag(name: .long, help: "Also time Pillow's Image.thumbnail on the same files (needs python3 with Pillow).")
    var pillow = false

    @Option(name: .customLong("save-cases"), help: "Write the generated images to this directory (CASE.png or CASE.jpeg) and stop, to time other decoders on the same files.")
    var saveDirectory: String?

    static let thumbnailSize = 128

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be positive") }
        guard size > 0 else { throw ValidationError("--size must be positive") }
    }

    func run() throws {
        do {
            if let saveDirectory {
                for benchCase in Self.cases() {
                    try FileBytes.write(benchCase.data, to: "\(saveDirectory)/\(Self.fileName(benchCase))")
                }
                return
            }
            if !files.isEmpty {
                var report = BenchReport(columns: Self.fileColumns)
                for file in files {
                    let isPNG = (try? FileBytes.read(file)).map(Self.isPNG) ?? false
                    for choice in isPNG ? inflate.choices : [.fastest] {
                        report.append(try Self.measure(file: file, size: size, runs: runs, inflate: choice, pillow: pillow))
                    }
                }
                report.print(json: options.json)
                return
            }
            var report = BenchReport(columns: [
                "case", "inflate", "file_kb", "scrollwork_ms", "baseline_ms", "ratio", "pillow_ms", "pillow_ratio", "throughput_per_s",
                "peak_mb", "baseline_peak_mb",
            ])
            let directory = pillow ? try PythonPeer.scratchDirectory() : nil
            defer { if let directory { try? FileManager.default.removeItem(atPath: directory) } }
            for benchCase in Self.cases() {
                var file: String?
                if let directory {
                    file = "\(directory)/\(Self.fileName(benchCase))"
                    try FileBytes.write(benchCase.data, to: file!)
                }
                for choice in benchCase.isPNG ? inflate.choices : [.fastest] {
                    report.append(try measure(benchCase, inflate: choice, pillowFile: file))
                }
            }
            report.print(json: options.json)
        } catch {
            printError("scrollwork bench decode: \(error)")
            throw ExitCode.failure
        }
    }

    static func fileName(_ benchCase: Case) -> String {
        "\(benchCase.name).\(benchCase.isPNG ? "png" : "jpeg")"
    }

    static func isPNG(_ data: [UInt8]) -> Bool { data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }

    static let fileColumns = ["file", "inflate", "width", "height", "ms", "pillow_ms", "pillow_ratio", "peak_mb"]

    /// A failure to read or decode one of the user's files.
    struct FileError: Error, CustomStringConvertible {
        var file: String
        var reason: String

        var description: String { "\(file): \(reason)" }
    }

    /// The row for one of the user's files (`fileColumns`): the library that inflates it if it
    /// is a PNG, its thumbnail's size, the median time of reading the file and decoding it to a
    /// thumbnail of `size` pixels, Pillow's if asked, and the peak memory ours adds.
    static func measure(
        file: String, size: Int, runs: Int, inflate: ThumbnailDecoder.Inflate = .fastest, pillow: Bool = false
    ) throws(FileError) -> [BenchValue] {
        let decoder = ThumbnailDecoder(configuration: .init(inflate: inflate))
        var isPNG = false
        let thumbnail = { () throws(FileError) -> PixelBuffer in
            let data: [UInt8]
            do throws(FileBytes.Failure) { data = try FileBytes.read(file) } catch { throw FileError(file: file, reason: error.reason) }
            do {
                isPNG = Self.isPNG(data)
                return try decoder.decode(data, maxPixelSize: size, isCancelled: { false })
            } catch {
                throw FileError(file: file, reason: String(describing: error))
            }
        }
        // A file that fails fails on the first try, before anything is timed.
        let image = try thumbnail()
        let milliseconds = Stopwatch.medianMilliseconds(runs: runs) { try? thumbnail() }
        let peak = PeakMemory.measure { try? thumbnail() }.peakBytes
        var pillowMilliseconds: Double?
        if pillow {
            do { pillowMilliseconds = try PythonPeer.pillowThumbnail(file: file, size: size, runs: runs) } catch {
                throw FileError(file: file, reason: error.description)
            }
        }
        return [
            .text(file), isPNG ? .text(inflate.library) : .missing, .number(Double(image.width)), .number(Double(image.height)),
            .number(milliseconds), BenchValue(pillowMilliseconds), BenchValue(pillowMilliseconds.map { $0 / milliseconds }),
            BenchValue(peak.map { Double($0) / 1_048_576 }),
        ]
    }

    /// The inputs the issue names, generated here so that every machine measures the same files.
    static func cases() -> [Case] {
        let photo = PhotoPattern.pixels(width: 3000, height: 2000)
        let small = PhotoPattern.pixels(width: 1000, height: 667, seed: 2)
        let smallWithAlpha = PhotoPattern.pixels(width: 1000, height: 667, withAlpha: true, seed: 3)
        return [
            Case(name: "jpeg-3000x2000-baseline", data: JPEGFixture.encode(pixels: photo, width: 3000, height: 2000, quality: 90)),
            Case(name: "jpeg-3000x2000-progressive", data: JPEGFixture.encode(pixels: photo, width: 3000, height: 2000, quality: 90, progressive: true)),
            Case(name: "jpeg-1000x667-baseline", data: JPEGFixture.encode(pixels: small, width: 1000, height: 667, quality: 90)),
            Case(name: "png-3000x2000-rgb", data: PNGFixture.encode(rgb: photo, width: 3000, height: 2000)),
            Case(name: "png-1000x667-rgba", data: PNGFixture.encode(rgba: smallWithAlpha, width: 1000, height: 667)),
            Case(name: "png-1000x667-palette", data: PNGFixture.encode(quantizing: small, width: 1000, height: 667)),
        ]
    }

    private func measure(_ benchCase: Case, inflate: ThumbnailDecoder.Inflate, pillowFile: String?) throws -> [BenchValue] {
        let data = benchCase.data
        let decoder = ThumbnailDecoder(configuration: .init(inflate: inflate))
        let thumbnail = { Self.decode(data, maxPixelSize: Self.thumbnailSize, name: benchCase.name, decoder: decoder) }
        let baseline = { Self.decode(data, maxPixelSize: nil, name: benchCase.name, decoder: decoder).downsampled(toFit: Self.thumbnailSize) }
        let scrollworkMilliseconds = Stopwatch.medianMilliseconds(runs: runs, thumbnail)
        let baselineMilliseconds = Stopwatch.medianMilliseconds(runs: runs, baseline)
        let pillowMilliseconds = try pillowFile.map { try PythonPeer.pillowThumbnail(file: $0, size: Self.thumbnailSize, runs: runs) }
        let peak = PeakMemory.measure(thumbnail).peakBytes
        let baselinePeak = PeakMemory.measure(baseline).peakBytes
        return [
            .text(benchCase.name),
            benchCase.isPNG ? .text(inflate.library) : .missing,
            .number(Double(data.count) / 1024),
            .number(scrollworkMilliseconds),
            .number(baselineMilliseconds),
            .number(baselineMilliseconds / scrollworkMilliseconds),
            BenchValue(pillowMilliseconds),
            BenchValue(pillowMilliseconds.map { $0 / scrollworkMilliseconds }),
            .number(Self.throughput(data, name: benchCase.name, decoder: decoder)),
            BenchValue(peak.map { Double($0) / 1_048_576 }),
            BenchValue(baselinePeak.map { Double($0) / 1_048_576 }),
        ]
    }

    /// Thumbnails per second with one decode running on every core.
    private static func throughput(_ data: [UInt8], name: String, decoder: ThumbnailDecoder) -> Double {
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        // Several per core, so a core that finishes early does not idle the measurement away.
        let count = cores * 8
        let elapsed = ContinuousClock().measure {
            DispatchQueue.concurrentPerform(iterations: count) { _ in
                _ = decode(data, maxPixelSize: thumbnailSize, name: name, decoder: decoder)
            }
        }
        return Double(count) / (elapsed.milliseconds / 1000)
    }

    /// The inputs are generated by this benchmark, so failing to decode one is a bug in it.
    private static func decode(_ data: [UInt8], maxPixelSize: Int?, name: String, decoder: ThumbnailDecoder) -> PixelBuffer {
        do {
            return try decoder.decode(data, maxPixelSize: maxPixelSize, isCancelled: { false })
        } catch {
            preconditionFailure("the generated \(name) image failed to decode: \(error)")
        }
    }
}
