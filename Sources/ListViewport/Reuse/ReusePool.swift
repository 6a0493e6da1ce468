/// Row views kept for reuse, by kind, as UIKit's `dequeueReusableCell(withIdentifier:)` keeps
/// cells: a view whose row ends displaying goes back to the pool of its kind, and the next row
/// of that kind to be displayed takes it, the most recently returned first.
///
/// A host takes a view in ``ListViewportHost/willDisplay(_:at:)`` and returns it in
/// ``ListViewportHost/didEndDisplaying(_:)``, unbinding its content slots first, so that a
/// reused view never shows its previous item's content.
public struct ReusePool<Kind: Hashable, View> {
    private var spare: [Kind: [View]] = [:]
    /// How many views were made because none of their kind was spare.
    package private(set) var made = 0

    /// An empty pool.
    public init() {}

    /// A spare view of `kind`, or a new one from `make` when there is none.
    /// - Complexity: O(1) amortized, plus `make`.
    public mutating func dequeue(_ kind: Kind, orMake make: () -> View) -> View {
        if let view = spare[kind]?.popLast() { return view }
        made += 1
        return make()
    }

    /// Returns `view`, of `kind`, for a later row to reuse.
    /// - Complexity: O(1) amortized.
    public mutating func enqueue(_ view: View, kind: Kind) {
        spare[kind, default: []].append(view)
    }
}
