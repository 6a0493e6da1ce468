/// Hedged loads (Dean and Barroso's hedged requests, from *The Tail at Scale*): a data load
/// wanted at ``priority`` or above that is still running after the delay is asked for a
/// second time; the first answer wins and the other load is cancelled, and a failure
/// waits for the other. A slow answer (a lost packet, a server's queue) is rarely slow
/// twice, so a row on screen waits about the delay plus a typical load instead of the
/// latency's tail. The delay follows the network: the ``percentile`` of the last
/// ``window`` loads' times, so that about one load in five is hedged on any network. A
/// hedge takes a place against the core's concurrency limit like any load, and a load is
/// hedged once.
public struct LoadHedging: Sendable, Equatable {
    /// The share of recent loads that end before a load is hedged: 0.8 by default, so a load
    /// is hedged once it has run longer than four loads in five took.
    public var percentile = 0.8
    /// The delay until ``window`` loads have ended, and whenever a fixed delay is wanted
    /// (``fixed(_:)``): 250 ms, about the 80th percentile of a mobile network's image
    /// loads (`bench scroll`'s model: median 120 ms, 95th percentile 600 ms).
    public var initialDelay: Duration = .milliseconds(250)
    /// The shortest delay, however fast the network: 50 ms.
    public var minimumDelay: Duration = .milliseconds(50)
    /// How many of the last loads' times the delay is read from; 0 for a fixed delay.
    public var window = 32
    /// The least priority of the loads that are hedged: by default, those a row on screen,
    /// or about to be, waits for.
    public var priority = LoadPriority.display

    /// The defaults described on each property.
    public init() {}

    /// Hedging after `delay` whatever the network.
    public static func fixed(_ delay: Duration) -> LoadHedging {
        var hedging = LoadHedging()
        hedging.initialDelay = delay
        hedging.window = 0
        return hedging
    }
}
