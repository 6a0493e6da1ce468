/// What one strategy did on one trace: issue 14's figures, and a few more for tests.
package struct ScrollMetrics: Sendable, Equatable {
    /// The share of visible row-time showing a placeholder while the list moves slower than
    /// one screen per second (readable, at rest included).
    package var blankRatio: Double
    /// The same over all visible row-time.
    package var blankRatioAll: Double
    /// From each moment scrolling stops until every visible row shows its content: the
    /// median (nearest rank), in milliseconds; nil with no stop.
    package var visibleCompleteP50: Double?
    /// The same, its 95th percentile.
    package var visibleCompleteP95: Double?
    /// Loads completed whose content never reached the screen and whose row is no longer
    /// wanted at the end, over all loads.
    package var wastedRatio: Double
    /// Values put into a row view that shows another item by then.
    package var stale: Int
    /// Loads started.
    package var loads: Int
    /// Bytes fetched, cancelled transfers counted for the part they fetched.
    package var bytes: Int
    /// The trace's shortest fling, from its start until it stops or is stopped, in
    /// milliseconds; nil when none.
    package var minFlingMilliseconds: Double?

    /// Rows that started displaying.
    package var displays = 0
    /// The most loads in flight at once.
    package var peakConcurrentLoads = 0
    /// Loads started while the list was not at rest.
    package var loadsStartedWhileMoving = 0
    /// Each stop's time to a complete screen, in milliseconds, in order.
    package var visibleCompleteMilliseconds: [Double] = []

    /// Figures as measured; the counters for tests default to nothing.
    package init(blankRatio: Double, blankRatioAll: Double, visibleCompleteP50: Double?, visibleCompleteP95: Double?,
                wastedRatio: Double, stale: Int, loads: Int, bytes: Int, minFlingMilliseconds: Double?,
                displays: Int = 0, peakConcurrentLoads: Int = 0, loadsStartedWhileMoving: Int = 0,
                visibleCompleteMilliseconds: [Double] = []) {
        self.blankRatio = blankRatio
        self.blankRatioAll = blankRatioAll
        self.visibleCompleteP50 = visibleCompleteP50
        self.visibleCompleteP95 = visibleCompleteP95
        self.wastedRatio = wastedRatio
        self.stale = stale
        self.loads = loads
        self.bytes = bytes
        self.minFlingMilliseconds = minFlingMilliseconds
        self.displays = displays
        self.peakConcurrentLoads = peakConcurrentLoads
        self.loadsStartedWhileMoving = loadsStartedWhileMoving
        self.visibleCompleteMilliseconds = visibleCompleteMilliseconds
    }

    /// The value at `fraction` (0...1) of `values` by nearest rank; nil when empty.
    package static func percentile(_ fraction: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// Turns the frames of a scroll into blank-time and time-to-complete figures, the same way
/// for the simulation and for the real run.
///
/// A frame reports each visible row with its top on screen and whether it shows its content.
/// Motion is read from the rows themselves (how far a row drawn in both frames moved), so an
/// offset that shifts to keep rows in place (rows inserted above) is not motion.
package struct ScrollMetricsRecorder: Sendable {
    /// One visible row in a frame.
    package struct VisibleRow: Sendable {
        /// The row's item.
        package var item: Int
        /// Its top from the top of the screen.
        package var top: Double
        /// Whether it shows its own content, not a placeholder (nor another item's).
        package var isFilled: Bool

        /// A visible row as a frame shows it.
        package init(item: Int, top: Double, isFilled: Bool) {
            self.item = item
            self.top = top
            self.isFilled = isFilled
        }
    }

    private let viewportHeight: Double
    private var lastTime: Duration?
    private var lastTops: [Int: Double] = [:]
    private var lastReadable = true
    private var lastMoved = false
    private var lastFilled = true
    private var lastCount = 0
    private var lastBlank = 0
    private var readableTime = 0.0
    private var readableBlank = 0.0
    private var allTime = 0.0
    private var allBlank = 0.0
    private var stoppedAt: Duration?
    private var waitingForComplete = false
    private(set) var completions: [Double] = []
    private var flingStart: Duration?
    private var restingSince: Duration?
    private(set) var flings: [Double] = []

    /// A recorder for a screen of `viewportHeight`.
    package init(viewportHeight: Double) {
        self.viewportHeight = viewportHeight
    }

    /// Records the frame drawn at `time`; it stays on screen until the next one.
    ///
    /// - Parameters:
    ///   - isAtRest: the scroll model is neither gliding nor animating, and nothing drags it
    ///     by more than it moves (a held finger is rest).
    ///   - isGliding: a fling is decelerating.
    package mutating func record(at time: Duration, rows: [VisibleRow], isAtRest: Bool, isGliding: Bool) {
        if let lastTime { account(until: time, since: lastTime) }
        var moved = 0.0
        var common = false
        for row in rows {
            if let top = lastTops[row.item] {
                moved = max(moved, abs(top - row.top))
                common = true
            }
        }
        if !common && !lastTops.isEmpty && !rows.isEmpty { moved = viewportHeight }
        let elapsed = lastTime.map { Self.seconds(time - $0) } ?? 1
        let speed = elapsed > 0 ? moved / elapsed : 0
        let still = isAtRest && moved == 0
        let filled = rows.allSatisfy(\.isFilled)

        if still {
            if stoppedAt == nil {
                // The list came to rest in the last frame that moved: it showed the final place.
                stoppedAt = lastMoved ? lastTime ?? time : time
                waitingForComplete = !(lastMoved && lastFilled)
                if !waitingForComplete { completions.append(0) }
            }
            if waitingForComplete && filled {
                completions.append(Self.milliseconds(time - stoppedAt!))
                waitingForComplete = false
            }
        } else {
            // Moving again before the screen filled: the wait lasted until now.
            if waitingForComplete, let stoppedAt { completions.append(Self.milliseconds(time - stoppedAt)) }
            waitingForComplete = false
            stoppedAt = nil
        }
        if isGliding, flingStart == nil { flingStart = time }
        if !isGliding, let start = flingStart {
            flings.append(Self.milliseconds(time - start))
            flingStart = nil
        }

        lastTime = time
        lastTops = Dictionary(rows.map { ($0.item, $0.top) }, uniquingKeysWith: { first, _ in first })
        lastReadable = speed < viewportHeight
        lastCount = rows.count
        lastBlank = rows.count { !$0.isFilled }
        lastMoved = !still
        lastFilled = filled
    }

    /// Ends the recording at `time`: the last frame's time is counted, and a stop still
    /// waiting for its screen counts the wait so far.
    package mutating func finish(at time: Duration) {
        if let lastTime { account(until: time, since: lastTime) }
        if waitingForComplete, let stoppedAt { completions.append(Self.milliseconds(time - stoppedAt)) }
        waitingForComplete = false
        if let start = flingStart { flings.append(Self.milliseconds(time - start)) }
        flingStart = nil
        lastTime = nil
    }

    /// Counts rest toward the end of a run: call once per frame from the end of the warm-up,
    /// with whether the list is settled (no input left, nothing moving); once it has been
    /// settled for `rest`, the recording is finished and it returns true.
    package mutating func endsAfterRest(at time: Duration, settled: Bool, rest: Duration, frame: Duration) -> Bool {
        guard settled else {
            restingSince = nil
            return false
        }
        restingSince = restingSince ?? time
        guard time - restingSince! >= rest else { return false }
        finish(at: time + frame)
        return true
    }

    /// The figures of the recording with the counts that come from elsewhere.
    package func metrics(wastedRatio: Double, stale: Int, loads: Int, bytes: Int) -> ScrollMetrics {
        let completions = visibleCompleteMilliseconds
        return ScrollMetrics(
            blankRatio: blankRatios.readable, blankRatioAll: blankRatios.all,
            visibleCompleteP50: ScrollMetrics.percentile(0.5, of: completions),
            visibleCompleteP95: ScrollMetrics.percentile(0.95, of: completions),
            wastedRatio: wastedRatio, stale: stale, loads: loads, bytes: bytes,
            minFlingMilliseconds: flings.min(), visibleCompleteMilliseconds: completions)
    }

    /// The share of visible row-time that was blank while readable, and over all.
    package var blankRatios: (readable: Double, all: Double) {
        (readableTime > 0 ? readableBlank / readableTime : 0, allTime > 0 ? allBlank / allTime : 0)
    }

    /// Each stop's time to a complete screen, in milliseconds.
    package var visibleCompleteMilliseconds: [Double] { completions }

    private mutating func account(until time: Duration, since last: Duration) {
        let seconds = Self.seconds(time - last)
        allTime += seconds * Double(lastCount)
        allBlank += seconds * Double(lastBlank)
        if lastReadable {
            readableTime += seconds * Double(lastCount)
            readableBlank += seconds * Double(lastBlank)
        }
    }

    static func seconds(_ duration: Duration) -> Double { LatencyModel.milliseconds(duration) / 1000 }
    static func milliseconds(_ duration: Duration) -> Double { LatencyModel.milliseconds(duration) }
}
