/// Gives every displayed row, for each frame, where to draw it and how opaque: rows inserted by
/// an update fade in, deleted rows fade out where they were while the rows below close the gap,
/// moved and pushed rows slide from where they were seen to where the layout puts them.
///
/// It animates from what is on screen, not from the last layout: an update that arrives while
/// rows are still sliding starts each row from its current drawn position, so animations are
/// interruptible without a jump. Time is the caller's, as everywhere in ListViewport.
package struct RowAnimator<ID: Hashable & Sendable>: Sendable {
    /// How long the animations last.
    public struct Durations: Sendable, Equatable {
        /// An inserted row fading in.
        public var insert: Duration = .milliseconds(250)
        /// A deleted row fading out.
        public var delete: Duration = .milliseconds(200)
        /// A row sliding to its new place.
        public var move: Duration = .milliseconds(250)

        /// The defaults: about what UIKit's row animations take.
        public init() {}
    }

    /// Where and how to draw one row in a frame.
    public struct Placement: Sendable, Equatable {
        /// The row's item.
        public var id: ID
        /// The top of the row, in content units.
        public var offset: Double
        /// 0 (invisible) to 1 (opaque).
        public var opacity: Double
        /// A deleted row still fading out: drawn, but no longer in the list.
        public var isLeaving: Bool
    }

    private struct Slide: Sendable {
        var from: Double
        var start: Duration
    }

    private struct Fade: Sendable {
        var start: Duration
    }

    private struct Leaving: Sendable {
        var id: ID
        var offset: Double
        var height: Double
        var start: Duration
    }

    /// How long the animations last.
    public var durations: Durations
    private var slides: [ID: Slide] = [:]
    private var fades: [ID: Fade] = [:]
    private var leaving: [Leaving] = []

    /// An animator with nothing in motion.
    public init(durations: Durations = Durations()) {
        self.durations = durations
    }

    /// Starts the animations of an update.
    ///
    /// - Parameters:
    ///   - drawn: where each row was drawn in the last frame (``placements(layout:at:)``).
    ///   - layout: where each row sits after the update.
    ///   - inserted: rows the update inserted: they fade in where the layout puts them.
    ///   - removed: rows the update deleted, with their height: they fade out where drawn.
    ///   - time: now.
    public mutating func begin(drawn: [ID: Double], layout: [ID: Double], inserted: Set<ID>,
                               removed: [(id: ID, height: Double)], at time: Duration) {
        for (id, offset) in layout where !inserted.contains(id) {
            if let from = drawn[id], from != offset {
                slides[id] = Slide(from: from - offset, start: time)
            }
        }
        for id in inserted {
            fades[id] = Fade(start: time)
            slides[id] = nil
        }
        for (id, height) in removed {
            guard let offset = drawn[id] else { continue }
            leaving.append(Leaving(id: id, offset: offset, height: height, start: time))
            slides[id] = nil
            fades[id] = nil
        }
    }

    /// Shifts everything drawn by `delta`: the viewport moved its content under the rows
    /// (rows inserted above the first visible one) and the animations must move with it.
    public mutating func shift(by delta: Double) {
        for index in leaving.indices { leaving[index].offset += delta }
    }

    /// Where to draw each row at `time`: the rows of `layout` (item and laid-out offset) with
    /// their slides and fades applied, then the rows still leaving.
    /// - Complexity: O(r) for r rows.
    public mutating func placements(layout: [(id: ID, offset: Double)], at time: Duration) -> [Placement] {
        var result: [Placement] = []
        result.reserveCapacity(layout.count + leaving.count)
        for (id, offset) in layout {
            var drawn = offset
            var opacity = 1.0
            if let slide = slides[id] {
                let progress = Self.progress(since: slide.start, over: durations.move, at: time)
                if progress >= 1 { slides[id] = nil } else { drawn += slide.from * (1 - Self.easeOut(progress)) }
            }
            if let fade = fades[id] {
                let progress = Self.progress(since: fade.start, over: durations.insert, at: time)
                if progress >= 1 { fades[id] = nil } else { opacity = Self.easeOut(progress) }
            }
            result.append(Placement(id: id, offset: drawn, opacity: opacity, isLeaving: false))
        }
        // Animations of rows no longer drawn (scrolled away mid-slide) end on time too.
        let move = durations.move, insert = durations.insert
        slides = slides.filter { Self.progress(since: $0.value.start, over: move, at: time) < 1 }
        fades = fades.filter { Self.progress(since: $0.value.start, over: insert, at: time) < 1 }
        leaving.removeAll { Self.progress(since: $0.start, over: durations.delete, at: time) >= 1 }
        for row in leaving {
            let progress = Self.progress(since: row.start, over: durations.delete, at: time)
            result.append(Placement(id: row.id, offset: row.offset, opacity: 1 - Self.easeOut(progress), isLeaving: true))
        }
        return result
    }

    /// Whether anything is still in motion: the frame loop keeps ticking while it is.
    public var isAnimating: Bool { !slides.isEmpty || !fades.isEmpty || !leaving.isEmpty }

    static func progress(since start: Duration, over duration: Duration, at time: Duration) -> Double {
        guard duration > .zero else { return 1 }
        return min(1, max(0, ScrollModel.milliseconds(time - start) / ScrollModel.milliseconds(duration)))
    }

    /// Ease-out cubic: quick to start, gentle to settle.
    static func easeOut(_ progress: Double) -> Double {
        let remaining = 1 - progress
        return 1 - remaining * remaining * remaining
    }
}
