import CThumbnails

/// Delivers the rows of a JPEG through libjpeg-turbo, as RGB (grey images as grey), scaled
/// down inside the decoder when that is enough for the target size.
///
/// Scaling by 1/2, 1/4 or 1/8 in the decoder skips most of the inverse DCT and colour
/// conversion work and keeps only scaled rows in memory. A baseline image then needs a few
/// rows of working memory; a progressive one needs its whole coefficient buffer (about 2 bytes
/// per sample at full size) because every scan refines every block. At 1/8 a progressive
/// image's scans of AC coefficients for components whose blocks become single pixels (the luma
/// of a 4:2:0 photo, most of the file) are never decoded: the 1x1 IDCT reads only DC, so the
/// pixels are the same. CMYK and YCCK are
/// converted to RGB, inverted first when Adobe's marker says so.
final class JPEGRowSource: RowSource {
    private let decoder: OpaquePointer
    let imageWidth: Int
    let imageHeight: Int
    private(set) var width = 0
    private(set) var height = 0
    private(set) var layout = PixelLayout.rgb
    /// Whether running out of data is an error, rather than the grey filler libjpeg supplies.
    private let requiresCompleteData: Bool

    /// Reads the header of the JPEG in `bytes`, which must outlive the source, checks it
    /// against `maxPixelCount`, and starts decoding at the smallest scale whose size still
    /// covers the image fitted within `maxPixelSize`. A progressive image is decoded scan by
    /// scan right here, asking `isCancelled` after each row of blocks.
    static func open(
        _ bytes: UnsafeBufferPointer<UInt8>, maxPixelCount: Int, maxPixelSize: Int?, requiresCompleteData: Bool,
        isCancelled: () -> Bool
    ) throws(ThumbnailError) -> JPEGRowSource {
        guard let decoder = ct_jpeg_create(bytes.baseAddress, bytes.count) else {
            throw .outOfMemory("cannot create a JPEG decoder")
        }
        var info = ct_jpeg_info()
        let status = ct_jpeg_read_header(decoder, &info)
        guard status == CT_OK, Int(info.width) * Int(info.height) <= maxPixelCount else {
            let error = status == CT_OK
                ? ThumbnailError.tooManyPixels(width: Int(info.width), height: Int(info.height), limit: maxPixelCount)
                : ThumbnailError(status: status, message: ct_jpeg_message(decoder))
            ct_jpeg_destroy(decoder)
            throw error
        }
        // From here the source owns the decoder and its deinit destroys it.
        let source = JPEGRowSource(decoder: decoder, info: info, requiresCompleteData: requiresCompleteData)
        let target = TargetSize(fitting: Int(info.width), Int(info.height), within: maxPixelSize)
        let denominator = scaleDenominator(width: Int(info.width), height: Int(info.height), target: target)
        var width: UInt32 = 0
        var height: UInt32 = 0
        var layout = CT_LAYOUT_RGB
        let startStatus = withoutActuallyEscaping(isCancelled) { isCancelled in
            var check = isCancelled
            return withUnsafeMutablePointer(to: &check) { check in
                ct_jpeg_start(decoder, UInt32(denominator), { context in
                    context!.assumingMemoryBound(to: (() -> Bool).self).pointee() ? 1 : 0
                }, check, &width, &height, &layout)
            }
        }
        try source.check(startStatus)
        source.width = Int(width)
        source.height = Int(height)
        source.layout = PixelLayout(layout, palette: [])
        return source
    }

    private init(decoder: OpaquePointer, info: ct_jpeg_info, requiresCompleteData: Bool) {
        self.decoder = decoder
        imageWidth = Int(info.width)
        imageHeight = Int(info.height)
        self.requiresCompleteData = requiresCompleteData
    }

    deinit {
        ct_jpeg_destroy(decoder)
    }

    /// The largest of 8, 4 and 2 at which the scaled image (libjpeg rounds up) still covers
    /// `target` on both sides, so the area averaging after it only ever reduces; else 1.
    static func scaleDenominator(width: Int, height: Int, target: TargetSize) -> Int {
        for denominator in [8, 4, 2] {
            let scaledWidth = (width + denominator - 1) / denominator
            let scaledHeight = (height + denominator - 1) / denominator
            if scaledWidth >= target.width && scaledHeight >= target.height { return denominator }
        }
        return 1
    }

    func readRows(into buffer: UnsafeMutablePointer<UInt8>, stride: Int, maxRows: Int) throws(ThumbnailError) -> Int {
        var rows: UInt32 = 0
        try check(ct_jpeg_read_rows(decoder, buffer, stride, UInt32(maxRows), &rows))
        if requiresCompleteData && ct_jpeg_ran_out_of_data(decoder) != 0 {
            throw .truncated(String(cString: ct_jpeg_message(decoder)))
        }
        // libjpeg reads from memory and never suspends, so no rows means it has nothing left.
        guard rows > 0 else { throw .corrupt("the decoder stopped before the last row") }
        return Int(rows)
    }

    private func check(_ status: ct_status) throws(ThumbnailError) {
        guard status == CT_OK else { throw ThumbnailError(status: status, message: ct_jpeg_message(decoder)) }
    }
}
