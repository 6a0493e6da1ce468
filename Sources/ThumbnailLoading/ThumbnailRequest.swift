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
