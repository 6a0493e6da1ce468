import CThumbnails

/// A decoder that has read an image's header and now delivers RGBA8 rows top to bottom, in
/// batches, so that the caller can check for cancellation and reduce rows between batches.
protocol RowSource: AnyObject {
    /// The width the header declares.
    var imageWidth: Int { get }
    /// The height the header declares.
    var imageHeight: Int { get }
    /// The width of the delivered rows, after any scaling inside the decoder.
    var width: Int { get }
    /// How many rows will be delivered in total.
    var height: Int { get }
    /// Decodes up to `maxRows` rows into `buffer`, `stride` bytes apart, and returns how many
    /// it delivered. Zero rows means the decoder made progress it cannot deliver yet (an
    /// Adam7 pass); it is never zero forever.
    func readRows(into buffer: UnsafeMutablePointer<UInt8>, stride: Int, maxRows: Int) throws(ThumbnailError) -> Int
}

extension ThumbnailError {
    /// The error for a failed call into the C shim, with the library's message.
    init(status: ct_status, message: UnsafePointer<CChar>?) {
        let text = message.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "decoding failed"
        switch status {
        case CT_TRUNCATED: self = .truncated(text)
        case CT_OUT_OF_MEMORY: self = .outOfMemory(text)
        case CT_CANCELLED: self = .cancelled
        default: self = .corrupt(text)
        }
    }
}
