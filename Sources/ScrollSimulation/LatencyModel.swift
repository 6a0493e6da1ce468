import SeededRandom

/// How long a row's content takes to arrive and to decode, drawn from a seeded log-normal
/// distribution so that every strategy, the simulation and the real run over loopback HTTP
/// see the same delay for the same load of the same item.
///
/// The k-th load of an item (k from 1, as ``LoopbackHTTPServer``'s hit counts go) always
/// takes the same time for a given seed: a strategy that loads a row twice pays two draws, and
/// the real server, asked twice for the same path, answers with the same two delays.
package struct LatencyModel: Sendable, Equatable {
    /// The median delay before a load's data has arrived.
    package var median: Duration
    /// The 95th percentile of that delay.
    package var percentile95: Duration
    /// The smallest and largest size of a row's content, in bytes.
    package var sizes: ClosedRange<Int>
    /// Decoding speed: bytes decoded per millisecond of one core.
    package var decodedBytesPerMillisecond: Int
    /// Fixes every draw.
    package var seed: UInt64

    /// The model: median 120 ms, 95th percentile 600 ms, 20 to 80 KB per row, decoded
    /// at 10 KB per millisecond (2 to 8 ms a thumbnail).
    package init(seed: UInt64, median: Duration = .milliseconds(120), percentile95: Duration = .milliseconds(600),
                sizes: ClosedRange<Int> = 20_000...80_000, decodedBytesPerMillisecond: Int = 10_000) {
        precondition(median > .zero && percentile95 >= median, "LatencyModel: 0 < median <= p95")
        self.seed = seed
        self.median = median
        self.percentile95 = percentile95
        self.sizes = sizes
        self.decodedBytesPerMillisecond = decodedBytesPerMillisecond
    }

    /// How long the `attempt`-th load of `item` (from 1) takes until its last byte.
    /// - Complexity: O(1).
    package func latency(item: Int, attempt: Int) -> Duration {
        var random = generator(item: item, salt: UInt64(attempt))
        // Box–Muller: a standard normal from two uniforms in (0, 1].
        let u1 = Double(random.next() >> 11 + 1) / Double(1 << 53)
        let u2 = Double(random.next() >> 11) / Double(1 << 53)
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        let sigma = log(Self.milliseconds(percentile95) / Self.milliseconds(median)) / 1.644_853_6
        let milliseconds = Self.milliseconds(median) * exp(sigma * normal)
        return .microseconds(Int64((milliseconds * 1000).rounded()))
    }

    /// The size of `item`'s content in bytes, the same for every load of it.
    package func size(item: Int) -> Int {
        var random = generator(item: item, salt: 0)
        return Int.random(in: sizes, using: &random)
    }

    /// How long decoding `bytes` takes on one core.
    package func decodeTime(bytes: Int) -> Duration {
        .microseconds(Int64(bytes) * 1000 / Int64(decodedBytesPerMillisecond))
    }

    private func generator(item: Int, salt: UInt64) -> SeededGenerator {
        SeededGenerator(seed: seed &+ UInt64(truncatingIfNeeded: item) &* 0x9E37_79B9_7F4A_7C15 &+ salt &* 0xC2B2_AE3D_27D4_EB4F)
    }

    /// `duration` in milliseconds, fractions included.
    package static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
