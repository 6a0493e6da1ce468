import ListDiff

/// The section of a list's rows that a header row starts, as a list view with sections
/// (UIKit's) shows it: the header is the section's header view, the rows after it, up to the
/// next header, its items. Rows above the first header form a leading section with no header.
public enum RowSection<Item: Identifiable & Equatable>: Identifiable, Equatable {
    /// The rows above the first header.
    case leading
    /// The section `header` starts.
    case headed(by: Item)

    /// A section's identity: its header's, or the leading section's own.
    public enum ID: Hashable {
        case leading
        case header(Item.ID)
    }

    public var id: ID {
        switch self {
        case .leading: .leading
        case .headed(let header): .header(header.id)
        }
    }

    /// The header row, for UIKit's `viewForHeaderInSection`; `nil` for the leading section.
    public var header: Item? {
        if case .headed(let header) = self { header } else { nil }
    }
}

extension RowSection: Sendable where Item: Sendable {}
extension RowSection.ID: Sendable where Item.ID: Sendable {}

/// What a host whose list view has sections keeps: the viewport's rows, headers among them
/// (``ListViewportHost/isSectionHeader(_:)``), as the sections its view shows, and the batch
/// updates that take those sections to the rows of each update the viewport applies.
///
/// The viewport lays out, scrolls, loads and animates a sectioned list as one list of rows,
/// each header a row above its section's items (``SectionHeaders``). A UIKit table or
/// collection view counts sections instead: a host keeps a `SectionedRows` and maps
/// - `numberOfSections` to ``sections``' count, `numberOfRowsInSection` to a section's items,
///   `viewForHeaderInSection` to its ``RowSection/header``;
/// - each ``ListViewportHost/didApply(_:)`` to ``update(to:)`` with the viewport's new items:
///   for each stage, the data source takes the stage's data and `performBatchUpdates` its
///   update, whose `sectionInserts`, `sectionDeletes` and `sectionMoves` are
///   `insertSections`, `deleteSections` and `moveSection`. Every stage is valid for UIKit
///   (ListDiff's sectioned diff, ``BatchUpdate/validate(oldCounts:newCounts:)``); a new day's
///   header and posts arriving above is a section insert.
public struct SectionedRows<Item: Identifiable & Equatable> {
    /// The sections the view shows.
    public private(set) var sections: [ListSection<RowSection<Item>, Item>]
    private let isHeader: (Item) -> Bool

    /// The sections of `rows`, whose headers `isHeader` says.
    public init(rows: [Item] = [], isHeader: @escaping (Item) -> Bool) {
        self.isHeader = isHeader
        sections = Self.sections(of: rows, isHeader: isHeader)
    }

    /// `rows` as sections: a section for each header, holding the rows up to the next, and a
    /// leading section, with no header, for any rows above the first.
    /// - Complexity: O(n).
    public static func sections(of rows: [Item], isHeader: (Item) -> Bool) -> [ListSection<RowSection<Item>, Item>] {
        var sections: [ListSection<RowSection<Item>, Item>] = []
        for row in rows {
            if isHeader(row) {
                sections.append(ListSection(model: .headed(by: row), items: []))
            } else if sections.isEmpty {
                sections.append(ListSection(model: .leading, items: [row]))
            } else {
                sections[sections.count - 1].items.append(row)
            }
        }
        return sections
    }

    /// The list's rows are now `rows` (the viewport's items after an update): the staged
    /// batch updates that take the view from the sections it showed to theirs, which it shows
    /// from now on. Empty when the sections are the same.
    /// - Complexity: O(n) in the rows of both lists (a ListDiff diff of their sections).
    public mutating func update(to rows: [Item]) -> StagedChanges<RowSection<Item>, Item> {
        let new = Self.sections(of: rows, isHeader: isHeader)
        defer { sections = new }
        return StagedChanges(from: sections, to: new)
    }

    /// The view shows `rows` without animation (UIKit's `reloadData`), as after a
    /// ``UpdateCoalescer/Update/replaced`` update.
    /// - Complexity: O(n).
    public mutating func replace(with rows: [Item]) {
        sections = Self.sections(of: rows, isHeader: isHeader)
    }
}
