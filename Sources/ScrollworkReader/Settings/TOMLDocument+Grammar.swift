extension TOMLDocument {
    /// TOML 1.0's grammar and the ``Limits``, checked in one pass before TOMLKit reads a file.
    ///
    /// toml++, under TOMLKit, is built with its assertions on (SwiftPM defines no `NDEBUG` for
    /// C++), and on some mistakes it asserts, which aborts the process, where it reports every
    /// other mistake as an error: a table's name that starts with what no key starts with, a
    /// `}` where an array's element should be, a date-like number after a key's value
    /// (`a = 4=-%-2---- 9 }`), each found by fuzz-settings. Rather than find them one at a time,
    /// this checks all of TOML's syntax, so toml++ only ever reads a file that is TOML by its
    /// grammar, and judges what the grammar cannot: a key defined twice, a table redefined.
    ///
    /// The grammar is the ABNF of TOML 1.0 (toml.io/en/v1.0.0), with toml++'s one extension, a
    /// byte order mark before the first line. It checks the values' ranges too: a date's month
    /// and day, a time's hour, minute and second, a 64-bit integer, an escape's Unicode scalar.
    /// A mistake is reported with its line, its column (in characters) and the text found.
    /// One thing TOML allows is refused: an escaped NUL (`\u0000`), which TOMLKit mishandles.
    struct Grammar {
        private let bytes: [UInt8]
        private var index = 0
        private var keys = 0

        private init(bytes: [UInt8]) { self.bytes = bytes }

        /// Checks `source` against TOML 1.0's grammar and the ``Limits``.
        ///
        /// - Throws: ``ReadError/overLimit(message:line:)`` for a file beyond the ``Limits``,
        ///   at the first place it goes past one; ``ReadError/syntax(message:line:column:)`` at
        ///   the first place that is not TOML, a control character anywhere included (TOML
        ///   allows none but tab, line feed and a carriage return before a line feed).
        /// - Complexity: O(n) in the length of `source`; recursion as deep as ``Limits/maxDepth``.
        static func check(_ source: String) throws(ReadError) {
            let size = source.utf8.count
            guard size <= Limits.maxBytes else {
                throw .overLimit(message: "it is \(size) bytes, and a settings file may be at most \(Limits.maxBytes) (1 MiB)", line: nil)
            }
            var grammar = Grammar(bytes: Array(source.utf8))
            try grammar.document()
        }

        // MARK: - Lines and tables

        /// `toml = expression *( newline expression )`, after an optional byte order mark.
        private mutating func document() throws(ReadError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            var tableDepth = 0
            while index < bytes.count {
                skipBlanks()
                guard let byte = peek() else { return }
                switch byte {
                case ascii("#"), ascii("\n"), ascii("\r"):
                    break
                case ascii("["):
                    tableDepth = try tableHeader()
                default:
                    _ = try keyValue(depth: tableDepth, in: "a key")
                }
                try endOfLine(after: byte == ascii("[") ? "a table's header" : "a key's value")
            }
        }

        /// `ws [ comment ] ( newline / end )`: what may end a line after its expression.
        private mutating func endOfLine(after what: String) throws(ReadError) {
            skipBlanks()
            if peek() == ascii("#") { try comment() }
            guard let byte = peek() else { return }
            if byte == ascii("\n") || (byte == ascii("\r") && peek(1) == ascii("\n")) {
                try newline()
                return
            }
            throw failure("after \(what), the line ends (or a comment starts, with '#'), not \(found(word: true))")
        }

        /// `std-table = "[" ws key ws "]"`, `array-table = "[[" ws key ws "]]"`. Returns the
        /// level of the table's keys: one per part of its name, and one more for an array's.
        private mutating func tableHeader() throws(ReadError) -> Int {
            index += 1
            let isArray = peek() == ascii("[")
            if isArray { index += 1 }
            skipBlanks()
            let depth = try key(depth: isArray ? 1 : 0, in: "a table's name")
            try countKey()
            skipBlanks()
            let closing = isArray ? "]]" : "]"
            for _ in closing.utf8 {
                guard peek() == ascii("]") else {
                    throw failure("a table's header ends with '\(closing)' after its name, not \(found(word: true))")
                }
                index += 1
            }
            return depth
        }

        /// `keyval = key ws "=" ws val`, the key's parts each a level below `depth`.
        private mutating func keyValue(depth: Int, in what: String) throws(ReadError) -> Int {
            let keyDepth = try key(depth: depth, in: what)
            try countKey()
            skipBlanks()
            guard peek() == ascii("=") else { throw failure("a key is followed by '=', not \(found(word: true))") }
            index += 1
            skipBlanks()
            try value(depth: keyDepth)
            return keyDepth
        }

        /// `key = simple-key *( ws "." ws simple-key )`: bare (`A-Z a-z 0-9 _ -`), or a
        /// string on one line. Returns the level of its last part.
        private mutating func key(depth: Int, in what: String) throws(ReadError) -> Int {
            var depth = depth
            while true {
                switch peek() {
                case ascii("\"")?:
                    if peek(1) == ascii("\""), peek(2) == ascii("\"") {
                        throw failure("\(what) cannot be a multi-line string")
                    }
                    try string(quote: ascii("\""))
                case ascii("'")?:
                    if peek(1) == ascii("'"), peek(2) == ascii("'") {
                        throw failure("\(what) cannot be a multi-line string")
                    }
                    try string(quote: ascii("'"))
                case let byte? where Self.isBareKey(byte):
                    while let byte = peek(), Self.isBareKey(byte) { index += 1 }
                default:
                    throw failure("\(what) starts with a letter, a digit, '_', '-' or a quote, not \(found(word: false))")
                }
                depth += 1
                try checkDepth(depth)
                let afterPart = index
                skipBlanks()
                guard peek() == ascii(".") else {
                    index = afterPart
                    return depth
                }
                index += 1
                skipBlanks()
            }
        }

        // MARK: - Values

        /// `val = string / boolean / array / inline-table / date-time / float / integer`, at
        /// the level of its key or its array.
        private mutating func value(depth: Int) throws(ReadError) {
            guard let byte = peek() else { throw failure("a value is due here, not \(found(word: true))") }
            switch byte {
            case ascii("\""), ascii("'"):
                if peek(1) == byte, peek(2) == byte { try multiLineString(quote: byte) } else { try string(quote: byte) }
            case ascii("t"), ascii("f"):
                guard word("true") || word("false") else { throw notAValue() }
            case ascii("["):
                try checkDepth(depth + 1)
                try array(depth: depth + 1)
            case ascii("{"):
                try checkDepth(depth + 1)
                try inlineTable(depth: depth + 1)
            case ascii("+"), ascii("-"), ascii("i"), ascii("n"), ascii("0")...ascii("9"):
                if Self.isDigit(peek(0)), Self.isDigit(peek(1)) {
                    if peek(2) == ascii(":") { return try time() }
                    if Self.isDigit(peek(2)), Self.isDigit(peek(3)), peek(4) == ascii("-") { return try dateAndTime() }
                }
                try number()
            default:
                throw notAValue()
            }
        }

        private func notAValue(at position: Int? = nil) -> ReadError {
            let position = position ?? index
            return failure(at: position,
                           "a value (a string, a number, true, false, a date, an array or an inline table) is due here, not \(found(at: position, word: true))")
        }

        /// `array = "[" ws-comment-newline [ val *( "," val ) [ "," ] ] ws-comment-newline "]"`,
        /// comments and line ends allowed around every element.
        private mutating func array(depth: Int) throws(ReadError) {
            index += 1
            while true {
                try blanksCommentsAndLines()
                if peek() == ascii("]") {
                    index += 1
                    return
                }
                guard peek() != ascii("}"), peek() != ascii(",") else {
                    throw failure("an array holds a value or ends with ']' here, not \(found(word: false))")
                }
                try value(depth: depth)
                try blanksCommentsAndLines()
                switch peek() {
                case ascii(",")?:
                    index += 1
                case ascii("]")?:
                    index += 1
                    return
                default:
                    throw failure("an array's values are separated by ',' and it ends with ']', not \(found(word: true))")
                }
            }
        }

        /// `inline-table = "{" ws [ keyval *( ws "," ws keyval ) ] ws "}"`: on one line, with no
        /// comma after its last key.
        private mutating func inlineTable(depth: Int) throws(ReadError) {
            index += 1
            skipBlanks()
            if peek() == ascii("}") {
                index += 1
                return
            }
            while true {
                _ = try keyValue(depth: depth, in: "a key")
                skipBlanks()
                switch peek() {
                case ascii(",")?:
                    index += 1
                    skipBlanks()
                case ascii("}")?:
                    index += 1
                    return
                default:
                    throw failure("an inline table's keys are separated by ',' and it ends with '}' on the same line, not \(found(word: true))")
                }
            }
        }

        /// An integer or a float: `[+-]` decimal digits with `_` between them, no leading zero,
        /// then a fraction and an exponent; `0x`, `0o`, `0b` digits; `[+-]inf`, `[+-]nan`. An
        /// integer must fit 64 bits.
        private mutating func number() throws(ReadError) {
            let start = index
            let signed = peek() == ascii("+") || peek() == ascii("-")
            let negative = peek() == ascii("-")
            if signed { index += 1 }
            if word("inf") || word("nan") { return }
            guard Self.isDigit(peek()) else { throw notAValue(at: start) }
            if !signed, peek() == ascii("0"), let radix = Self.radix(of: peek(1)) {
                index += 2
                let digits = try digitRun(radix: radix, what: radix == 16 ? "a hexadecimal integer" : radix == 8 ? "an octal integer" : "a binary integer")
                guard UInt64(digits, radix: radix).map({ $0 <= UInt64(Int64.max) }) == true else {
                    throw failure(at: start, "\(text(from: start)) does not fit a 64-bit integer")
                }
                return
            }
            let integerStart = index
            let integer = try digitRun(radix: 10, what: "a number")
            if integer.count > 1, integer.first == "0" {
                throw failure(at: integerStart, "a number does not start with 0, unless it is 0 (or a fraction's 0.)")
            }
            var isFloat = false
            if peek() == ascii(".") {
                index += 1
                guard Self.isDigit(peek()) else { throw failure("a number's '.' is followed by a digit, not \(found(word: false))") }
                _ = try digitRun(radix: 10, what: "a number")
                isFloat = true
            }
            if peek() == ascii("e") || peek() == ascii("E") {
                index += 1
                if peek() == ascii("+") || peek() == ascii("-") { index += 1 }
                guard Self.isDigit(peek()) else { throw failure("an exponent is a number, not \(found(word: false))") }
                _ = try digitRun(radix: 10, what: "an exponent")
                isFloat = true
            }
            if !isFloat {
                let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
                guard UInt64(integer).map({ $0 <= limit }) == true else {
                    throw failure(at: start, "\(text(from: start)) does not fit a 64-bit integer")
                }
            }
        }

        /// Digits of `radix` from `index` with single `_` between them, as text without the
        /// `_`s; the first is known to be there for radix 10.
        private mutating func digitRun(radix: Int, what: String) throws(ReadError) -> String {
            var digits = String.UnicodeScalarView()
            while let byte = peek() {
                if byte == ascii("_") {
                    guard !digits.isEmpty, let next = peek(1), Self.digitValue(next).map({ $0 < radix }) == true else {
                        throw failure("an '_' in \(what) stands between two digits")
                    }
                    index += 1
                    continue
                }
                guard let value = Self.digitValue(byte), value < radix else { break }
                digits.append(Unicode.Scalar(byte))
                index += 1
            }
            guard !digits.isEmpty else { throw failure("\(what) has digits here, not \(found(word: false))") }
            return String(digits)
        }

        /// `full-date [ time-delim partial-time [ time-offset ] ]`: a date, or a date-time with
        /// or without its offset.
        private mutating func dateAndTime() throws(ReadError) {
            let start = index
            let year = try digits(4)
            try expect("-", in: "a date")
            let month = try digits(2)
            try expect("-", in: "a date")
            let day = try digits(2)
            guard (1...12).contains(month) else { throw failure(at: start, "\(text(from: start)) has no month \(month)") }
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            guard (1...days).contains(day) else { throw failure(at: start, "\(text(from: start)) has no day \(day)") }
            // `T`, `t`, or a space before a time (a space before anything else ends the date).
            switch peek() {
            case ascii("T")?, ascii("t")?:
                index += 1
            case ascii(" ")? where Self.isDigit(peek(1)) && Self.isDigit(peek(2)) && peek(3) == ascii(":"):
                index += 1
            default:
                return
            }
            try time()
            switch peek() {
            case ascii("Z")?, ascii("z")?:
                index += 1
            case ascii("+")?, ascii("-")?:
                let offset = index
                index += 1
                let hours = try digits(2)
                try expect(":", in: "a time's offset")
                let minutes = try digits(2)
                guard hours <= 23, minutes <= 59 else { throw failure(at: offset, "\(text(from: offset)) is no time offset") }
            default:
                break
            }
        }

        /// `partial-time = time-hour ":" time-minute ":" time-second [ "." 1*DIGIT ]`.
        private mutating func time() throws(ReadError) {
            let start = index
            let hour = try digits(2)
            try expect(":", in: "a time")
            let minute = try digits(2)
            try expect(":", in: "a time")
            let second = try digits(2)
            guard hour <= 23, minute <= 59, second <= 60 else { throw failure(at: start, "\(text(from: start)) is no time of day") }
            if peek() == ascii(".") {
                index += 1
                guard Self.isDigit(peek()) else { throw failure("a time's '.' is followed by digits, not \(found(word: false))") }
                while Self.isDigit(peek()) { index += 1 }
            }
        }

        /// Exactly `count` decimal digits, as a number.
        private mutating func digits(_ count: Int) throws(ReadError) -> Int {
            var value = 0
            for _ in 0..<count {
                guard let byte = peek(), Self.isDigit(byte) else {
                    throw failure("a date or a time has a digit here, not \(found(word: false))")
                }
                value = value * 10 + Int(byte - ascii("0"))
                index += 1
            }
            return value
        }

        private mutating func expect(_ character: Unicode.Scalar, in what: String) throws(ReadError) {
            guard peek() == UInt8(character.value) else {
                throw failure("\(what) has '\(character)' here, not \(found(word: false))")
            }
            index += 1
        }

        // MARK: - Strings

        /// `basic-string = '"' *basic-char '"'` (with escapes) or `literal-string = "'"
        /// *literal-char "'"` (none), by `quote`: a string on one line.
        private mutating func string(quote: UInt8) throws(ReadError) {
            let start = index
            index += 1
            while true {
                guard let byte = peek(), byte != ascii("\n"), byte != ascii("\r") || peek(1) != ascii("\n") else {
                    let q = Unicode.Scalar(quote)
                    throw failure(at: start, "a string in \(q)…\(q) ends on its line (\(q)\(q)\(q)…\(q)\(q)\(q) may span lines)")
                }
                switch byte {
                case quote:
                    index += 1
                    return
                case ascii("\\") where quote == ascii("\""):
                    try escape()
                default:
                    try stringCharacter()
                }
            }
        }

        /// `ml-basic-string = '"""' [ newline ] ml-basic-body '"""'` (escapes, and a `\` at a
        /// line's end) or `ml-literal-string = "'''" [ newline ] ml-literal-body "'''"` (none), by
        /// `quote`: line ends, and up to two quotes before the closing three.
        private mutating func multiLineString(quote: UInt8) throws(ReadError) {
            let start = index
            index += 3
            while true {
                guard let byte = peek() else {
                    let q = String(repeating: String(Unicode.Scalar(quote)), count: 3)
                    throw failure(at: start, "a string in \(q)…\(q) ends with \(q)")
                }
                switch byte {
                case quote where peek(1) == quote && peek(2) == quote:
                    index += 3
                    for _ in 0..<2 where peek() == quote { index += 1 }
                    return
                case ascii("\\") where quote == ascii("\""):
                    // A line-ending backslash: `\`, blanks, a line end, then every blank and line end.
                    var after = index + 1
                    while after < bytes.count, bytes[after] == ascii(" ") || bytes[after] == ascii("\t") { after += 1 }
                    if after < bytes.count, bytes[after] == ascii("\n") || (bytes[after] == ascii("\r") && after + 1 < bytes.count && bytes[after + 1] == ascii("\n")) {
                        index = after
                        while let next = peek(), next == ascii(" ") || next == ascii("\t") || next == ascii("\n") || next == ascii("\r") {
                            if next == ascii("\r") { guard peek(1) == ascii("\n") else { break } }
                            if next == ascii("\n") || next == ascii("\r") { try newline() } else { index += 1 }
                        }
                    } else {
                        try escape()
                    }
                case ascii("\n"), ascii("\r"):
                    try newline()
                default:
                    try stringCharacter()
                }
            }
        }

        /// `escaped = "\" ( '"' / "\" / "b" / "f" / "n" / "r" / "t" / "u" 4HEXDIG / "U" 8HEXDIG )`,
        /// the hex digits a Unicode scalar.
        private mutating func escape() throws(ReadError) {
            let start = index
            index += 1
            guard let byte = peek() else { throw failure(at: start, "a '\\' at the end of the file escapes nothing") }
            switch byte {
            case ascii("\""), ascii("\\"), ascii("b"), ascii("f"), ascii("n"), ascii("r"), ascii("t"):
                index += 1
            case ascii("u"), ascii("U"):
                let count = byte == ascii("u") ? 4 : 8
                index += 1
                var value: UInt32 = 0
                for _ in 0..<count {
                    guard let digit = peek().flatMap(Self.digitValue), digit < 16 else {
                        throw failure(at: start, "\\\(Unicode.Scalar(byte)) is followed by \(count) hexadecimal digits, not \(found(word: false))")
                    }
                    value = value &* 16 &+ UInt32(digit)
                    index += 1
                }
                guard Unicode.Scalar(value) != nil else {
                    throw failure(at: start, "\(text(from: start)) is no Unicode character")
                }
                // TOML allows a NUL, but TOMLKit reads keys and strings as C strings: it would
                // cut a string short there, and it crashes on a key with one (it looks the key
                // up by the cut name). No setting has a use for one.
                guard value != 0 else {
                    throw failure(at: start, "\(text(from: start)), a NUL character, cannot be in a settings file")
                }
            default:
                // The escape as written: the backslash and the character after it.
                index += Self.sequenceLength(byte)
                throw failure(at: start, "a string's escapes are \\\" \\\\ \\b \\f \\n \\r \\t \\uXXXX and \\UXXXXXXXX, not '\(text(from: start))'")
            }
        }

        /// One character of a string's text: any but the controls (tab aside). The character,
        /// a UTF-8 sequence, is known to be whole: `source` was a `String`.
        private mutating func stringCharacter() throws(ReadError) {
            let byte = bytes[index]
            if Self.isControl(byte) { throw failure("") }
            index += Self.sequenceLength(byte)
        }

        // MARK: - Blanks, comments and line ends

        private mutating func skipBlanks() {
            while let byte = peek(), byte == ascii(" ") || byte == ascii("\t") { index += 1 }
        }

        /// `comment = "#" *non-eol`: any character but the controls (tab aside), to the line's end.
        private mutating func comment() throws(ReadError) {
            index += 1
            while let byte = peek(), byte != ascii("\n") {
                if byte == ascii("\r"), peek(1) == ascii("\n") { return }
                if Self.isControl(byte) { throw failure("") }
                index += Self.sequenceLength(byte)
            }
        }

        /// `newline = LF / CRLF`, at `index`.
        private mutating func newline() throws(ReadError) {
            if peek() == ascii("\r") {
                guard peek(1) == ascii("\n") else { throw failure("") }
                index += 1
            }
            index += 1
        }

        /// `ws-comment-newline = *( wschar / [ comment ] newline )`, inside an array.
        private mutating func blanksCommentsAndLines() throws(ReadError) {
            while true {
                skipBlanks()
                switch peek() {
                case ascii("#")?:
                    try comment()
                case ascii("\n")?, ascii("\r")?:
                    try newline()
                default:
                    return
                }
            }
        }

        // MARK: - Limits

        private func checkDepth(_ depth: Int) throws(ReadError) {
            guard depth <= Limits.maxDepth else {
                throw .overLimit(
                    message: "nested more than \(Limits.maxDepth) levels deep (table headers, dotted keys, arrays, inline tables), "
                        + "the most a settings file may",
                    line: place(of: index).line)
            }
        }

        private mutating func countKey() throws(ReadError) {
            keys += 1
            guard keys <= Limits.maxKeys else {
                throw .overLimit(message: "more than \(Limits.maxKeys) keys, the most a settings file may have", line: place(of: index).line)
            }
        }

        // MARK: - Reading bytes

        private func peek(_ offset: Int = 0) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        /// Moves past `word` if it is next.
        private mutating func word(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let matches = word.withUTF8Buffer { expected in bytes[index..<index + count].elementsEqual(expected) }
            if matches { index += count }
            return matches
        }

            /// The text from `start` to `index`, for a message: at most 24 characters (any 64-bit
        /// integer), then `…`.
        private func text(from start: Int) -> String {
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            let shown = text.unicodeScalars.count > 24 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(24))) + "…" : text
            return TOMLDocument.visible(shown)
        }

        // MARK: - Messages

        /// A syntax error at `index`; a control character there is named instead of `message`.
        private func failure(_ message: String) -> ReadError {
            failure(at: index, message)
        }

        private func failure(at position: Int, _ message: String) -> ReadError {
            let (line, column) = place(of: position)
            if isStrayControl(at: position) {
                let byte = bytes[position]
                let code = String(byte, radix: 16, uppercase: true)
                let name = byte == 0 ? "a NUL character" : "a control character (U+\(String(repeating: "0", count: 4 - code.count))\(code))"
                let why = byte == ascii("\r") ? "\(name) is allowed in TOML only before a line feed" : "\(name) is not allowed in TOML"
                return .syntax(message: why, line: line, column: column)
            }
            return .syntax(message: message, line: line, column: column)
        }

        /// The line of `position`, and its column in characters (scalars) from the line's start,
        /// a byte order mark before the first line not counted.
        /// - Complexity: O(n) in `position`: it is found for a mistake, once.
        private func place(of position: Int) -> (line: Int, column: Int) {
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? min(3, position) : 0
            var line = 1
            var lineStart = start
            for offset in start..<position where bytes[offset] == ascii("\n") {
                line += 1
                lineStart = offset + 1
            }
            return (line, bytes[lineStart..<position].count { $0 & 0xC0 != 0x80 } + 1)
        }

        /// What is at `index`, quoted for a message: a character, or (`word`) the text up to a
        /// blank or a delimiter, at most 16 characters.
        private func found(word: Bool) -> String {
            found(at: index, word: word)
        }

        private func found(at position: Int, word: Bool) -> String {
            guard position < bytes.count else { return "the end of the file" }
            if bytes[position] == ascii("\n") || (bytes[position] == ascii("\r") && position + 1 < bytes.count && bytes[position + 1] == ascii("\n")) {
                return "the end of the line"
            }
            var end = position + Self.sequenceLength(bytes[position])
            var characters = 1
            if word {
                while end < bytes.count, characters < 16, !Self.endsWord(bytes[end]) {
                    end += Self.sequenceLength(bytes[end])
                    characters += 1
                }
            }
            let cut = word && end < bytes.count && characters == 16
            return "'" + TOMLDocument.visible(String(decoding: bytes[position..<min(end, bytes.count)], as: UTF8.self)) + (cut ? "…'" : "'")
        }

        // MARK: - Bytes

        /// The C0 controls but tab, line feed and carriage return, and DEL: TOML allows none
        /// of them anywhere, in strings and comments too. (A carriage return is allowed only
        /// before a line feed, which ``newline()`` checks.)
        private static func isControl(_ byte: UInt8) -> Bool {
            (byte < 0x20 && byte != ascii("\t") && byte != ascii("\n") && byte != ascii("\r")) || byte == 0x7F
                || byte == ascii("\r")
        }

        /// Whether the byte at `position` is a control character out of place: any but tab and
        /// line feed, and a carriage return not before a line feed.
        private func isStrayControl(at position: Int) -> Bool {
            guard position < bytes.count, Self.isControl(bytes[position]) else { return false }
            return bytes[position] != ascii("\r") || position + 1 == bytes.count || bytes[position + 1] != ascii("\n")
        }

        /// The length of the UTF-8 sequence `lead` starts.
        private static func sequenceLength(_ lead: UInt8) -> Int {
            switch lead {
            case 0xF0...: 4
            case 0xE0...: 3
            case 0xC0...: 2
            default: 1
            }
        }

        /// Whether `byte` ends the word a message quotes: a blank, a line end, or what
        /// separates values.
        private static func endsWord(_ byte: UInt8) -> Bool {
            switch byte {
            case ascii(" "), ascii("\t"), ascii("\n"), ascii("\r"), ascii(","), ascii("]"), ascii("}"), ascii("#"): true
            default: false
            }
        }

        private static func isBareKey(_ byte: UInt8) -> Bool {
            switch byte {
            case ascii("A")...ascii("Z"), ascii("a")...ascii("z"), ascii("0")...ascii("9"), ascii("_"), ascii("-"): true
            default: false
            }
        }

        /// The radix an integer's prefix letter names (`0x`, `0o`, `0b`).
        private static func radix(of letter: UInt8?) -> Int? {
            switch letter {
            case ascii("x")?: 16
            case ascii("o")?: 8
            case ascii("b")?: 2
            default: nil
            }
        }

        private static func isDigit(_ byte: UInt8?) -> Bool {
            byte.map { (ascii("0")...ascii("9")).contains($0) } ?? false
        }

        private static func digitValue(_ byte: UInt8) -> Int? {
            switch byte {
            case ascii("0")...ascii("9"): Int(byte - ascii("0"))
            case ascii("a")...ascii("f"): Int(byte - ascii("a")) + 10
            case ascii("A")...ascii("F"): Int(byte - ascii("A")) + 10
            default: nil
            }
        }
    }
}

/// The byte of an ASCII character.
private func ascii(_ character: Unicode.Scalar) -> UInt8 {
    UInt8(character.value)
}
