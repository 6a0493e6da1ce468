import Synchronization

/// Values recorded from any task or thread, read back in the order they were recorded.
public final class Recorder<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])

    public init() {}

    public func record(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    public var all: [Element] {
        elements.withLock { $0 }
    }
}
