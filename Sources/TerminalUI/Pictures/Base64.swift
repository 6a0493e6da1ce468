/// Base64 (RFC 4648, with padding), for the kitty graphics protocol.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64.
    /// - Complexity: O(n).
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let a = UInt32(bytes[index])
            let b = count > 1 ? UInt32(bytes[index + 1]) : 0
            let c = count > 2 ? UInt32(bytes[index + 2]) : 0
            let group = a << 16 | b << 8 | c
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(count > 1 ? alphabet[Int(group >> 6 & 63)] : 0x3D)
            out.append(count > 2 ? alphabet[Int(group & 63)] : 0x3D)
            index += 3
        }
        return out
    }
}
