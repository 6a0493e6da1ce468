/// Finds the EXIF orientation of a JPEG by walking its markers up to the first scan, and of a
/// PNG by walking its chunks to `eXIf`.
///
/// Every offset is checked against the data, so a damaged or hostile APP1 segment yields
/// `.up` rather than a crash; the orientation is a display hint, not a reason to fail.
enum ExifOrientationReader {
    private static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let orientationTag: UInt16 = 0x0112
    private static let shortType: UInt16 = 3

    /// The orientation in the first Exif APP1 segment of `jpeg`, or `.up` if there is none.
    ///
    /// - Complexity: O(number of markers before the first scan + entries in IFD0).
    static func orientation(ofJPEG jpeg: [UInt8]) -> ImageOrientation {
        var offset = 2
        while offset + 4 <= jpeg.count {
            guard jpeg[offset] == 0xFF else { return .up }
            let marker = jpeg[offset + 1]
            // 0xFF fill bytes may pad between markers.
            if marker == 0xFF {
                offset += 1
                continue
            }
            // Markers without a length: TEM and the restart markers.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            // The first scan or the end of the image: APP1 comes before both.
            if marker == 0xDA || marker == 0xD9 { return .up }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2, offset + 2 + length <= jpeg.count else { return .up }
            let payload = (offset + 4)..<(offset + 2 + length)
            if marker == 0xE1, jpeg[payload].starts(with: exifHeader) {
                let tiff = (payload.lowerBound + exifHeader.count)..<payload.upperBound
                return orientation(inTIFF: tiff, of: jpeg) ?? .up
            }
            offset += 2 + length
        }
        return .up
    }

    /// The orientation in the `eXIf` chunk of `png` (a TIFF structure, as in a JPEG's APP1
    /// after its header), before or after the image data, or `.up` if there is none.
    ///
    /// - Complexity: O(number of chunks + entries in IFD0).
    static func orientation(ofPNG png: [UInt8]) -> ImageOrientation {
        var offset = 8
        while offset <= png.count - 12 {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= png.count - offset - 12 else { return .up }
            let type = png[(offset + 4)..<(offset + 8)]
            if type.elementsEqual("eXIf".utf8) {
                return orientation(inTIFF: (offset + 8)..<(offset + 8 + length), of: png) ?? .up
            }
            if type.elementsEqual("IEND".utf8) { return .up }
            offset += 12 + length
        }
        return .up
    }

    /// The orientation entry of IFD0 in the TIFF structure at `range`, if present and valid.
    private static func orientation(inTIFF range: Range<Int>, of bytes: [UInt8]) -> ImageOrientation? {
        guard range.count >= 8 else { return nil }
        let base = range.lowerBound
        let bigEndian: Bool
        switch (bytes[base], bytes[base + 1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        // Reads a little- or big-endian integer of `size` bytes at `offset` within the TIFF data.
        func read(_ offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset <= range.count - size else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(bytes[base + offset + (bigEndian ? index : size - 1 - index)])
                value = value << 8 | byte
            }
            return value
        }
        guard read(2, size: 2) == 42, let ifd = read(4, size: 4), let count = read(ifd, size: 2) else { return nil }
        for entry in 0..<count {
            let position = ifd + 2 + entry * 12
            guard let tag = read(position, size: 2) else { return nil }
            guard tag == orientationTag else { continue }
            guard read(position + 2, size: 2) == Int(shortType), read(position + 4, size: 4) == 1,
                  let value = read(position + 8, size: 2) else { return nil }
            return ImageOrientation(rawValue: UInt16(value))
        }
        return nil
    }
}
