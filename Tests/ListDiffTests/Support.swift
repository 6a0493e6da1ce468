import Foundation
import ListDiff

/// An item of a test list: identity and content.
struct Item: Identifiable, Hashable, Sendable, CustomStringConvertible {
    var id: String
    var content: Int = 0

    var description: String { content == 0 ? id : "\(id)#\(content)" }
}

/// A section model of a test list: identity and a header.
struct Header: Identifiable, Hashable, Sendable, CustomStringConvertible {
    var id: String
    var title: Int = 0

    var description: String { title == 0 ? id : "\(id)#\(title)" }
}

typealias Section = ListSection<Header, Item>
typealias Changes = StagedChanges<Header, Item>

/// `"a b c#1"` → items a, b, and c with content 1.
func items(_ text: String) -> [Item] {
    text.split(separator: " ").map { word in
        let parts = word.split(separator: "#")
        return Item(id: String(parts[0]), content: parts.count > 1 ? Int(parts[1])! : 0)
    }
}

/// `"A: a b | B#1: c"` → section A with a and b, and section B (title 1) with c.
func sections(_ text: String) -> [Section] {
    text.split(separator: "|").map { part in
        let halves = part.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = halves[0].trimmingCharacters(in: .whitespaces)
        let header = name.split(separator: "#")
        return Section(
            model: Header(id: String(header[0]), title: header.count > 1 ? Int(header[1])! : 0),
            items: halves.count > 1 ? items(String(halves[1])) : [])
    }
}

func path(_ section: Int, _ item: Int) -> ListIndexPath { ListIndexPath(item: item, section: section) }
