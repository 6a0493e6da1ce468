/// A scripted scroll: a list, where it rests at first, and timed input, replayed identically
/// against every loading strategy. A trace runs until three seconds after the list comes to
/// rest following its last input.
///
/// Units are points: rows of ``rowHeight`` in a viewport of ``viewportHeight`` (ten rows),
/// velocities in points per second, a phone's proportions.
package struct ScrollTrace: Sendable {
    /// What the user (or the app) does at one moment.
    package enum Action: Sendable, Equatable {
        /// A finger drags at `velocity` for `duration`, then lifts without a fling.
        case drag(velocity: Double, duration: Duration)
        /// A flick: the list glides from `velocity` and decelerates.
        case fling(velocity: Double)
        /// A finger touches and holds: any glide stops where it is.
        case touch
        /// A tap on the status bar: an animated scroll to the top.
        case scrollToTop
        /// A refresh: `count` new rows arrive above the first row.
        case insertAbove(count: Int)
    }

    /// An action and when it happens, from the end of the warm-up.
    package struct Input: Sendable, Equatable {
        /// When, from the end of the warm-up.
        package var at: Duration
        /// What.
        package var action: Action

        /// `action` at `at`.
        package init(at: Duration, _ action: Action) {
            self.at = at
            self.action = action
        }
    }

    /// The trace's name in reports.
    package var name: String
    /// How many rows the list has.
    package var rowCount: Int
    /// The row at the top of the screen when the trace starts.
    package var startRow: Int
    /// The input, in time order.
    package var inputs: [Input]
    /// The height of every row.
    package var rowHeight: Double = 80
    /// The height of the screen.
    package var viewportHeight: Double = 800

    /// A trace of `inputs` on a list of `rowCount` rows resting with `startRow` at the top.
    package init(name: String, rowCount: Int, startRow: Int = 0, inputs: [Input]) {
        self.name = name
        self.rowCount = rowCount
        self.startRow = startRow
        self.inputs = inputs
    }

    /// The benchmark's traces: a slow drag; flings at three speeds (a glide of about 9, 31 and
    /// 75 rows); a fling stopped by a touch and reversed; a jump to the top; three long
    /// flings over 10,000 rows; a refresh that inserts 50 rows above a reader who is dragging.
    /// Every fling uses the normal deceleration rate (0.998 per millisecond).
    package static let standard: [ScrollTrace] = [
        ScrollTrace(name: "slow-drag", rowCount: 500, inputs: [Input(at: .zero, .drag(velocity: 300, duration: .seconds(6)))]),
        ScrollTrace(name: "fling-slow", rowCount: 500, inputs: [Input(at: .zero, .fling(velocity: 1_500))]),
        ScrollTrace(name: "fling-medium", rowCount: 500, inputs: [Input(at: .zero, .fling(velocity: 5_000))]),
        ScrollTrace(name: "fling-fast", rowCount: 500, inputs: [Input(at: .zero, .fling(velocity: 12_000))]),
        ScrollTrace(name: "fling-stop-reverse", rowCount: 500, inputs: [
            Input(at: .zero, .fling(velocity: 8_000)),
            Input(at: .milliseconds(500), .touch),
            Input(at: .milliseconds(800), .fling(velocity: -5_000)),
        ]),
        ScrollTrace(name: "jump-to-top", rowCount: 500, startRow: 400, inputs: [Input(at: .zero, .scrollToTop)]),
        ScrollTrace(name: "flings-10000", rowCount: 10_000, startRow: 2_000, inputs: [
            Input(at: .zero, .fling(velocity: 20_000)),
            Input(at: .milliseconds(4_500), .fling(velocity: 20_000)),
            Input(at: .milliseconds(9_000), .fling(velocity: 20_000)),
        ]),
        ScrollTrace(name: "refresh-50-above", rowCount: 500, startRow: 100, inputs: [
            Input(at: .zero, .drag(velocity: 200, duration: .seconds(3))),
            Input(at: .seconds(1), .insertAbove(count: 50)),
            Input(at: .milliseconds(3_500), .fling(velocity: 5_000)),
        ]),
    ]

    /// The trace that the real run replays too: a fling of 3.5 seconds over 500 rows, then rest.
    package static let realCheck = ScrollTrace(name: "fling-medium", rowCount: 500, inputs: [Input(at: .zero, .fling(velocity: 5_000))])
}
