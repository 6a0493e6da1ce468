/// Decodes encoded image bytes to an RGBA pixel buffer no larger than a requested size.
///
/// `ThumbnailDecoder` is the implementation; tests and callers that need a stand-in implement
/// this protocol instead.
public protocol ImageDecoding: Sendable {
    /// Decodes `data`, downsampled to fit within `maxPixelSize` on its larger side.
    ///
    /// - Parameters:
    ///   - data: A complete encoded image.
    ///   - maxPixelSize: The most pixels the result may have on its larger side, or `nil` for
    ///     the full size. Images already small enough are never enlarged.
    ///   - isCancelled: Asked between batches of rows; once it returns `true` decoding stops
    ///     with `ThumbnailError.cancelled`.
    /// - Throws: A `ThumbnailError` for anything the data can cause.
    func decode(_ data: [UInt8], maxPixelSize: Int?, isCancelled: () -> Bool) throws(ThumbnailError) -> PixelBuffer
}

extension ImageDecoding {
    /// Decodes `data` to fit within `maxPixelSize`, stopping with `.cancelled` when the current
    /// task is cancelled.
    ///
    /// Decoding is synchronous CPU work: call it from a task or a queue meant for such work,
    /// not from the main actor.
    public func decode(_ data: [UInt8], maxPixelSize: Int? = nil) throws(ThumbnailError) -> PixelBuffer {
        try decode(data, maxPixelSize: maxPixelSize, isCancelled: { Task.isCancelled })
    }
}
