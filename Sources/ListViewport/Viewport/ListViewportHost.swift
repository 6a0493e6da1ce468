import ListDiff

/// What a view implements to host a ``ListViewport``: the terminal reader does, and a UIKit
/// table or collection view adapter would, with each call mapping to what UIKit asks or tells.
///
/// Calls come on the main actor, from ``ListViewport/tick(at:)``, in this order within a frame:
/// an update (if one is ready), display events, then ``render(_:)``. Content loads follow the
/// viewport's ``ListViewport/ranges`` at render: ViewportLoading's `RowBinder` prefetches what
/// ``ViewportRanges/rowsToLoad`` lists (UIKit: `prefetchRowsAt` and
/// `cancelPrefetchingForRowsAt`, with the landing range as an extension).
@MainActor
public protocol ListViewportHost<Item>: AnyObject {
    associatedtype Item: Identifiable & Equatable & Sendable where Item.ID: Sendable

    /// The height of `item`'s row, estimated until ``ListViewport/setMeasuredHeight(_:of:)``
    /// says better. UIKit: `estimatedHeightForRowAt` / `heightForRowAt`.
    func estimatedHeight(of item: Item) -> Double

    /// One chunk of a list update was applied to the viewport's items. UIKit:
    /// `performBatchUpdates` with the chunk's ``UpdateChunk/update``; the data source already
    /// returns the new items (``ListViewport/items``). A view with sections takes the
    /// section and item updates of ``SectionedRows/update(to:)`` instead.
    func didApply(_ update: UpdateCoalescer<SoleSection, Item>.Update)

    /// `item` enters the display range at `row`: bind its view (and its content slots) to it.
    /// UIKit: `cellForRowAt` followed by `willDisplay`.
    func willDisplay(_ item: Item, at row: Int)

    /// The item with `id` left the display range, or the list: unbind its view, so a reused
    /// view can never show this item's content. UIKit: `didEndDisplaying`.
    func didEndDisplaying(_ id: Item.ID)

    /// Draw the frame: every row's place and opacity relative to the top of the viewport,
    /// and the pinned section header over them. UIKit: the cells' frames and alphas in
    /// `layoutSubviews`.
    func render(_ frame: ListViewport<Item>.Frame)

    /// Whether `item` is a section's header: the row above its section's items, pinned at the
    /// top of the viewport while they scroll under it (``SectionHeaders``). UIKit:
    /// `numberOfSections` and `viewForHeaderInSection`, the sections being the runs of rows
    /// from one header to the next (``SectionedRows``). None is, unless the host says so.
    func isSectionHeader(_ item: Item) -> Bool
}

extension ListViewportHost {
    /// No item is a section header: a list without sections.
    public func isSectionHeader(_ item: Item) -> Bool { false }
}
