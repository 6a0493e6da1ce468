import ScrollworkReader

/// One value in a benchmark row: a number, a string, or nothing (printed as `null` / `-`).
enum BenchValue: Equatable, Sendable {
    case number(Double)
    case text(String)
    case missing

    init(_ value: Double?) { self = value.map(BenchValue.number) ?? .missing }

    var json: String {
        switch self {
        case .number(let value): value.isFinite ? Self.format(value) : "null"
        case .text(let text): JSONText.quoted(text)
        case .missing: "null"
        }
    }

    var cell: String {
        switch self {
        case .number(let value): value.isFinite ? Self.format(value) : "-"
        case .text(let text): text
        case .missing: "-"
        }
    }

    /// Three significant decimals at most, no exponent: `1.234`, `3800.5`, `0.012`.
    private static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) + ".0" }
        return String(rounded)
    }
}

/// A benchmark's output: one row per case, as JSON lines or as an aligned table.
struct BenchReport {
    /// Column names, in order; every row has a value for each.
    let columns: [String]
    private(set) var rows: [[BenchValue]] = []

    init(columns: [String]) { self.columns = columns }

    mutating func append(_ row: [BenchValue]) {
        precondition(row.count == columns.count, "a row needs one value per column")
        rows.append(row)
    }

    /// One JSON object per row, keys in column order.
    func jsonLines() -> [String] {
        rows.map { row in
            "{" + zip(columns, row).map { "\(JSONText.quoted($0)): \($1.json)" }.joined(separator: ", ") + "}"
        }
    }

    /// A plain-text table with right-aligned numbers.
    func table() -> String {
        let cells = [columns] + rows.map { $0.map(\.cell) }
        let widths = columns.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.enumerated().map { index, row in
            let line = row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
            return index == 0 ? line + "\n" + String(repeating: "-", count: line.count) : line
        }.joined(separator: "\n")
    }

    /// Prints the report in the form the options ask for.
    func print(json: Bool) {
        if json {
            jsonLines().forEach { Swift.print($0) }
        } else {
            Swift.print(table())
        }
    }
}
