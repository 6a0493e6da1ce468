/// The position of an item in a sectioned list: a section index and an item index within it.
///
/// Foundation's `IndexPath(item:section:)` exists only on Apple platforms; this type is the
/// same idea everywhere. Paths order by section, then item.
public struct ListIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The index of the section.
    public var section: Int
    /// The index of the item within its section.
    public var item: Int

    /// Creates the path of item `item` in section `section`.
    @inlinable
    public init(item: Int, section: Int) {
        self.item = item
        self.section = section
    }

    public static func < (lhs: ListIndexPath, rhs: ListIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `[section, item]`, the way UIKit prints index paths.
    public var description: String { "[\(section), \(item)]" }
}
