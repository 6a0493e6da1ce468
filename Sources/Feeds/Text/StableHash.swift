/// FNV-1a, 64 bits: a hash that is the same in every process and on every platform, unlike
/// the standard library's `Hasher`, which is seeded at random per launch. Entry ids made from
/// it must survive restarts, so the store recognizes the same post next time.
enum StableHash {
    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes.
    ///
    /// - Complexity: O(n) in the length of `text`.
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The hash as 16 lowercase hexadecimal digits.
    static func hex(_ text: String) -> String {
        let digits = String(fnv1a64(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
