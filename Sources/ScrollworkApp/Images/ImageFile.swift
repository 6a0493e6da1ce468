import ScrollworkReader
import Thumbnails

/// An image file read and decoded: what `thumbnail` and `view` share.
enum ImageFile {
    /// Why an image file could not be had, naming the file.
    enum Failure: Error, CustomStringConvertible {
        case read(FileBytes.Failure)
        case load(url: String, any Error)
        case decode(path: String, ThumbnailError)

        var description: String {
            switch self {
            case .read(let failure): "cannot read \(failure)"
            case .load(let url, let error): "cannot load \(url): \(error)"
            case .decode(let path, let error): "cannot decode \(path): \(error)"
            }
        }
    }

    /// The largest image file read: 256 MiB, more than any camera's PNG or JPEG of the
    /// decoder's 100 megapixels. Checked before the file is read.
    static let maxFileBytes = 256 << 20

    /// The file at `path` decoded with `decoder`, reduced while decoding to fit `maxPixelSize`
    /// (nil: full size).
    static func decode(_ path: String, maxPixelSize: Int?, decoder: some ImageDecoding) throws(Failure) -> PixelBuffer {
        let data: [UInt8]
        do { data = try FileBytes.read(path, limit: maxFileBytes) } catch { throw .read(error) }
        return try decode(data, named: path, maxPixelSize: maxPixelSize, decoder: decoder)
    }

    /// `data` (an image fetched from `path`, a URL) if given, else the file at `path`, decoded
    /// as ``decode(_:maxPixelSize:decoder:)`` does.
    static func decode(_ path: String, data: [UInt8]?, maxPixelSize: Int?, decoder: some ImageDecoding) throws(Failure) -> PixelBuffer {
        guard let data else { return try decode(path, maxPixelSize: maxPixelSize, decoder: decoder) }
        return try decode(data, named: path, maxPixelSize: maxPixelSize, decoder: decoder)
    }

    /// `data`, the image called `name` in errors, decoded as ``decode(_:maxPixelSize:decoder:)`` does.
    static func decode(_ data: [UInt8], named name: String, maxPixelSize: Int?, decoder: some ImageDecoding) throws(Failure) -> PixelBuffer {
        do { return try decoder.decode(data, maxPixelSize: maxPixelSize) } catch { throw .decode(path: name, error) }
    }
}
