extension PixelBuffer {
    /// This image reduced by area averaging to fit within `maxPixelSize` on its larger side,
    /// aspect kept; an image already small enough is returned unchanged.
    ///
    /// This works on pixels already decoded. To make a thumbnail from encoded data, decode
    /// with a `maxPixelSize` instead: the decoder reduces while it decodes and never holds the
    /// full image.
    /// - Precondition: `maxPixelSize > 0`.
    /// - Complexity: O(`width` × `height`).
    public func downsampled(toFit maxPixelSize: Int) -> PixelBuffer {
        precondition(maxPixelSize > 0, "maxPixelSize must be positive")
        let target = TargetSize(fitting: width, height, within: maxPixelSize)
        if target.width == width && target.height == height { return self }
        var downsampler = AreaDownsampler(sourceWidth: width, sourceHeight: height, targetWidth: target.width, targetHeight: target.height)
        bytes.withUnsafeBufferPointer { bytes in
            downsampler.consume(bytes.baseAddress!, stride: bytesPerRow, count: height)
        }
        return downsampler.finish()
    }
}
