import ContentLoading
import Thumbnails

/// The decode stage of a thumbnail pipeline: PNG or JPEG bytes to a downsampled pixel buffer.
///
/// Decoding checks for cancellation between batches of rows, so a row that leaves the screen
/// stops its decode within a batch.
public struct ThumbnailProcessor: ContentProcessing {
    /// The decoder, with its limits.
    public var decoder: any ImageDecoding

    /// Creates the stage with `decoder`.
    public init(decoder: any ImageDecoding = ThumbnailDecoder()) {
        self.decoder = decoder
    }

    public func process(_ data: [UInt8], for request: ThumbnailRequest, isCancelled: () -> Bool) throws -> PixelBuffer {
        try decoder.decode(data, maxPixelSize: request.maxPixelSize, isCancelled: isCancelled)
    }

    /// The memory-cache cost of a thumbnail: its bytes.
    public static let cost: @Sendable (PixelBuffer) -> Int = { $0.bytes.count }
}
