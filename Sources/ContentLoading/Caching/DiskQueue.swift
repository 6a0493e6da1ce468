import Foundation

/// The one serial queue for disk-cache I/O: blocking file calls stay off the cooperative
/// thread pool, and reads and writes of one entry happen in order.
enum DiskQueue {
    private static let queue = DispatchQueue(label: "Scrollwork.ContentLoading.disk")

    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    static func enqueue(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}
