/// Hashes that are the same in every process and on every platform, unlike the standard
/// library's `Hasher`, which is seeded at random per launch: what names a file in a disk cache,
/// checks a cached payload, or makes an entry id that must survive restarts.
public enum StableHash {
    /// FNV-1a's 64-bit offset basis.
    public static let fnvBasis: UInt64 = 0xCBF2_9CE4_8422_2325

    /// The 64-bit FNV-1a hash of `bytes`, from `basis`.
    /// - Complexity: O(n).
    @inlinable
    public static func fnv1a64(_ bytes: some Sequence<UInt8>, basis: UInt64 = fnvBasis) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes as 16 lowercase hexadecimal digits.
    public static func hex(_ text: String) -> String {
        hexDigits(fnv1a64(text.utf8))
    }

    /// 128 bits of `bytes` as 32 hexadecimal digits: two FNV-1a passes with different bases,
    /// each finished with a SplitMix64 mix so that nearby keys spread.
    public static func hex128(_ bytes: [UInt8]) -> String {
        hexDigits(mix(fnv1a64(bytes))) + hexDigits(mix(fnv1a64(bytes, basis: 0x8422_2325_CBF2_9CE4)))
    }

    private static func hexDigits(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
