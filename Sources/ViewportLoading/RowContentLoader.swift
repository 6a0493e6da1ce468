import ContentLoading

/// A place in a row for content that loads, as a ``RowBinder`` uses it: ``ContentSlot`` is one.
@MainActor
public protocol RowContentSlot: AnyObject {
    associatedtype Request: ContentRequest

    /// Binds the slot to `request` at `priority`, ending its binding to anything else; a value
    /// reaches the slot only while it stays bound to it.
    func bind(_ request: Request, priority: LoadPriority)

    /// Unbinds the slot, stopping its work unless someone else wants it.
    func unbind()
}

/// What a ``RowBinder`` loads rows with: slots, and prefetches. ``ContentLoader`` is one; a
/// test drives a ``LoaderFront`` on a clock of its own.
@MainActor
public protocol RowContentLoader: AnyObject {
    associatedtype Slot: RowContentSlot

    /// A new slot, bound to nothing.
    func makeSlot() -> Slot

    /// Stops, changes the priority of, and starts prefetches, in that order.
    func apply(_ changes: PrefetchChanges<Slot.Request>)
}

extension ContentSlot: RowContentSlot {}

extension ContentLoader: RowContentLoader {}
