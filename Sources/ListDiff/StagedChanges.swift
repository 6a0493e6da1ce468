/// The animated batch updates that turn one list snapshot into another, in stages.
///
/// Each stage is one UIKit-style `performBatchUpdates` call: set the data source to the
/// stage's ``Stage/data``, then apply its ``Stage/update``. Every stage is valid on its own
/// (it passes ``BatchUpdate/validate(oldCounts:newCounts:)`` against the data before and
/// after it), and applying the stages in turn to the old snapshot yields the new one.
///
/// There are as few stages as the change allows:
/// - none when nothing changed;
/// - one for inserts, deletes, moves and reloads of items and sections;
/// - a second only for what UIKit cannot do in the same batch: reloading an item that also
///   moved (its new content is reloaded at its new position), and reloading a section that
///   moved or whose items are inserted, deleted or moved in the same change.
///
/// Create one with ``init(from:to:)``.
public struct StagedChanges<Model: Identifiable & Equatable, Item: Identifiable & Equatable>: RandomAccessCollection {
    /// One batch of updates and the data the list shows after it.
    public struct Stage {
        /// The operations of this stage, with positions relative to the data before it.
        public var update: BatchUpdate
        /// The data after this stage; the data source must return it during the update.
        public var data: [ListSection<Model, Item>]

        /// Creates a stage.
        public init(update: BatchUpdate, data: [ListSection<Model, Item>]) {
            self.update = update
            self.data = data
        }

        /// Applies this stage to `old`, as a list view would; see ``BatchUpdate/apply(to:target:)``.
        public func apply(to old: [ListSection<Model, Item>]) throws(BatchUpdateError) -> [ListSection<Model, Item>] {
            try update.apply(to: old, target: data)
        }
    }

    /// The stages, to be applied in order.
    public var stages: [Stage]

    /// Wraps stages computed elsewhere.
    public init(stages: [Stage]) {
        self.stages = stages
    }

    public var startIndex: Int { stages.startIndex }
    public var endIndex: Int { stages.endIndex }
    public subscript(position: Int) -> Stage { stages[position] }

    /// Applies every stage in turn to `old` and returns the result, which is the new snapshot
    /// when the stages describe the change.
    ///
    /// - Throws: the first ``BatchUpdateError`` of any stage.
    public func apply(to old: [ListSection<Model, Item>]) throws(BatchUpdateError) -> [ListSection<Model, Item>] {
        var data = old
        for stage in stages { data = try stage.apply(to: data) }
        return data
    }
}

extension StagedChanges.Stage: Equatable {}
extension StagedChanges: Equatable {}
extension StagedChanges.Stage: Sendable where Model: Sendable, Item: Sendable {}
extension StagedChanges: Sendable where Model: Sendable, Item: Sendable {}

extension StagedChanges where Model == SoleSection {
    /// The staged changes between two flat lists, seen as lists of one section each.
    ///
    /// - Complexity: as ``init(from:to:)``.
    public init(from old: [Item], to new: [Item]) {
        self.init(from: [ListSection(model: SoleSection(), items: old)], to: [ListSection(model: SoleSection(), items: new)])
    }
}
