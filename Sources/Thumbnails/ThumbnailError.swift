/// Why an image could not be decoded. Every failure that the input can cause is one of these;
/// none of them is a crash.
public enum ThumbnailError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The data are neither PNG nor JPEG. The value names what was found: `"GIF"`, `"WebP"`,
    /// `"empty data"`, or `"unknown (first bytes 0x…)"`.
    case unsupportedFormat(String)
    /// The header declares more pixels than the decoder's limit; nothing was allocated for them.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The data end before the image does. The value is the library's message.
    case truncated(String)
    /// The data break the format's rules. The value is the library's message.
    case corrupt(String)
    /// The image is within the pixel limit but its buffers could not be allocated.
    case outOfMemory(String)
    /// The cancellation check returned true between two batches of rows.
    case cancelled

    /// A sentence for people, e.g. `"unsupported format: GIF"`.
    public var description: String {
        switch self {
        case .unsupportedFormat(let found): "unsupported format: \(found)"
        case .tooManyPixels(let width, let height, let limit):
            "image too large: \(width)x\(height) is more than the limit of \(limit) pixels"
        case .truncated(let message): "truncated image: \(message)"
        case .corrupt(let message): "corrupt image: \(message)"
        case .outOfMemory(let message): "out of memory: \(message)"
        case .cancelled: "decoding cancelled"
        }
    }
}
