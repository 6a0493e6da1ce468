import ListDiff

/// Writes staged changes as the `diff` command's JSON: `{"stages": [{...}, ...]}`, one stage a
/// line, every key present, in the order of ``BatchUpdate``'s properties.
enum StagesJSON {
    static func render<Model, Item>(_ changes: StagedChanges<Model, Item>) -> String {
        guard !changes.isEmpty else { return "{\"stages\": []}" }
        return "{\"stages\": [\n" + changes.map { "  " + render($0.update) }.joined(separator: ",\n") + "\n]}"
    }

    static func render(_ update: BatchUpdate) -> String {
        func list<T>(_ values: [T], _ each: (T) -> String) -> String {
            "[" + values.map(each).joined(separator: ", ") + "]"
        }
        func path(_ path: ListIndexPath) -> String { "[\(path.section), \(path.item)]" }
        let fields = [
            ("sectionDeletes", list(update.sectionDeletes, String.init)),
            ("sectionInserts", list(update.sectionInserts, String.init)),
            ("sectionMoves", list(update.sectionMoves) { "[\($0.from), \($0.to)]" }),
            ("sectionReloads", list(update.sectionReloads, String.init)),
            ("deletes", list(update.deletes, path)),
            ("inserts", list(update.inserts, path)),
            ("moves", list(update.moves) { "[\(path($0.from)), \(path($0.to))]" }),
            ("reloads", list(update.reloads, path)),
        ]
        return "{" + fields.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}"
    }
}
