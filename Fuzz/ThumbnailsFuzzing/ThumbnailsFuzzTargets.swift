import FuzzSupport
import Thumbnails

/// The fuzz target of the image decoders (libpng and libjpeg-turbo through the C shim).
public enum ThumbnailsFuzzTargets {
    public static let all: [FuzzTarget] = [images]

    /// ``ThumbnailDecoder`` on any bytes, the way the reader decodes a picture from the network
    /// (downsampled to fit 256 pixels) and with partial images allowed: a picture within the
    /// size asked for and tightly packed, or a ``ThumbnailError``. The pixel limit is a
    /// megapixel, so that a fuzzed header cannot make each run allocate hundreds of megabytes.
    public static let images = FuzzTarget(name: "fuzz-images") { bytes throws(FuzzFinding) in
        for partial in [false, true] {
            let decoder = ThumbnailDecoder(configuration: .init(maxPixelCount: 1 << 20, returnsPartialImages: partial))
            for maxPixelSize in [256, nil] as [Int?] {
                guard let image = try? decoder.decode(bytes, maxPixelSize: maxPixelSize, isCancelled: { false }) else { continue }
                guard image.width > 0, image.height > 0, image.width * image.height <= 1 << 20 else {
                    throw FuzzFinding("a picture of \(image.width)x\(image.height) from a decoder limited to a megapixel")
                }
                if let maxPixelSize, max(image.width, image.height) > maxPixelSize {
                    throw FuzzFinding("a picture of \(image.width)x\(image.height) asked to fit \(maxPixelSize)")
                }
                guard image.bytesPerRow == image.width * 4, image.bytes.count == image.height * image.bytesPerRow else {
                    throw FuzzFinding("\(image) holds \(image.bytes.count) bytes")
                }
            }
        }
    }
}
