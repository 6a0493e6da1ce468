/// Which rows a list should show, prepare and load at one moment, as ranges of row indices.
///
/// - ``visible``: on screen now.
/// - ``display``: on screen or about to be: rows whose views exist (bound to their items).
/// - ``preload``: rows whose content should be loading: the display range and more ahead.
/// - ``landing``: while a fling glides, the rows at its predicted resting place, which load
///   with the visible rows' priority at once, so the screen is filled when the glide stops.
/// - ``passing``: rows between here and the landing that will stay on screen long enough for a
///   load to arrive; rows that would flash by are not requested at all.
///
/// Buffers are in screenfuls and follow the scroll direction: more ahead of the motion
/// (leading) than behind it (trailing).
public struct ViewportRanges: Sendable, Equatable {
    public var visible: Range<Int>
    public var display: Range<Int>
    public var preload: Range<Int>
    public var landing: Range<Int>
    public var passing: [Int]

    /// Ranges with nothing in them.
    public static let empty = ViewportRanges(visible: 0..<0, display: 0..<0, preload: 0..<0, landing: 0..<0, passing: [])

    /// Buffers before and after the visible rows, in screenfuls, by scroll direction.
    public struct Buffers: Sendable, Equatable {
        /// Ahead of the motion.
        public var leading: Double
        /// Behind the motion.
        public var trailing: Double

        /// Buffers of `leading` and `trailing` screenfuls.
        public init(leading: Double, trailing: Double) {
            self.leading = leading
            self.trailing = trailing
        }
    }

    /// How far the ranges reach.
    public struct Configuration: Sendable, Equatable {
        /// The display range around the visible rows: 1.0 ahead and 0.5 behind, as Texture
        /// (AsyncDisplayKit) tunes its display range.
        public var display = Buffers(leading: 1.0, trailing: 0.5)
        /// The preload range: 2.5 ahead and 1.5 behind, Texture's preload defaults.
        public var preload = Buffers(leading: 2.5, trailing: 1.5)
        /// Extra screenfuls around a fling's landing that load with it.
        public var landingMargin = 0.5
        /// How long a load is expected to take: a row in a glide's path is requested only if it
        /// stays on screen at least this long from now.
        public var expectedLoadTime: Duration = .milliseconds(150)
        /// The most passing rows requested in one glide; the landing matters more.
        public var maxPassingRows = 24

        /// The defaults described on each property.
        public init() {}
    }

    /// Which way the list moves: down the content (offsets growing) or up.
    public enum Direction: Sendable, Equatable {
        case down, up
    }

    /// The ranges for a list laid out by `geometry` and scrolled as `scroll` says at `time`.
    ///
    /// - Complexity: O(log n) for the ranges, plus O(p log n) for p passing rows.
    public static func compute(geometry: RowGeometry, scroll: ScrollModel, direction: Direction, at time: Duration,
                               configuration: Configuration = Configuration()) -> ViewportRanges {
        let height = scroll.viewportHeight
        guard geometry.count > 0, height > 0 else { return .empty }
        func around(_ offset: Double, _ buffers: Buffers) -> Range<Int> {
            let before = (direction == .down ? buffers.trailing : buffers.leading) * height
            let after = (direction == .down ? buffers.leading : buffers.trailing) * height
            return geometry.rows(inOffset: offset - before, length: before + height + after)
        }
        let offset = scroll.offset
        var ranges = ViewportRanges(
            visible: geometry.rows(inOffset: offset, length: height),
            display: around(offset, configuration.display),
            preload: around(offset, configuration.preload),
            landing: 0..<0, passing: [])
        guard scroll.phase == .decelerating || scroll.phase == .animating else { return ranges }
        let landing = scroll.predictedLanding
        let margin = configuration.landingMargin * height
        ranges.landing = geometry.rows(inOffset: landing - margin, length: height + 2 * margin)
        guard scroll.phase == .decelerating else { return ranges }

        // Rows between the screen now and the landing: worth a request only if, once the load
        // arrives, they are still on screen.
        let gliding: Direction = landing >= offset ? .down : .up
        let (start, end) = gliding == .down
            ? (ranges.visible.upperBound, ranges.landing.lowerBound)
            : (ranges.landing.upperBound, ranges.visible.lowerBound)
        guard start < end else { return ranges }
        let deadline = time + configuration.expectedLoadTime
        let rows = gliding == .down ? Array(start..<end) : (start..<end).reversed()
        for row in rows {
            // The moment the row leaves: its bottom passes the top (down), its top the bottom (up).
            let leaves = gliding == .down
                ? geometry.offset(ofRow: row + 1)
                : geometry.offset(ofRow: row) - height
            if let leaving = scroll.predictedTime(reaching: leaves), leaving < deadline { continue }
            ranges.passing.append(row)
            if ranges.passing.count == configuration.maxPassingRows { break }
        }
        return ranges
    }
}
