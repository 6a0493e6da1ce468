/// An identity whose equality is the equality of its bytes: two values are equal exactly when
/// their representations in memory are. Integers are; so is Foundation's `UUID`, which a
/// client can declare (`extension UUID: @retroactive BitwiseIdentity {}`).
///
/// A diff hashes the identities of a conforming type of 8 or 16 bytes with a seeded mixer of
/// its bits instead of SipHash through `Hasher`: hashing is the largest cost of a diff, and
/// the mixer takes a few instructions. The seed is drawn once per process, so an adversary who
/// cannot read it cannot choose identities that collide. Types of other sizes are hashed with
/// `Hasher`, as any other identity.
///
/// Conform only a type whose `==` compares every byte of the value and nothing else: no
/// padding, no references, no fields left out of equality.
public protocol BitwiseIdentity: Hashable {}

extension Int: BitwiseIdentity {}
extension Int64: BitwiseIdentity {}
extension UInt: BitwiseIdentity {}
extension UInt64: BitwiseIdentity {}

/// The seed of ``BitwiseIdentity`` hashing, drawn once per process.
@usableFromInline
let bitwiseIdentitySeed: (UInt64, UInt64) = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))

/// The hash of identities, chosen once per diff for the identity type.
@usableFromInline
struct IdentityHasher<ID: Hashable> {
    /// Whether `ID` is a ``BitwiseIdentity`` of 8 or 16 bytes.
    @usableFromInline let isBitwise: Bool
    @usableFromInline let seed: (UInt64, UInt64)

    @inlinable
    init() {
        let size = MemoryLayout<ID>.size
        isBitwise = ID.self is any BitwiseIdentity.Type && (size == 8 || size == 16) && MemoryLayout<ID>.stride == size
        seed = bitwiseIdentitySeed
    }

    /// The hash of `id`.
    /// - Complexity: O(1) for a bitwise identity; `Hashable`'s cost otherwise.
    @inlinable
    func hash(_ id: ID) -> Int {
        guard isBitwise else { return id.hashValue }
        return withUnsafeBytes(of: id) { bytes in
            let low = bytes.loadUnaligned(as: UInt64.self)
            guard bytes.count == 16 else { return Int(truncatingIfNeeded: Self.mix(low ^ seed.0)) }
            let high = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            return Int(truncatingIfNeeded: Self.mix(low ^ seed.0 ^ Self.mix(high ^ seed.1)))
        }
    }

    /// SplitMix64's finalizer: every bit of the input moves about half the bits of the output.
    @inlinable
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
