import CThumbnails

/// A decoder that has read an image's header and now delivers rows top to bottom, 8 bits per
/// sample in `layout`, in batches, so that the caller can check for cancellation and reduce
/// rows between batches.
protocol RowSource: AnyObject {
    /// The width the header declares.
    var imageWidth: Int { get }
    /// The height the header declares.
    var imageHeight: Int { get }
    /// The width of the delivered rows, after any scaling inside the decoder.
    var width: Int { get }
    /// How many rows will be delivered in total.
    var height: Int { get }
    /// How the delivered rows lay out their pixels.
    var layout: PixelLayout { get }
    /// Decodes up to `maxRows` rows into `buffer`, `stride` bytes apart, and returns how many
    /// it delivered. Zero rows means the decoder made progress it cannot deliver yet (an
    /// Adam7 pass); it is never zero forever.
    func readRows(into buffer: UnsafeMutablePointer<UInt8>, stride: Int, maxRows: Int) throws(ThumbnailError) -> Int
}

extension PixelLayout {
    /// The layout the C shim reports; `palette` holds its 256 RGBA entries for indexed rows.
    init(_ layout: ct_layout, palette: [UInt8]) {
        switch layout {
        case CT_LAYOUT_RGB: self = .rgb
        case CT_LAYOUT_GRAY: self = .gray
        case CT_LAYOUT_INDEXED: self = .indexed(palette: palette)
        default: self = .rgba
        }
    }
}

extension ThumbnailError {
    /// The error for a failed call into the C shim, with the library's message.
    init(status: ct_status, message: UnsafePointer<CChar>?) {
        let text = message.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "decoding failed"
        switch status {
        case CT_TRUNCATED: self = .truncated(text)
        case CT_OUT_OF_MEMORY: self = .outOfMemory(text)
        case CT_CANCELLED: self = .cancelled
        case CT_UNSUPPORTED: self = .unsupportedFormat(text)
        default: self = .corrupt(text)
        }
    }
}
