import CZlib

/// The system zlib (through `CZlib`), for the pictures sent to a terminal compressed: kitty's `o=z`
/// and the PNG files of iTerm2 images.
enum Zlib {
    /// `bytes` as a zlib stream (RFC 1950) at the fastest level; nil if zlib failed.
    /// - Complexity: O(n).
    static func deflated(_ bytes: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: cz_deflate_bound(bytes.count))
        let size = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                cz_deflate(input.baseAddress, input.count, output.baseAddress, output.count, 1)
            }
        }
        guard size > 0 else { return nil }
        out.removeSubrange(size...)
        return out
    }

    /// The CRC-32 of `bytes`, as PNG chunks carry it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { cz_crc32(0, $0.baseAddress, $0.count) }
    }
}
