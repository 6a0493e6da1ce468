/// One batch of list updates, shaped for a single UIKit-style `performBatchUpdates` call.
///
/// The positions follow UIKit's rules: deletes and reloads name positions *before* the
/// update, inserts name positions *after* it, and a move names its position before and its
/// position after. Items that are not named keep their relative order and fill the positions
/// left free. A reload replaces the content of an item (or section) that stays where it is.
///
/// A batch built by ``StagedChanges`` always passes ``validate(oldCounts:newCounts:)``; one
/// built by hand can be checked with it before it is handed to a list view.
public struct BatchUpdate: Hashable, Sendable {
    /// A section that moves from an index before the update to an index after it.
    public struct SectionMove: Hashable, Sendable {
        /// The section's index before the update.
        public var from: Int
        /// The section's index after the update.
        public var to: Int

        /// Creates a move of the section at `from` to `to`.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// An item that moves from a position before the update to a position after it, within
    /// its section or into another one.
    public struct ItemMove: Hashable, Sendable {
        /// The item's position before the update.
        public var from: ListIndexPath
        /// The item's position after the update.
        public var to: ListIndexPath

        /// Creates a move of the item at `from` to `to`.
        public init(from: ListIndexPath, to: ListIndexPath) {
            self.from = from
            self.to = to
        }
    }

    /// Sections deleted, by index before the update.
    public var sectionDeletes: [Int]
    /// Sections inserted, by index after the update.
    public var sectionInserts: [Int]
    /// Sections moved.
    public var sectionMoves: [SectionMove]
    /// Sections reloaded, by index before the update.
    public var sectionReloads: [Int]
    /// Items deleted, by position before the update.
    public var deletes: [ListIndexPath]
    /// Items inserted, by position after the update.
    public var inserts: [ListIndexPath]
    /// Items moved.
    public var moves: [ItemMove]
    /// Items reloaded, by position before the update.
    public var reloads: [ListIndexPath]

    /// Creates a batch; every operation defaults to none.
    public init(
        sectionDeletes: [Int] = [],
        sectionInserts: [Int] = [],
        sectionMoves: [SectionMove] = [],
        sectionReloads: [Int] = [],
        deletes: [ListIndexPath] = [],
        inserts: [ListIndexPath] = [],
        moves: [ItemMove] = [],
        reloads: [ListIndexPath] = []
    ) {
        self.sectionDeletes = sectionDeletes
        self.sectionInserts = sectionInserts
        self.sectionMoves = sectionMoves
        self.sectionReloads = sectionReloads
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.reloads = reloads
    }

    /// Whether the batch changes nothing.
    public var isEmpty: Bool {
        sectionDeletes.isEmpty && sectionInserts.isEmpty && sectionMoves.isEmpty && sectionReloads.isEmpty
            && deletes.isEmpty && inserts.isEmpty && moves.isEmpty && reloads.isEmpty
    }

    /// The number of operations in the batch, sections and items together.
    public var operationCount: Int {
        sectionDeletes.count + sectionInserts.count + sectionMoves.count + sectionReloads.count
            + deletes.count + inserts.count + moves.count + reloads.count
    }
}
