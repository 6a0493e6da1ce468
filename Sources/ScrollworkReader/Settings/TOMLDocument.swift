import Foundation
import TOMLKit

/// A TOML document as plain Swift values, with the line of each key.
///
/// TOMLKit parses and gives syntax errors a position, but its values carry none, and its
/// tables are views into a C++ tree that must outlive them. This copies the tree into values
/// at once, and finds each key's line in the source text (``KeyLocator``) so an error about a
/// value can still name its line.
struct TOMLDocument {
    /// A TOML value.
    indirect enum Value {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case array([Value])
        /// A table, its keys in TOMLKit's order (sorted); ``TOMLDocument/line(of:)`` gives the
        /// order of the file.
        case table([(key: String, value: Value)])
        /// A date, a time or a date-time: a type no setting takes, by its name.
        case other(String)

        /// The type's name, for "must be …, not …".
        var typeName: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .float: "a floating-point number"
            case .boolean: "a boolean"
            case .array: "an array"
            case .table: "a table"
            case .other(let name): name
            }
        }
    }

    /// Why text could not be read as a TOML document.
    enum ReadError: Error, Equatable {
        /// Not TOML: what is wrong and where it starts.
        case syntax(message: String, line: Int, column: Int)
        /// Beyond one of the ``Limits``: which, and the line where, if a line is to blame.
        case overLimit(message: String, line: Int?)
    }

    /// The document's top-level table.
    let root: [(key: String, value: Value)]
    private let locator: KeyLocator

    /// Parses `source`: checks it against TOML's grammar and the ``Limits`` (``Grammar``),
    /// then has TOMLKit read it.
    ///
    /// - Throws: ``ReadError/overLimit(message:line:)`` for a file beyond the ``Limits``, which
    ///   TOMLKit never sees; ``ReadError/syntax(message:line:column:)`` for anything that is
    ///   not TOML, a control character included, and for what TOMLKit refuses of what is TOML
    ///   by its grammar (a key defined twice, a table defined again).
    init(parsing source: String) throws(ReadError) {
        try Grammar.check(source)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: source)
        } catch let error as TOMLParseError {
            throw .syntax(message: Self.visible(error.description), line: error.source.begin.line, column: error.source.begin.column)
        } catch {
            throw .syntax(message: Self.visible("\(error)"), line: 1, column: 1)
        }
        root = Self.entries(of: table)
        locator = KeyLocator(source: source)
    }

    /// `message` with each control character written out (`\r`, `\u{1B}`): TOMLKit quotes
    /// the text it stopped at, a carriage return included, and the message reaches the
    /// terminal.
    static func visible(_ message: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in message.unicodeScalars {
            switch scalar.value {
            case 0x0D: out.append(contentsOf: "\\r".unicodeScalars)
            case 0x0A: out.append(contentsOf: "\\n".unicodeScalars)
            case 0x09: out.append(contentsOf: "\\t".unicodeScalars)
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The line of the key at `path` (`["keys", "down"]`), or of its nearest enclosing key or
    /// table when the key itself is inside an inline table.
    func line(of path: [String]) -> Int? {
        locator.line(of: path)
    }

    private static func entries(of table: TOMLTable) -> [(key: String, value: Value)] {
        table.map { key, value in (key: key, value: Self.value(value)) }
    }

    private static func value(_ node: any TOMLValueConvertible) -> Value {
        switch node.type {
        case .string: .string(node.string ?? "")
        case .int: .integer(node.int ?? 0)
        case .double: .float(node.double ?? 0)
        case .bool: .boolean(node.bool ?? false)
        case .array: .array(node.array.map { $0.map(Self.value) } ?? [])
        case .table: .table(node.table.map(entries(of:)) ?? [])
        case .date: .other("a date")
        case .time: .other("a time")
        case .dateTime: .other("a date-time")
        }
    }
}

extension TOMLDocument {
    /// The line of each key in TOML source text, read line by line: table headers
    /// (`[keys]`), keys (bare, quoted or dotted) before `=`, multi-line strings skipped.
    /// Keys inside inline tables are found by their table's key.
    struct KeyLocator {
        private var lines: [[String]: Int] = [:]

        init(source: String) {
            var table: [String] = []
            var inMultilineString = false
            for (index, text) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let delimiters = text.components(separatedBy: "\"\"\"").count - 1 + text.components(separatedBy: "'''").count - 1
                defer { if delimiters % 2 == 1 { inMultilineString.toggle() } }
                guard !inMultilineString else { continue }
                let line = text.drop { $0 == " " || $0 == "\t" }
                if line.hasPrefix("[") {
                    let inside = line.drop { $0 == "[" }
                    guard let end = Self.unquotedIndex(of: "]", in: inside), let path = Self.keyPath(inside[..<end]) else { continue }
                    table = path
                    record(path, line: index + 1)
                } else if let equals = Self.unquotedIndex(of: "=", in: line), let path = Self.keyPath(line[..<equals]) {
                    record(table + path, line: index + 1)
                }
            }
        }

        private mutating func record(_ path: [String], line: Int) {
            if lines[path] == nil { lines[path] = line }
        }

        func line(of path: [String]) -> Int? {
            var path = path
            while !path.isEmpty {
                if let line = lines[path] { return line }
                path.removeLast()
            }
            return nil
        }

        /// The first `character` outside quotes, before any comment.
        private static func unquotedIndex(of character: Character, in text: Substring) -> Substring.Index? {
            var quote: Character?
            var index = text.startIndex
            while index < text.endIndex {
                let current = text[index]
                if let open = quote {
                    if current == "\\" && open == "\"" {
                        index = text.index(after: index)
                        if index == text.endIndex { break }
                    } else if current == open {
                        quote = nil
                    }
                } else if current == "\"" || current == "'" {
                    quote = current
                } else if current == "#" {
                    return nil
                } else if current == character {
                    return index
                }
                index = text.index(after: index)
            }
            return nil
        }

        /// A dotted key (`a.b`, `"a b".c`, `'x'`) as its parts, or `nil` if it is not one.
        private static func keyPath(_ text: Substring) -> [String]? {
            var parts: [String] = []
            var rest = text
            while true {
                rest = rest.drop { $0 == " " || $0 == "\t" }
                guard let first = rest.first else { return nil }
                if first == "\"" || first == "'" {
                    guard let close = rest.dropFirst().firstIndex(of: first) else { return nil }
                    parts.append(String(rest[rest.index(after: rest.startIndex)..<close]))
                    rest = rest[rest.index(after: close)...]
                } else {
                    let bare = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
                    guard !bare.isEmpty else { return nil }
                    parts.append(String(bare))
                    rest = rest.dropFirst(bare.count)
                }
                rest = rest.drop { $0 == " " || $0 == "\t" }
                if rest.isEmpty { return parts }
                guard rest.first == "." else { return nil }
                rest = rest.dropFirst()
            }
        }
    }
}
