import ListDiff

/// A scrolling list, host-neutral: layout, scroll physics, ranges that load the landing zone
/// first, display events for reuse, coalesced chunked updates and row animations, driven by
/// the host's frame ticks.
///
/// Per ``tick(at:)``, on the main actor: at most one update chunk applied (with the first
/// visible row kept where it is on screen when rows arrive above it, a glide included), the
/// scroll advanced, ranges recomputed, display and range events sent, and a frame rendered.
/// Time comes only from the ticks.
@MainActor
public final class ListViewport<Item: Identifiable & Equatable & Sendable> where Item.ID: Sendable {
    /// One row's place in a frame, relative to the top of the viewport.
    public struct Row: Sendable, Equatable {
        /// The row's item.
        public var item: Item
        /// The top of the row, from the top of the viewport (negative when partly above it).
        public var top: Double
        /// Its height.
        public var height: Double
        /// 0 (invisible) to 1 (opaque).
        public var opacity: Double
        /// A deleted row fading out.
        public var isLeaving: Bool

        /// A row's place; the viewport makes them, hosts' tests may too.
        public init(item: Item, top: Double, height: Double, opacity: Double, isLeaving: Bool) {
            self.item = item
            self.top = top
            self.height = height
            self.opacity = opacity
            self.isLeaving = isLeaving
        }
    }

    /// What to draw.
    public struct Frame: Sendable, Equatable {
        /// The rows that intersect the viewport, top to bottom (leaving rows last).
        public var rows: [Row]
        /// The scroll offset.
        public var offset: Double
        /// The content's height.
        public var contentHeight: Double
        /// The header of the section at the top, drawn over ``rows`` (which leave its row
        /// out): at the viewport's top, or above it while the next header pushes it out.
        /// `nil` without sections, or above the first header.
        public var pinnedHeader: Row?

        /// A frame; the viewport makes them, hosts' tests may too.
        public init(rows: [Row], offset: Double, contentHeight: Double, pinnedHeader: Row? = nil) {
            self.rows = rows
            self.offset = offset
            self.contentHeight = contentHeight
            self.pinnedHeader = pinnedHeader
        }

        /// How far down from the viewport's top the pinned header covers the rows: its bottom,
        /// 0 when none is pinned (or it has been pushed out). Rows above it are hidden; a host
        /// drawing over the cells (pictures) clips there too.
        public var coveredTop: Double {
            pinnedHeader.map { max(0, $0.top + $0.height) } ?? 0
        }
    }

    /// The items, as the host's data source must return them.
    public var items: [Item] { coalescer.shown.first?.items ?? [] }
    /// The layout of ``items``.
    public private(set) var geometry = RowGeometry()
    /// The scroll position and motion.
    public private(set) var scroll = ScrollModel()
    /// The ranges of the last tick.
    public private(set) var ranges = ViewportRanges.empty
    /// The rows of ``items`` that are section headers (``ListViewportHost/isSectionHeader(_:)``).
    public private(set) var sectionHeaders = SectionHeaders()
    /// How far the ranges reach.
    public var rangeConfiguration = ViewportRanges.Configuration()

    private weak var host: (any ListViewportHost<Item>)?
    private let coalescer: UpdateCoalescer<SoleSection, Item>
    private var animator = RowAnimator<Item.ID>()
    private var tracker = RangeTracker<Item.ID>()
    private var heights: [Item.ID: Double] = [:]
    private var direction = ViewportRanges.Direction.down
    private var lastDrawn: [Item.ID: Double] = [:]
    private var needsLayout = true

    /// A viewport for `host`, showing nothing until the first snapshot arrives.
    ///
    /// - Parameters:
    ///   - maxChangesPerTick: the most rows one tick inserts, deletes, moves or reloads.
    ///   - animationLimit: larger changes are applied without animation.
    public init(host: any ListViewportHost<Item>, maxChangesPerTick: Int = 10, animationLimit: Int = 1_000) {
        self.host = host
        coalescer = UpdateCoalescer(initial: [ListSection(model: SoleSection(), items: [])],
                                    maxChangesPerTick: maxChangesPerTick, animationLimit: animationLimit)
    }

    // MARK: Input

    /// A new snapshot of the list; it is diffed off the main actor and applied over the next
    /// ticks, a chunk at a time. With `animated` false (the list of another query) it replaces
    /// what is shown on the next tick; see ``UpdateCoalescer/submit(_:animated:)``.
    public func submit(_ items: [Item], animated: Bool = true) {
        coalescer.submit([ListSection(model: SoleSection(), items: items)], animated: animated)
    }

    /// Returns once the latest snapshot has been diffed (its chunks wait for ticks).
    public func settled() async {
        await coalescer.settled()
    }

    /// The height of the visible part changed (a resize).
    public func setViewportHeight(_ height: Double) {
        scroll.setSizes(content: geometry.totalHeight, viewport: height)
        needsLayout = true
    }

    /// A row's real height, once known; rows above the first visible one keep it in place.
    public func setMeasuredHeight(_ height: Double, of id: Item.ID) {
        guard heights[id] != height else { return }
        heights[id] = height
        guard let row = items.firstIndex(where: { $0.id == id }) else { return }
        let anchor = firstVisibleAnchor()
        geometry.setHeight(height, ofRow: row)
        scroll.setSizes(content: geometry.totalHeight, viewport: scroll.viewportHeight)
        restore(anchor)
        needsLayout = true
    }

    /// Moves by `delta` as a finger, held key or wheel drags.
    public func drag(by delta: Double) {
        if delta != 0 { direction = delta > 0 ? .down : .up }
        scroll.drag(by: delta)
        needsLayout = true
    }

    /// Ends a drag, or starts a fling, at `velocity` units per second.
    /// Glides with a fling's deceleration to rest at `offset`; see
    /// ``ScrollModel/startFling(landingAt:at:)``.
    public func fling(landingAt offset: Double, at time: Duration) {
        if offset != scroll.offset { direction = offset > scroll.offset ? .down : .up }
        scroll.startFling(landingAt: offset, at: time)
        needsLayout = true
    }

    public func fling(velocity: Double, at time: Duration) {
        if velocity != 0 { direction = velocity > 0 ? .down : .up }
        scroll.startFling(velocity: velocity, at: time)
        needsLayout = true
    }

    /// Scrolls to an offset.
    public func scroll(to offset: Double, animated: Bool, at time: Duration) {
        direction = offset >= scroll.offset ? .down : .up
        scroll.scroll(to: offset, animated: animated, at: time)
        needsLayout = true
    }

    /// Scrolls so that `row` is at the top (or as near as the content allows).
    public func scroll(toRow row: Int, animated: Bool, at time: Duration) {
        guard row >= 0, row < geometry.count else { return }
        scroll(to: geometry.offset(ofRow: row), animated: animated, at: time)
    }

    /// Stops any motion.
    public func stop() {
        scroll.stop()
        needsLayout = true
    }

    /// Whether the next tick has anything to do: motion, an animation, or an update. A frame
    /// loop that ticks only while this holds costs nothing at rest.
    public var needsTick: Bool {
        needsLayout || scroll.isMoving || animator.isAnimating || coalescer.hasPendingWork
    }

    // MARK: Frame

    /// Advances the list to `time`: applies at most one update chunk, moves the scroll, sends
    /// display and range events and renders.
    public func tick(at time: Duration) {
        // The anchor and the rows are read before the update changes them.
        let anchor = firstVisibleAnchor()
        let oldItems = items
        if let update = coalescer.tick() {
            apply(update, replacing: oldItems, anchor: anchor, at: time)
        }
        let before = scroll.offset
        scroll.tick(at: time)
        if scroll.offset != before { direction = scroll.offset > before ? .down : .up }
        layout(at: time)
        needsLayout = false
    }

    private func apply(_ update: UpdateCoalescer<SoleSection, Item>.Update, replacing oldItems: [Item],
                       anchor: (id: Item.ID, screenOffset: Double, wasAtTop: Bool)?, at time: Duration) {
        let newItems = items
        // Heights of items the list no longer holds are forgotten; new ones are estimated.
        var kept: [Item.ID: Double] = [:]
        kept.reserveCapacity(newItems.count)
        var newHeights: [Double] = []
        newHeights.reserveCapacity(newItems.count)
        for item in newItems {
            let height = heights[item.id] ?? host?.estimatedHeight(of: item) ?? 1
            kept[item.id] = height
            newHeights.append(height)
        }
        var removed: [(id: Item.ID, height: Double)] = []
        for item in oldItems where kept[item.id] == nil && lastDrawn[item.id] != nil {
            removed.append((item.id, heights[item.id] ?? 1))
            leavingItems[item.id] = item
        }
        heights = kept
        geometry = RowGeometry(heights: newHeights)
        sectionHeaders = SectionHeaders(of: newItems) { host?.isSectionHeader($0) ?? false }
        scroll.setSizes(content: geometry.totalHeight, viewport: scroll.viewportHeight)
        let shift = restore(anchor)
        animator.shift(by: shift)
        for id in lastDrawn.keys { lastDrawn[id]! += shift }

        host?.didApply(update)
        if case .animated(let chunk) = update {
            var layout: [Item.ID: Double] = [:]
            let visible = geometry.rows(inOffset: scroll.offset - scroll.viewportHeight, length: scroll.viewportHeight * 3)
            for row in visible { layout[newItems[row].id] = geometry.offset(ofRow: row) }
            let inserted = Set(chunk.insertedItems.map(\.id))
            animator.begin(drawn: lastDrawn, layout: layout, inserted: inserted, removed: removed, at: time)
        }
    }

    /// The item at the top of the screen and how far its top is from the viewport's top.
    private func firstVisibleAnchor() -> (id: Item.ID, screenOffset: Double, wasAtTop: Bool)? {
        guard let row = geometry.row(atOffset: scroll.offset), row < items.count else { return nil }
        return (items[row].id, geometry.offset(ofRow: row) - scroll.offset, scroll.offset <= 0)
    }

    /// Shifts the scroll so the anchor item is where it was on screen; at the very top the
    /// list stays at the top and new rows push the old ones down. Returns the shift.
    @discardableResult
    private func restore(_ anchor: (id: Item.ID, screenOffset: Double, wasAtTop: Bool)?) -> Double {
        guard let anchor, !anchor.wasAtTop, let row = items.firstIndex(where: { $0.id == anchor.id }) else { return 0 }
        let delta = geometry.offset(ofRow: row) - anchor.screenOffset - scroll.offset
        guard delta != 0 else { return 0 }
        scroll.shift(by: delta)
        return delta
    }

    private func layout(at time: Duration) {
        let items = self.items
        ranges = ViewportRanges.compute(geometry: geometry, scroll: scroll, direction: direction, at: time,
                                        configuration: rangeConfiguration)
        // Rows drawn: those on screen, and a margin for rows sliding in from beyond it.
        let margin = scroll.viewportHeight
        let drawnRows = geometry.rows(inOffset: scroll.offset - margin, length: scroll.viewportHeight + 2 * margin)
        let placements = animator.placements(layout: drawnRows.map { (items[$0].id, geometry.offset(ofRow: $0)) }, at: time)
        lastDrawn = [:]
        var rows: [Row] = []
        var shownRows: [Int] = []
        // The pinned header is drawn where it is pinned, in place of its row (fading as it would).
        let pinnedPlace = sectionHeaders.pinned(in: geometry, atOffset: scroll.offset)
        var pinned = pinnedPlace.map { header in
            Row(item: items[header.row], top: header.top, height: geometry.height(ofRow: header.row), opacity: 1, isLeaving: false)
        }
        for (index, placement) in placements.enumerated() {
            lastDrawn[placement.id] = placement.offset
            if !placement.isLeaving, placement.id == pinned?.item.id {
                pinned?.opacity = placement.opacity
                continue
            }
            let height = heights[placement.id] ?? 1
            let top = placement.offset - scroll.offset
            guard top + height > 0, top < scroll.viewportHeight else { continue }
            if placement.isLeaving {
                guard let item = leavingItems[placement.id] else { continue }
                rows.append(Row(item: item, top: top, height: height, opacity: placement.opacity, isLeaving: true))
            } else {
                let row = drawnRows.lowerBound + index
                shownRows.append(row)
                rows.append(Row(item: items[row], top: top, height: height, opacity: placement.opacity, isLeaving: false))
            }
        }
        // A row sliding into view from far away is displayed (bound) like any other drawn row.
        if let first = shownRows.min(), let last = shownRows.max() {
            let display = ranges.display.isEmpty ? first..<(last + 1) : ranges.display
            ranges.display = min(display.lowerBound, first)..<max(display.upperBound, last + 1)
        }
        leavingItems = leavingItems.filter { id, _ in placements.contains { $0.isLeaving && $0.id == id } }

        // The pinned header is displayed (bound) as long as it is drawn, wherever its row is.
        let changes = tracker.update(ranges, pinnedRow: pinnedPlace?.row) { items[$0].id }
        if let host {
            for id in changes.display.left { host.didEndDisplaying(id) }
            if !changes.display.entered.isEmpty {
                let entered = Set(changes.display.entered)
                if let row = pinnedPlace?.row, !ranges.display.contains(row), entered.contains(items[row].id) {
                    host.willDisplay(items[row], at: row)
                }
                for row in ranges.display where entered.contains(items[row].id) { host.willDisplay(items[row], at: row) }
            }
            host.render(Frame(rows: rows, offset: scroll.offset, contentHeight: geometry.totalHeight, pinnedHeader: pinned))
        }
    }

    private var leavingItems: [Item.ID: Item] = [:]
}
