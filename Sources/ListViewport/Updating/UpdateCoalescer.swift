import ListDiff

/// Turns snapshots that arrive at any rate into list updates the main actor can animate: at
/// most one small chunk per frame, diffed off the main actor.
///
/// - ``submit(_:)`` takes a snapshot; the newest wins. Snapshots that arrive while a change is
///   being diffed or applied coalesce: the next diff runs from what is shown to the newest.
/// - ``tick()``, once per frame, hands out at most one ``Update``: a chunk of at most
///   ``maxChangesPerTick`` row changes (ListDiff's ``StagedChanges/chunked(maxChanges:)``),
///   so 500 new posts arrive ten a frame with the old ones pushed down and no gap; or, for a
///   change larger than ``animationLimit`` or the first items of an empty list, the whole new
///   snapshot without animation.
/// - Diffing runs on the cooperative pool, never on the main actor; the main actor's work per
///   tick is applying one chunk in place (``UpdateChunk/apply(to:)``).
@MainActor
public final class UpdateCoalescer<Model: Identifiable & Equatable & Sendable, Item: Identifiable & Equatable & Sendable> {
    public typealias Snapshot = [ListSection<Model, Item>]

    /// What one tick applies.
    public enum Update: Sendable {
        /// A chunk to animate; ``UpdateCoalescer/shown`` already includes it.
        case animated(UpdateChunk<Model, Item>)
        /// A change too large to animate: the list shows the new snapshot at once.
        case replaced
    }

    /// What the list shows: the last snapshot fully applied, plus the chunks applied since.
    public private(set) var shown: Snapshot
    /// The most row changes one tick applies.
    public var maxChangesPerTick: Int
    /// Past this many changes, a change is applied at once, without animation.
    public var animationLimit: Int

    private var newest: Snapshot?
    /// Whether ``newest`` may be animated: `false` once any snapshot it replaced asked not to be.
    private var newestAnimated = true
    /// Bumped by an unanimated snapshot, so a diff still running for an older one is dropped.
    private var generation = 0
    /// A step of the change being applied.
    private enum Step: Sendable {
        case chunk(UpdateChunk<Model, Item>)
        case replace(Snapshot)
    }

    private var pending: [Step] = []
    private var nextPending = 0
    private var diffing: Task<Void, Never>?

    /// A coalescer showing `initial`.
    public init(initial: Snapshot = [], maxChangesPerTick: Int = 10, animationLimit: Int = 1_000) {
        precondition(maxChangesPerTick > 0, "a tick applies at least one change")
        shown = initial
        self.maxChangesPerTick = maxChangesPerTick
        self.animationLimit = animationLimit
    }

    /// Takes a new snapshot of the list; it replaces any snapshot not yet diffed.
    ///
    /// With `animated` false (a new query rather than a change of the same list: another
    /// filter, a search) the snapshot replaces what is shown on the next tick, without a diff:
    /// chunks of an earlier change still waiting are dropped, and so is a diff still running.
    public func submit(_ snapshot: Snapshot, animated: Bool = true) {
        newestAnimated = (newest == nil || newestAnimated) && animated
        newest = snapshot
        if !animated {
            generation += 1
            diffing?.cancel()
            diffing = nil
            pending = []
            nextPending = 0
        }
        startDiffIfIdle()
    }

    /// Whether a change is waiting to be applied or diffed: the frame loop keeps ticking.
    public var hasPendingWork: Bool {
        nextPending < pending.count || newest != nil || diffing != nil
    }

    /// Applies at most one update to ``shown`` and returns it; `nil` when there is none ready.
    /// - Complexity: the size of one chunk, on the main actor.
    public func tick() -> Update? {
        guard nextPending < pending.count else { return nil }
        let step = pending[nextPending]
        nextPending += 1
        if nextPending == pending.count {
            pending = []
            nextPending = 0
        }
        defer { startDiffIfIdle() }
        switch step {
        case .replace(let snapshot):
            shown = snapshot
            return .replaced
        case .chunk(let chunk):
            chunk.apply(to: &shown)
            return .animated(chunk)
        }
    }

    /// Returns once no diff is running: for tests and for a caller that must see a snapshot's
    /// chunks before the next frame.
    public func settled() async {
        while let diffing {
            await diffing.value
        }
    }

    private func startDiffIfIdle() {
        guard diffing == nil, nextPending >= pending.count, let target = newest else { return }
        newest = nil
        if !newestAnimated {
            newestAnimated = true
            pending = [.replace(target)]
            nextPending = 0
            return
        }
        let source = shown
        let maxChanges = maxChangesPerTick
        let limit = animationLimit
        let generation = self.generation
        diffing = Task { [weak self] in
            let steps = await Self.diff(from: source, to: target, maxChanges: maxChanges, animationLimit: limit)
            guard let self, generation == self.generation else { return }
            self.diffing = nil
            self.pending = steps
            self.nextPending = 0
            // Nothing to animate (equal snapshots): look at anything newer right away.
            if steps.isEmpty { self.startDiffIfIdle() }
        }
    }

    /// The chunks from `source` to `target`, computed off the main actor; a change of more
    /// than `animationLimit` operations is one unanimated replacement.
    nonisolated private static func diff(from source: Snapshot, to target: Snapshot, maxChanges: Int,
                                         animationLimit: Int) async -> [Step] {
        await Task.detached(priority: .userInitiated) {
            // An empty list fills at once: there is nothing on screen to animate from.
            if source.allSatisfy(\.items.isEmpty) && !target.allSatisfy(\.items.isEmpty) { return [.replace(target)] }
            let changes = StagedChanges(from: source, to: target)
            let operations = changes.reduce(0) { $0 + $1.update.operationCount }
            guard operations <= animationLimit else { return [.replace(target)] }
            return changes.chunked(maxChanges: maxChanges).map(Step.chunk)
        }.value
    }
}
