/// Names one unit of work of a ``LoadingCore``: a data load or a processing job.
///
/// The core hands out identities in increasing order and never reuses one, so an outcome
/// reported for work the core has forgotten (cancelled, then stopped) cannot be mistaken for
/// newer work.
public struct WorkID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The identity's number, increasing in the order the work was created.
    public let rawValue: UInt64

    init(rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: WorkID, rhs: WorkID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }
}
