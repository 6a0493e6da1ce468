/// PNG's chunk framing, for tests that write the files no encoder writes: damaged, split or
/// hostile ones.
package enum PNGChunks {
    /// The eight bytes every PNG starts with.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The chunk CRC (CRC-32, polynomial 0xEDB88320) of a chunk's type and data.
    package static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// A whole chunk: its length, `type`, `data` and CRC.
    package static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    /// `value` as PNG stores integers: four bytes, most significant first.
    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// `png` with an `eXIf` chunk holding `orientation` after its header, or, if
    /// `afterImageData`, just before its end (where some encoders write it).
    package static func insertingExifOrientation(_ orientation: UInt16, into png: [UInt8], bigEndian: Bool = true, afterImageData: Bool = false) -> [UInt8] {
        let chunk = chunk("eXIf", JPEGFixture.exifOrientationTIFF(orientation, bigEndian: bigEndian))
        // IHDR is always the first chunk (33 bytes from the start); IEND the last, 12 bytes.
        let at = afterImageData ? png.count - 12 : 33
        return Array(png[..<at]) + chunk + Array(png[at...])
    }
}
