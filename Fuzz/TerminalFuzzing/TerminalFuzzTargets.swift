import FuzzSupport
import TerminalUI
import Thumbnails

/// The fuzz targets of the terminal layer: what a terminal sends, and the pictures sent to it.
public enum TerminalFuzzTargets {
    public static let all: [FuzzTarget] = [inputDecoder, sixel]

    /// ``InputDecoder`` on any bytes a terminal (or whatever writes to its input) may send:
    /// the same events whether the bytes arrive at once or in pieces, and a paste never over
    /// the decoder's limit (in characters: a byte that is not UTF-8 becomes U+FFFD, three
    /// bytes of UTF-8).
    public static let inputDecoder = FuzzTarget(name: "fuzz-input-decoder") { bytes throws(FuzzFinding) in
        let whole = decoded([bytes[...]])
        let pieces = decoded(FuzzPieces.split(bytes))
        guard whole == pieces else {
            let index = zip(whole, pieces).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(whole.count, pieces.count)
            throw FuzzFinding("""
                the events differ whole and in pieces from event \(index): \
                \(whole.dropFirst(index).prefix(3)) against \(pieces.dropFirst(index).prefix(3)) \
                (\(whole.count) and \(pieces.count) events)
                """)
        }
        for event in whole {
            // Each character of a paste is one byte received or more (a byte that is not UTF-8
            // is U+FFFD, three bytes of UTF-8): no more characters than the limit's bytes.
            if case .paste(let text) = event, text.unicodeScalars.count > maxPaste {
                throw FuzzFinding("a paste of \(text.unicodeScalars.count) characters, over the limit of \(maxPaste) bytes")
            }
        }
    }

    /// ``Sixel/encode(_:palette:)`` on a picture made of the input's bytes (its first two give
    /// the size), read back by ``SixelDecoder``: the same size, every pixel of alpha below half
    /// left undrawn, and with at most 256 colours, every other pixel its own colour within the
    /// rounding of sixel's percentages.
    public static let sixel = FuzzTarget(name: "fuzz-sixel") { bytes throws(FuzzFinding) in
        guard bytes.count >= 2 else { return }
        let width = Int(bytes[0] % 48) + 1, height = Int(bytes[1] % 48) + 1
        var image = PixelBuffer(width: width, height: height)
        let pixels = bytes.dropFirst(2)
        // Few bytes make a picture of few colours: the input's bytes, repeated.
        if !pixels.isEmpty {
            for offset in 0..<image.bytes.count { image.bytes[offset] = pixels[pixels.startIndex + offset % pixels.count] }
        }
        for palette in [Sixel.Palette.adaptive(maxColors: 256), .cube] {
            let encoded = Sixel.encode(image, palette: palette)
            guard let decoded = SixelDecoder.decode(encoded) else { throw FuzzFinding("\(palette): no sixel image read back for \(width)x\(height)") }
            guard decoded.width == width, decoded.height == height else {
                throw FuzzFinding("\(palette): \(width)x\(height) read back as \(decoded.width)x\(decoded.height)")
            }
            var colors = Set<RGBA>()
            for y in 0..<height { for x in 0..<width where image[x, y].alpha >= 128 { var c = image[x, y]; c.alpha = 255; colors.insert(c) } }
            for y in 0..<height {
                for x in 0..<width {
                    let source = image[x, y], drawn = decoded[x, y]
                    if source.alpha < 128 {
                        guard drawn.alpha == 0 else { throw FuzzFinding("\(palette): pixel (\(x), \(y)) of alpha \(source.alpha) is drawn as \(drawn)") }
                        continue
                    }
                    guard drawn.alpha == 255 else { throw FuzzFinding("\(palette): pixel (\(x), \(y)) \(source) is not drawn") }
                    if case .adaptive = palette, colors.count <= 256 {
                        // Sixel colours are percentages: 255 / 100 / 2 rounds to within 2.
                        let error = max(abs(Int(source.red) - Int(drawn.red)), abs(Int(source.green) - Int(drawn.green)), abs(Int(source.blue) - Int(drawn.blue)))
                        guard error <= 2 else { throw FuzzFinding("\(palette): pixel (\(x), \(y)) \(source) is drawn \(drawn), with \(colors.count) colours") }
                    }
                }
            }
        }
    }

    private static let maxPaste = 4096

    private static func decoded(_ pieces: [ArraySlice<UInt8>]) -> [InputEvent] {
        var decoder = InputDecoder(maxPasteLength: maxPaste)
        let start = ContinuousClock.Instant.now
        var events: [InputEvent] = []
        for piece in pieces { events += decoder.decode(piece, at: start) }
        events += decoder.flush(at: start + .seconds(1))
        return events
    }
}
