import ContentLoading
import Foundation

/// A thumbnail of the image at a URL, fitted within a size.
///
/// Requests for several sizes of one URL share its download (their ``dataKey`` is the URL)
/// and are decoded separately.
public struct ThumbnailRequest: ContentRequest, CustomStringConvertible {
    /// Where the image is.
    public var url: URL
    /// The most pixels the thumbnail may have on its larger side; nil for the full size.
    public var maxPixelSize: Int?

    /// Creates a request for the image at `url`, fitted within `maxPixelSize`.
    public init(url: URL, maxPixelSize: Int?) {
        self.url = url
        self.maxPixelSize = maxPixelSize
    }

    public var dataKey: URL { url }

    public var description: String { "\(url.absoluteString)@\(maxPixelSize.map(String.init) ?? "full")" }
}

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
