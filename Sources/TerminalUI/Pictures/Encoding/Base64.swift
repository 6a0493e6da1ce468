/// Base64 (RFC 4648, with padding), for kitty graphics and iTerm2 images.
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

    /// The bytes `text` encodes (padding optional); nil if it holds a character outside the
    /// alphabet.
    /// - Complexity: O(n).
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var group: UInt32 = 0
        var count = 0
        for byte in text where byte != 0x3D {
            let value: UInt8
            switch byte {
            case 0x41...0x5A: value = byte - 0x41
            case 0x61...0x7A: value = byte - 0x61 + 26
            case 0x30...0x39: value = byte - 0x30 + 52
            case 0x2B: value = 62
            case 0x2F: value = 63
            default: return nil
            }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                out += [UInt8(group >> 16 & 0xFF), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)]
                (group, count) = (0, 0)
            }
        }
        if count == 3 { out += [UInt8(group >> 10 & 0xFF), UInt8(group >> 2 & 0xFF)] }
        if count == 2 { out.append(UInt8(group >> 4 & 0xFF)) }
        return out
    }
}
