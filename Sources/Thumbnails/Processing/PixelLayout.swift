/// How a row source lays out the pixels of its rows: in the image's own channels where that is
/// narrower than RGBA, so the reduction reads fewer bytes and expands to RGBA only once, for
/// the thumbnail.
enum PixelLayout: Equatable {
    /// Red, green, blue and straight alpha, a byte each.
    case rgba
    /// Red, green and blue, a byte each; opaque.
    case rgb
    /// One grey byte; opaque.
    case gray
    /// One byte indexing `palette`: 256 entries of straight RGBA, 1,024 bytes.
    case indexed(palette: [UInt8])

    /// Bytes per pixel in a row.
    var bytesPerPixel: Int {
        switch self {
        case .rgba: 4
        case .rgb: 3
        case .gray, .indexed: 1
        }
    }

    /// Sums the reduction keeps per pixel: one per colour channel, plus alpha for the layouts
    /// that can be transparent (an opaque layout's alpha is implied by the rows it covers).
    var sumsPerPixel: Int {
        switch self {
        case .rgba, .indexed: 4
        case .rgb: 3
        case .gray: 1
        }
    }

    /// The straight RGBA of pixel `x` of `row`.
    func rgba(_ row: UnsafePointer<UInt8>, _ x: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        switch self {
        case .rgba: (row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3])
        case .rgb: (row[3 * x], row[3 * x + 1], row[3 * x + 2], 255)
        case .gray: (row[x], row[x], row[x], 255)
        case .indexed(let palette):
            (palette[4 * Int(row[x])], palette[4 * Int(row[x]) + 1], palette[4 * Int(row[x]) + 2], palette[4 * Int(row[x]) + 3])
        }
    }
}
