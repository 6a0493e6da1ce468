import CThumbnails

/// Delivers the rows of a PNG, 8 bits per sample: palette images as indices with their palette
/// (tRNS applied), opaque grey and RGB as they are, everything else as RGBA (tRNS expanded to
/// alpha, grey with alpha widened to RGB); 16-bit samples cut to their high byte, gamma
/// ignored. libpng reads the chunks before the image data; the image data are inflated with
/// the library `inflate` picks (Intel's ISA-L where the machine has it, two to three times as
/// fast as zlib) and unfiltered a whole pixel at a time (CThumbnails).
///
/// A non-interlaced image is decoded straight into the caller's batch buffer, one row at a
/// time. An interlaced (Adam7) image revisits every row in seven passes, so it is first decoded
/// whole into a buffer of `width × height` pixels (a 12-megapixel RGBA image: 48 MB) and then
/// delivered from there; the pixel limit bounds that buffer.
final class PNGRowSource: RowSource {
    private let decoder: OpaquePointer
    let width: Int
    let height: Int
    private let interlaced: Bool
    private var interlaceFinished = false
    private(set) var layout = PixelLayout.rgba
    var imageWidth: Int { width }
    var imageHeight: Int { height }

    /// Reads the header of the PNG in `bytes`, which must outlive the source, and checks it
    /// against `maxPixelCount` before anything in proportion to the image is allocated.
    static func open(
        _ bytes: UnsafeBufferPointer<UInt8>, maxPixelCount: Int, inflate: ThumbnailDecoder.Inflate
    ) throws(ThumbnailError) -> PNGRowSource {
        guard let decoder = ct_png_create(bytes.baseAddress, bytes.count, inflate.choice) else {
            throw .outOfMemory("cannot create a PNG decoder")
        }
        var info = ct_png_info()
        let status = ct_png_read_info(decoder, &info)
        guard status == CT_OK, Int(info.width) * Int(info.height) <= maxPixelCount else {
            let error = status == CT_OK
                ? ThumbnailError.tooManyPixels(width: Int(info.width), height: Int(info.height), limit: maxPixelCount)
                : ThumbnailError(status: status, message: ct_png_message(decoder))
            ct_png_destroy(decoder)
            throw error
        }
        // From here the source owns the decoder and its deinit destroys it.
        let source = PNGRowSource(decoder: decoder, info: info)
        var layout = CT_LAYOUT_RGBA
        var palette = [UInt8](repeating: 0, count: 1024)
        try source.check(ct_png_start(decoder, &layout, &palette))
        source.layout = PixelLayout(layout, palette: palette)
        return source
    }

    private init(decoder: OpaquePointer, info: ct_png_info) {
        self.decoder = decoder
        width = Int(info.width)
        height = Int(info.height)
        interlaced = info.interlaced != 0
    }

    deinit {
        ct_png_destroy(decoder)
    }

    func readRows(into buffer: UnsafeMutablePointer<UInt8>, stride: Int, maxRows: Int) throws(ThumbnailError) -> Int {
        if interlaced && !interlaceFinished {
            var finished: Int32 = 0
            try check(ct_png_decode_interlaced(decoder, UInt32(maxRows), &finished))
            interlaceFinished = finished != 0
            return 0
        }
        var rows: UInt32 = 0
        try check(ct_png_read_rows(decoder, buffer, stride, UInt32(maxRows), &rows))
        return Int(rows)
    }

    private func check(_ status: ct_status) throws(ThumbnailError) {
        guard status == CT_OK else { throw ThumbnailError(status: status, message: ct_png_message(decoder)) }
    }
}
