/// The seed for a randomized test: `SCROLLWORK_SEED` from the environment if set (to replay a
/// failure), else a fresh random one. Tests print it, so any failure can be replayed.
package func randomizedTestSeed() -> UInt64 {
    if let text = getenv("SCROLLWORK_SEED").map({ String(cString: $0) }), let seed = UInt64(text) { return seed }
    return UInt64.random(in: .min ... .max)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
