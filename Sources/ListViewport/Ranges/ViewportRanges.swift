/// Which rows a list should show, prepare and load at one moment, as ranges of row indices.
///
/// - ``visible``: on screen now.
/// - ``display``: on screen or about to be: rows whose views exist (bound to their items).
/// - ``preload``: rows whose content should be loading: the display range and more ahead.
/// - ``landing``: while a fling glides, the rows at its predicted resting place (and half a
///   screen before it), listed from ``Configuration/landingLead`` before the glide stops or
///   ``Configuration/passingLead`` before they are needed, so the screen is filled when it
///   stops; an animated scroll's target at once.
/// - ``passing``: rows from the screen now to the landing that will stay on screen long
///   enough to be seen once a load has arrived, from ``Configuration/passingLead`` before
///   they are needed; rows that would flash by are not requested at all.
///
/// ``rowsToLoad`` turns them into tiers of urgency, which a host maps to its loader's priorities.
///
/// Buffers are in screenfuls and follow the scroll direction: more ahead of the motion
/// (leading) than behind it (trailing). During a glide or an animated scroll the display and
/// preload ranges are the visible rows (the display range with the rows coming on screen
/// within ``Configuration/glideDisplayLead``): the rows ahead would flash by, and what the glide
/// needs is its landing and passing rows.
public struct ViewportRanges: Sendable, Equatable {
    /// The rows on screen.
    public var visible: Range<Int>
    /// The rows whose views exist.
    public var display: Range<Int>
    /// The rows whose content should be loading, at rest and while dragging.
    public var preload: Range<Int>
    /// The rows where a glide will rest, once due (empty otherwise).
    public var landing: Range<Int>
    /// The rows on a glide's way worth a load, once due, in the order the glide reaches them.
    public var passing: [Int]
    /// Whether the list glides or animates toward a resting place it knows: rows that are
    /// neither ``landing`` nor ``passing`` would flash by.
    public var isGliding = false
    /// Which way the glide goes, while ``isGliding``.
    public var glideDirection = Direction.down
    /// Whether content loads only for the visible rows of a list at rest
    /// (``Configuration/LoadingPolicy/whenStopped``).
    public var loadsWhenStopped = false
    /// Whether the list is at rest: not dragged, gliding or animating.
    public var isAtRest = true

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
        /// Extra screenfuls before a fling's landing, on the side it comes from, that load with
        /// it: the rows on screen while the glide slows from one screen a second (half a
        /// screen with the normal deceleration). The rows beyond the landing wait for the
        /// preload range once the list rests: `bench scroll` tuned it, as loading them too
        /// delayed the rows needed first.
        public var landingMargin = 0.5
        /// How long a load is expected to take: a row in a glide's path is requested only if it
        /// is on screen for ``minimumTimeOnScreen`` once a load started now has arrived.
        public var expectedLoadTime: Duration = .milliseconds(150)
        /// The least time on screen, with its content, that makes a passing row worth a load:
        /// half a second, as a row that moves faster than that is not read (it crosses the
        /// screen at more than about two screens a second). `bench scroll` tuned it: rows
        /// counted from the moment they would be filled, with no minimum, filled the queue with
        /// rows crossing the screen in a tenth of a second, ahead of the landing.
        public var minimumTimeOnScreen: Duration = .milliseconds(500)
        /// During a glide, the display range reaches the rows it brings on screen within this
        /// time (at most a screen ahead), so that a host that loads its displayed rows below
        /// every tier, with what the landing and passing rows leave, starts them that much
        /// before they show: 300 ms, a little over two median loads. `bench scroll` tuned it:
        /// with views for the rows on screen only, a fling stopped by a touch showed rows that
        /// began loading as they came into view, and `fling-stop-reverse` was at a third of the
        /// best other strategy's blank time on 14 seeds of 20; with the lead, on 19.
        public var glideDisplayLead: Duration = .milliseconds(300)
        /// The most passing rows requested in one glide; the landing matters more.
        public var maxPassingRows = 24
        /// How long before a glide stops its landing rows are requested: 2 s covers the
        /// load-time tail (a load of median 120 ms and 95th percentile 600 ms takes more than
        /// 2 s once in 500), and a fling cut short within its first second or two (a touch, a
        /// reversal) has loaded nothing it will not show. `bench scroll` tuned it: requested
        /// at the fling's start, the landing of a fling reversed after 0.5 s made half of all
        /// loads wasted.
        public var landingLead: Duration = .seconds(2)
        /// How long before a row in a glide's path (the landing's included) is needed, on
        /// screen with the glide slower than ``readableSpeed``, it is requested: 600 ms, the
        /// load time's 95th percentile. `bench scroll` tuned it: requested as soon as they
        /// were due to come into view, the landing rows of a fast fling were loading after
        /// 0.2 s, and wasted when a touch stopped the fling at 0.5 s.
        public var passingLead: Duration = .milliseconds(600)
        /// Below this speed, in screens per second, a moving list can be read (the same
        /// threshold as `bench scroll`'s blank ratio).
        public var readableSpeed = 1.0

        /// When content loads.
        public enum LoadingPolicy: Sendable, Equatable {
            /// Ahead of the motion: the display and preload ranges at rest and while dragging,
            /// a glide's landing and passing rows while it glides. The default.
            case ahead
            /// Only the visible rows, once the list is at rest: what some apps do (Apple's
            /// LazyTableImages sample), simple, but rows stay blank during and after every
            /// fling; `bench scroll` measures it as `load-when-stopped`.
            case whenStopped
        }

        /// When content loads; ``LoadingPolicy/ahead`` by default.
        public var loading = LoadingPolicy.ahead

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
        ranges.isAtRest = scroll.phase == .idle
        if configuration.loading == .whenStopped {
            ranges.loadsWhenStopped = true
            return ranges
        }
        if scroll.phase == .dragging && scroll.isHoldingAfterGlide {
            // A finger stopped a glide: where it goes next is unknown, so only the screen loads.
            // `bench scroll` tuned it: a fling stopped and reversed had loaded the rows ahead.
            ranges.display = ranges.visible
            ranges.preload = ranges.visible
        }
        guard scroll.phase == .decelerating || scroll.phase == .animating else { return ranges }
        // Gliding, rows off screen would flash by: views only for the rows on screen, as
        // UIKit makes them, and no preloading. `bench scroll` tuned it: with the display
        // buffer, a fling reversed after half a second had loaded rows it never showed.
        ranges.isGliding = true
        ranges.display = ranges.visible
        ranges.preload = ranges.visible
        if scroll.phase == .decelerating, configuration.glideDisplayLead > .zero {
            // Views for the rows the glide brings on screen within the lead, so that a host
            // loading its displayed rows below every tier starts them that much before they
            // show: a touch may stop the glide on them.
            // The speed now times the lead, never past where the glide rests.
            let lead = configuration.glideDisplayLead.components
            let ahead = min(height, abs(scroll.predictedLanding - offset),
                            abs(scroll.velocity(at: time)) * (Double(lead.seconds) + Double(lead.attoseconds) / 1e18))
            let down = scroll.predictedLanding >= offset
            ranges.display = geometry.rows(inOffset: down ? offset : offset - ahead, length: height + ahead)
        }
        let landing = scroll.predictedLanding
        let margin = configuration.landingMargin * height
        let approach: Direction = landing >= offset ? .down : .up
        ranges.glideDirection = approach
        guard scroll.phase == .decelerating else {
            // An animated scroll eases out in a quarter of a second: it is slower than a screen
            // a second only in its last few points, so the rows before its target flash by and
            // only the screen it rests on is worth loading. `bench scroll` tuned it: with the
            // margin, a jump to the top spent its first loads on the half screen below the top.
            ranges.landing = geometry.rows(inOffset: landing, length: height)
            return ranges
        }
        let landingRows = geometry.rows(inOffset: approach == .down ? landing - margin : landing, length: height + margin)
        // The moment a row comes into view, gliding down or up.
        let gliding = approach
        func entering(_ row: Int) -> Duration? {
            scroll.predictedTime(reaching: gliding == .down ? geometry.offset(ofRow: row) - height : geometry.offset(ofRow: row + 1))
        }
        // A row's content is needed once it is on screen and the glide has slowed enough for
        // it to be read: it is requested the lead before.
        let readable = scroll.predictedTime(slowingTo: height * configuration.readableSpeed) ?? time
        let ahead = time + configuration.passingLead
        func needed(_ row: Int) -> Duration { max(entering(row) ?? time, readable) }
        let firstLanding = gliding == .down ? landingRows.lowerBound : landingRows.upperBound - 1
        if scroll.predictedStopTime.map({ $0 <= time + configuration.landingLead }) == true || needed(firstLanding) <= ahead {
            ranges.landing = landingRows
        }

        // Rows from the screen now to the landing, those on screen included: worth a request
        // only if, once the load arrives, they are still on screen.
        let (start, end) = gliding == .down
            ? (ranges.visible.lowerBound, landingRows.lowerBound)
            : (landingRows.upperBound, ranges.visible.upperBound)
        guard start < end else { return ranges }
        let deadline = time + configuration.expectedLoadTime
        let rows = gliding == .down ? Array(start..<end) : (start..<end).reversed()
        for row in rows {
            // Rows are needed in this order: past the first due after the lead, none is due yet.
            if needed(row) > ahead { break }
            // The moment the row leaves: its bottom passes the top (down), its top the bottom (up).
            let leaves = gliding == .down
                ? geometry.offset(ofRow: row + 1)
                : geometry.offset(ofRow: row) - height
            if let leaving = scroll.predictedTime(reaching: leaves),
               leaving - max(deadline, entering(row) ?? time) < configuration.minimumTimeOnScreen { continue }
            ranges.passing.append(row)
            if ranges.passing.count == configuration.maxPassingRows { break }
        }
        return ranges
    }
}
