import Foundation

extension LoadingCore {
    /// How much work a core may run at once, and how it orders and weighs it.
    public struct Configuration: Sendable {
        /// The most data loads at once; 6, like a browser's connections per host.
        public var maxConcurrentLoads: Int
        /// The most processing jobs at once; by default one per core, as they are CPU-bound.
        /// A ``ContentPipeline`` runs them on that many threads of its own.
        public var maxConcurrentProcessing: Int
        /// The order within a priority tier.
        public var order: QueueOrder
        /// The memory-cache cost of a value (bytes, for images); 1 by default.
        public var cost: @Sendable (Value) -> Int
        /// When a load a row on screen waits for is asked for a second time; `nil`, the
        /// default, never.
        public var hedging: LoadHedging?

        /// Creates a configuration with the defaults above.
        public init(
            maxConcurrentLoads: Int = 6,
            maxConcurrentProcessing: Int = max(1, ProcessInfo.processInfo.activeProcessorCount),
            order: QueueOrder = .lifo,
            cost: @escaping @Sendable (Value) -> Int = { _ in 1 },
            hedging: LoadHedging? = nil
        ) {
            self.maxConcurrentLoads = maxConcurrentLoads
            self.maxConcurrentProcessing = maxConcurrentProcessing
            self.order = order
            self.cost = cost
            self.hedging = hedging
        }
    }
}
