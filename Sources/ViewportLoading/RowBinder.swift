import ContentLoading
import ListViewport

/// One content slot per displayed row, for a ``ListViewportHost``: a slot bound when its row
/// starts displaying and unbound when it ends, slots reused from a pool, and each frame's
/// ranges prefetched through a ``PrefetchPlan``.
///
/// A host calls ``display(_:request:priority:)`` from
/// ``ListViewportHost/willDisplay(_:at:)`` (and again for a row whose item changed),
/// ``endDisplay(_:)`` from ``ListViewportHost/didEndDisplaying(_:)``, and
/// ``load(_:id:request:)`` once per frame, from ``ListViewportHost/render(_:)``. A slot only
/// ever receives the value of the request it is bound to now, so a reused slot never shows its
/// previous row's content.
@MainActor
public struct RowBinder<ID: Hashable & Sendable, Loader: RowContentLoader> {
    /// A row's slot.
    public typealias Slot = Loader.Slot
    /// What a slot loads.
    public typealias Request = Slot.Request

    /// The loader the slots and prefetches belong to.
    public let loader: Loader
    private var slots: [ID: Slot] = [:]
    private var spare: [Slot] = []
    private var prefetches = PrefetchPlan<ID, Request>()

    /// A binder with no row displayed, loading with `loader`.
    public init(loader: Loader) {
        self.loader = loader
    }

    /// The slot of the row of `id`, while it is displayed.
    /// - Complexity: O(1).
    public func slot(for id: ID) -> Slot? { slots[id] }

    /// The row of `id` starts displaying, or shows a new version of its item: binds its slot
    /// (a spare one, or a new one, for a row that had none) to `request`.
    ///
    /// - Parameter priority: by default the background tier: ``load(_:id:request:)`` raises
    ///   the rows the ranges list, and a row that flashes by during a glide loads only if
    ///   nothing else waits.
    /// - Returns: the row's slot.
    /// - Complexity: O(1) amortized, plus the slot's bind.
    @discardableResult
    public mutating func display(_ id: ID, request: Request, priority: LoadPriority = .background) -> Slot {
        let slot = slots[id] ?? dequeueSlot()
        slots[id] = slot
        slot.bind(request, priority: priority)
        return slot
    }

    /// The row of `id` ended displaying: its slot is unbound and goes back to the pool.
    /// - Complexity: O(1) amortized, plus the slot's unbind.
    public mutating func endDisplay(_ id: ID) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        recycle(slot)
    }

    /// Prefetches the rows this frame's ranges list (``ViewportRanges/rowsToLoad``) at their
    /// priorities, raising, lowering and stopping them as the ranges change, with `id(row)` the
    /// item at a row and `request(row)` its request (nil for a row with nothing to load).
    /// Call once per frame.
    /// - Complexity: O(r log r) for the r rows to load now and before.
    public mutating func load(_ ranges: ViewportRanges, id: (Int) -> ID, request: (Int) -> Request?) {
        loader.apply(prefetches.update(ranges, id: id, request: request))
    }

    /// A slot for content that is not a row's (an open article's pictures): a spare one, or a
    /// new one. Give it back with ``recycle(_:)``.
    /// - Complexity: O(1) amortized.
    public mutating func dequeueSlot() -> Slot {
        spare.popLast() ?? loader.makeSlot()
    }

    /// Unbinds a slot from ``dequeueSlot()`` and keeps it for reuse.
    /// - Complexity: O(1) amortized, plus the slot's unbind.
    public mutating func recycle(_ slot: Slot) {
        slot.unbind()
        spare.append(slot)
    }

    /// Unbinds every row's slot and stops every prefetch: the list goes away.
    /// - Complexity: O(n) for the n rows displayed and prefetched.
    public mutating func unbindAll() {
        for id in Array(slots.keys) { endDisplay(id) }
        loader.apply(PrefetchChanges(stop: Array(prefetches.planned)))
        prefetches = PrefetchPlan()
    }
}
