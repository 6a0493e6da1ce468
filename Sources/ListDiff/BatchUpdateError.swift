/// What is wrong with a batch update, said the way UIKit would say it before it crashes.
///
/// ``BatchUpdate/validate(oldCounts:newCounts:)`` throws these for batches that UIKit's
/// `performBatchUpdates` would reject. ``BatchUpdate/apply(to:target:)`` also throws the two
/// identity cases, which UIKit cannot see but which mean the batch does not describe the data.
public enum BatchUpdateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of operation that named a section or an item.
    public enum Operation: String, Hashable, Sendable {
        case delete
        case insert
        case moveSource = "move from"
        case moveDestination = "move to"
        case reload
    }

    /// The number of sections after the update is not the number before, minus deletes, plus inserts.
    case sectionCountMismatch(before: Int, after: Int, deleted: Int, inserted: Int)
    /// A section operation names a section index that does not exist on its side of the update
    /// (before it for deletes, reloads and move sources; after it for inserts and move destinations).
    case sectionOutOfRange(Operation, section: Int, sectionCount: Int)
    /// Two operations name the same section on the same side of the update (for example a
    /// section both deleted and moved, or two moves to one index).
    case sectionNamedTwice(section: Int, Operation, Operation)
    /// An item operation names a section that does not exist on its side of the update.
    case itemSectionOutOfRange(Operation, ListIndexPath, sectionCount: Int)
    /// An item operation names an item index past the end of its section on its side of the update.
    case itemOutOfRange(Operation, ListIndexPath, itemCount: Int)
    /// Two operations name the same item position on the same side of the update (deleted and
    /// moved, moved and reloaded, deleted and reloaded, inserted at a move's destination, ...).
    case itemNamedTwice(ListIndexPath, Operation, Operation)
    /// An item operation names a position in a section that the same update deletes.
    case itemInDeletedSection(Operation, ListIndexPath)
    /// An item operation names a position in a section that the same update inserts.
    case itemInInsertedSection(Operation, ListIndexPath)
    /// An item operation names a position in a section that the same update reloads.
    case itemInReloadedSection(Operation, ListIndexPath)
    /// A section that survives the update has the wrong number of items after it: UIKit's
    /// "Invalid update: invalid number of items in section".
    case itemCountMismatch(
        oldSection: Int, newSection: Int, before: Int, after: Int,
        deleted: Int, inserted: Int, movedOut: Int, movedIn: Int
    )
    /// A reload names an item whose identity differs in the target data: the batch does not
    /// describe the change (reported by ``BatchUpdate/apply(to:target:)`` only).
    case reloadChangedIdentity(ListIndexPath)
    /// A section reload names a section whose identity differs in the target data (reported by
    /// ``BatchUpdate/apply(to:target:)`` only).
    case sectionReloadChangedIdentity(section: Int)

    public var description: String {
        switch self {
        case let .sectionCountMismatch(before, after, deleted, inserted):
            return "invalid number of sections: \(after) after the update, but \(before) before it "
                + "plus \(inserted) inserted minus \(deleted) deleted makes \(before + inserted - deleted)"
        case let .sectionOutOfRange(operation, section, count):
            return "attempt to \(operation.rawValue) section \(section), but there are only \(count) sections "
                + (Self.isAfter(operation) ? "after the update" : "before the update")
        case let .sectionNamedTwice(section, first, second):
            return "section \(section) is named twice on one side of the update: \(first.rawValue) and \(second.rawValue)"
        case let .itemSectionOutOfRange(operation, path, count):
            return "attempt to \(operation.rawValue) item \(path) in section \(path.section), but there are only "
                + "\(count) sections " + (Self.isAfter(operation) ? "after the update" : "before the update")
        case let .itemOutOfRange(operation, path, count):
            return "attempt to \(operation.rawValue) item \(path), but section \(path.section) contains only \(count) items "
                + (Self.isAfter(operation) ? "after the update" : "before the update")
        case let .itemNamedTwice(path, first, second):
            return "item \(path) is named twice on one side of the update: \(first.rawValue) and \(second.rawValue)"
        case let .itemInDeletedSection(operation, path):
            return "attempt to \(operation.rawValue) item \(path) in section \(path.section), which the update deletes"
        case let .itemInInsertedSection(operation, path):
            return "attempt to \(operation.rawValue) item \(path) in section \(path.section), which the update inserts"
        case let .itemInReloadedSection(operation, path):
            return "attempt to \(operation.rawValue) item \(path) in section \(path.section), which the update reloads"
        case let .itemCountMismatch(oldSection, newSection, before, after, deleted, inserted, movedOut, movedIn):
            let section = oldSection == newSection ? "section \(newSection)" : "section \(oldSection) (\(newSection) after the update)"
            return "invalid number of items in \(section): \(after) after the update, but \(before) before it, "
                + "plus or minus the items inserted or deleted (\(inserted) inserted, \(deleted) deleted) and "
                + "plus or minus the items moved in or out (\(movedIn) moved in, \(movedOut) moved out) "
                + "makes \(before - deleted + inserted - movedOut + movedIn)"
        case let .reloadChangedIdentity(path):
            return "reload of item \(path) finds an item with another identity in the target data"
        case let .sectionReloadChangedIdentity(section):
            return "reload of section \(section) finds a section with another identity in the target data"
        }
    }

    private static func isAfter(_ operation: Operation) -> Bool {
        operation == .insert || operation == .moveDestination
    }
}
