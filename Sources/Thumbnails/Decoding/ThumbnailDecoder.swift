/// Decodes PNG and JPEG data into RGBA pixel buffers, downsampled while decoding.
///
/// The format comes from the data's signature. A JPEG is scaled by 1/2, 1/4 or 1/8 inside
/// libjpeg when that still covers the target, then area-averaged to the exact size; a PNG is
/// area-averaged row by row as it streams, in its own channels (grey and palette images are
/// expanded to RGBA only in the thumbnail). Either way the full-size image is never held, with
/// two exceptions the formats impose: an interlaced PNG needs up to `width × height × 4` bytes,
/// because Adam7 passes revisit every row, and a progressive JPEG needs its coefficients, about
/// 2 bytes per sample at full size (18 MB for a 3000 × 2000 photo with 4:2:0 chroma), because
/// every scan refines every block. EXIF orientation (a JPEG's APP1, a PNG's `eXIf`) is applied
/// to the result.
///
/// Decoding is synchronous and CPU-bound; run it off the main actor. A decoder is a value and
/// safe to share between threads.
public struct ThumbnailDecoder: ImageDecoding {
    /// The limits this decoder applies.
    public var configuration: Configuration

    /// A decoder with the given limits.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Decodes `data`, downsampled to fit within `maxPixelSize` on its larger side.
    ///
    /// - Parameters:
    ///   - data: A complete PNG or JPEG file.
    ///   - maxPixelSize: The most pixels the result may have on its larger side, or `nil` for
    ///     the full size. Images already small enough are never enlarged.
    ///   - isCancelled: Asked before every batch of `configuration.rowsPerBatch` rows, and for a
    ///     progressive JPEG also after every row of blocks while its scans are read.
    /// - Returns: A tightly packed buffer, displayed upright (EXIF orientation applied).
    /// - Throws: `ThumbnailError`: `.unsupportedFormat` for anything but PNG and JPEG,
    ///   `.tooManyPixels` for headers over the limit, `.truncated` or `.corrupt` for damaged
    ///   data (unless partial images are asked for), `.cancelled` once `isCancelled` says so.
    /// - Precondition: `maxPixelSize`, if given, is positive.
    /// - Complexity: O(encoded size + decoded pixels), where JPEG scaling divides the decoded
    ///   pixels by up to 64. Memory: the output, a batch of decoded rows, the reduction's sums
    ///   (about 24 bytes per sample of one source row), and the decoder's own working memory
    ///   (under 1 MB added in all for a 3000 × 2000 PNG).
    public func decode(_ data: [UInt8], maxPixelSize: Int?, isCancelled: () -> Bool) throws(ThumbnailError) -> PixelBuffer {
        precondition(maxPixelSize.map { $0 > 0 } ?? true, "maxPixelSize must be positive")
        let format = try ImageFormat.sniff(data)
        return try data.withUnsafeBufferPointer { bytes throws(ThumbnailError) in
            switch format {
            case .png:
                let source = try PNGRowSource.open(bytes, maxPixelCount: configuration.maxPixelCount, inflate: configuration.inflate)
                let image = try reduce(source, maxPixelSize: maxPixelSize, isCancelled: isCancelled)
                return image.oriented(ExifOrientationReader.orientation(ofPNG: data))
            case .jpeg:
                let source = try JPEGRowSource.open(
                    bytes,
                    maxPixelCount: configuration.maxPixelCount,
                    maxPixelSize: maxPixelSize,
                    requiresCompleteData: !configuration.returnsPartialImages,
                    isCancelled: isCancelled
                )
                let image = try reduce(source, maxPixelSize: maxPixelSize, isCancelled: isCancelled)
                return image.oriented(ExifOrientationReader.orientation(ofJPEG: data))
            }
        }
    }

    /// Pulls every row from `source` in batches, checking for cancellation before each, and
    /// area-averages them to the target size.
    private func reduce(_ source: some RowSource, maxPixelSize: Int?, isCancelled: () -> Bool) throws(ThumbnailError) -> PixelBuffer {
        // Fitted to the size the header declares: a JPEG scaled in the decoder rounds its sides
        // up, and the thumbnail must not depend on which scale was picked.
        let target = TargetSize(fitting: source.imageWidth, source.imageHeight, within: maxPixelSize)
        var downsampler = AreaDownsampler(
            sourceWidth: source.width,
            sourceHeight: source.height,
            targetWidth: min(target.width, source.width),
            targetHeight: min(target.height, source.height),
            layout: source.layout
        )
        let batchRows = configuration.rowsPerBatch
        let stride = source.width * source.layout.bytesPerPixel
        var batch = [UInt8](repeating: 0, count: stride * batchRows)
        try batch.withUnsafeMutableBufferPointer { batch throws(ThumbnailError) in
            var rowsLeft = source.height
            while rowsLeft > 0 {
                if isCancelled() { throw .cancelled }
                let rows: Int
                do throws(ThumbnailError) {
                    rows = try source.readRows(into: batch.baseAddress!, stride: stride, maxRows: min(batchRows, rowsLeft))
                } catch {
                    // A partial image keeps the rows before the damage; `finish` makes the rest transparent.
                    if configuration.returnsPartialImages && error.isDamage { break }
                    throw error
                }
                downsampler.consume(batch.baseAddress!, stride: stride, count: rows)
                rowsLeft -= rows
            }
        }
        return downsampler.finish()
    }
}

extension ThumbnailError {
    /// Whether this is damage in the data, after which a partial image can still be returned.
    fileprivate var isDamage: Bool {
        switch self {
        case .truncated, .corrupt: true
        case .unsupportedFormat, .tooManyPixels, .outOfMemory, .cancelled: false
        }
    }
}
