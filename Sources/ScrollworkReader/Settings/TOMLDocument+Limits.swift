extension TOMLDocument {
    /// What a settings file may hold, checked in one pass over its text before TOMLKit sees it.
    ///
    /// toml++, under TOMLKit, builds and frees nested tables by recursion, so a table header of
    /// 100,000 dotted parts overflowed the stack; and it took half a minute and more than a
    /// gigabyte to read two million keys. The reader's settings are a few dozen keys nested
    /// three deep (`[keys]`, `down`, `["j", "down"]`): the limits are far above that, and far
    /// below harm.
    enum Limits {
        /// The most bytes a settings file may have: 1 MiB.
        static let maxBytes = 1 << 20
        /// The deepest a value may sit: each part of a table header or of a dotted key, each
        /// array and each inline table around it is a level.
        static let maxDepth = 32
        /// The most keys a settings file may have, table headers included.
        static let maxKeys = 1_000

        /// Checks `source` against the limits.
        ///
        /// The scan knows only as much TOML as it needs to count: comments, strings (multi-line
        /// ones included), keys, table headers, arrays and inline tables. It never refuses a
        /// file for its syntax, which is TOMLKit's to judge: on TOML it follows the structure,
        /// and TOMLKit stops at the first place that is not TOML, so no nesting the scan did
        /// not count reaches it.
        ///
        /// - Throws: ``ReadError/overLimit(message:line:)`` naming the limit, and the line where
        ///   the file goes past it.
        /// - Complexity: O(n) in the length of `source`, without recursion.
        static func check(_ source: String) throws(ReadError) {
            let size = source.utf8.count
            guard size <= maxBytes else {
                throw .overLimit(message: "it is \(size) bytes, and a settings file may be at most \(maxBytes) (1 MiB)", line: nil)
            }
            var scanner = LimitScanner(bytes: Array(source.utf8))
            try scanner.scan()
        }
    }
}

/// The one pass of ``TOMLDocument/Limits/check(_:)``: a state machine over the bytes with the
/// open arrays and inline tables on a stack of its own.
private struct LimitScanner {
    /// What may come next.
    private enum Expectation {
        /// A key, or a table header, at the start of a line outside any array or inline table.
        case statement
        /// A key inside an inline table, or its closing brace.
        case key
        /// The `=` after a key.
        case equals
        /// A value.
        case value
        /// A comma, a closing bracket or brace, or the end of the line.
        case afterValue
    }

    /// An open array or inline table.
    private struct Container {
        var isArray: Bool
        /// The level of what it holds.
        var depth: Int
    }

    let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var keys = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func scan() throws(TOMLDocument.ReadError) {
        var expectation = Expectation.statement
        var containers: [Container] = []
        // The level of the current table, from its header, and of the value being read.
        var tableDepth = 0
        var valueDepth = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
                if containers.isEmpty { expectation = .statement }
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
                continue
            case UInt8(ascii: "#"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            default:
                break
            }
            let start = index
            switch expectation {
            case .statement where byte == UInt8(ascii: "["):
                index += 1
                let arrayOfTables = index < bytes.count && bytes[index] == UInt8(ascii: "[")
                if arrayOfTables { index += 1 }
                tableDepth = try key(from: arrayOfTables ? 1 : 0)
                try countKey()
                for _ in 0..<(arrayOfTables ? 2 : 1) where index < bytes.count && bytes[index] == UInt8(ascii: "]") { index += 1 }
                expectation = .afterValue
            case .statement, .key:
                if expectation == .key && byte == UInt8(ascii: "}") {
                    index += 1
                    containers.removeLast()
                    expectation = .afterValue
                    continue
                }
                valueDepth = try key(from: expectation == .key ? containers.last?.depth ?? 0 : tableDepth)
                if index > start { try countKey() }
                expectation = .equals
            case .equals:
                index += 1
                expectation = byte == UInt8(ascii: "=") ? .value : .afterValue
            case .value:
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    index += 1
                    valueDepth += 1
                    try checkDepth(valueDepth)
                    containers.append(Container(isArray: byte == UInt8(ascii: "["), depth: valueDepth))
                    expectation = byte == UInt8(ascii: "[") ? .value : .key
                case UInt8(ascii: "]") where containers.last?.isArray == true:
                    // An empty array, or a comma before its end.
                    index += 1
                    containers.removeLast()
                    expectation = .afterValue
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    skipString()
                    expectation = .afterValue
                default:
                    while index < bytes.count && !Self.endsScalar(bytes[index]) { index += 1 }
                    expectation = .afterValue
                }
            case .afterValue:
                index += 1
                switch (byte, containers.last?.isArray) {
                case (UInt8(ascii: ","), true?):
                    valueDepth = containers.last!.depth
                    expectation = .value
                case (UInt8(ascii: ","), false?):
                    expectation = .key
                case (UInt8(ascii: "]"), true?), (UInt8(ascii: "}"), false?):
                    containers.removeLast()
                default:
                    break
                }
            }
            // Whatever TOMLKit will refuse is stepped over a byte at a time.
            if index == start { index += 1 }
        }
    }

    /// Reads a key, bare, quoted or dotted (`a."b c".d`), or a table header's name, from
    /// `index`; each part is a level below `depth`. Returns the level of the last part; stops
    /// at the first byte that is not part of the key.
    private mutating func key(from depth: Int) throws(TOMLDocument.ReadError) -> Int {
        var depth = depth
        while true {
            skipBlanks()
            guard index < bytes.count else { return depth }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                skipString()
            } else if Self.isBareKey(byte) {
                while index < bytes.count && Self.isBareKey(bytes[index]) { index += 1 }
            } else {
                return depth
            }
            depth += 1
            try checkDepth(depth)
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return depth }
            index += 1
        }
    }

    /// Steps over a string from its opening quote: basic (`"…"`, with escapes) or literal
    /// (`'…'`), on one line or, tripled, on many.
    private mutating func skipString() {
        let quote = bytes[index]
        let escapes = quote == UInt8(ascii: "\"")
        if index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote {
            index += 3
            while index < bytes.count {
                let byte = bytes[index]
                if byte == quote && index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote {
                    index += 3
                    // Up to two quotes more belong to the string: `""""` ends it with one.
                    for _ in 0..<2 where index < bytes.count && bytes[index] == quote { index += 1 }
                    return
                }
                if escapes && byte == UInt8(ascii: "\\") { index += 1 }
                if index < bytes.count && bytes[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
            return
        }
        index += 1
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
            let byte = bytes[index]
            index += 1
            if byte == quote { return }
            if escapes && byte == UInt8(ascii: "\\") && index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
        }
    }

    private mutating func skipBlanks() {
        while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) { index += 1 }
    }

    private func checkDepth(_ depth: Int) throws(TOMLDocument.ReadError) {
        guard depth <= TOMLDocument.Limits.maxDepth else {
            throw .overLimit(
                message: "nested more than \(TOMLDocument.Limits.maxDepth) levels deep (table headers, dotted keys, arrays, inline tables), "
                    + "the most a settings file may",
                line: line)
        }
    }

    private mutating func countKey() throws(TOMLDocument.ReadError) {
        keys += 1
        guard keys <= TOMLDocument.Limits.maxKeys else {
            throw .overLimit(message: "more than \(TOMLDocument.Limits.maxKeys) keys, the most a settings file may have", line: line)
        }
    }

    private static func isBareKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// Whether `byte` ends a number, a boolean or a date: what can follow one.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "\n"), UInt8(ascii: "#"), UInt8(ascii: "["),
             UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            true
        default:
            false
        }
    }
}
