/// A pull reader of one JSON document (RFC 8259) in UTF-8, reading the bytes in place.
///
/// The caller walks the document in the order of its own calls:
///
/// - an object: ``beginObject()``, then ``nextKey()`` (or ``nextKey(in:)``, which matches the
///   key without allocating) until it returns nil, reading exactly one value after each key;
/// - an array: ``beginArray()``, then ``nextElement()`` until it returns false, reading
///   exactly one value after each `true`;
/// - a value: ``string()``, ``lenientString()``, ``double()``, ``int64()``, ``number()``,
///   ``bool()``, ``skipNull()``, or ``skipValue()`` for one not wanted, whatever it holds;
///   ``peek()`` tells the kind of the next value without reading it;
/// - the end: ``finish()``, which refuses anything but white space after the top-level value.
///
/// Strings may hold every escape of RFC 8259; a surrogate pair of `\u` escapes is one
/// character, and a lone surrogate becomes U+FFFD. Bytes that are not UTF-8 are repaired to
/// U+FFFD, as `String(decoding:as:)` repairs them. A UTF-8 byte order mark at the start is
/// skipped. Containers may nest ``maxDepth`` deep.
///
/// Every read checks what it reads: a document the walk reads whole (``finish()`` included)
/// is valid JSON. A read that finds a value of another kind than it asks for throws
/// ``JSONReaderError/Kind/typeMismatch`` and leaves the value unread, so that the caller may
/// read it as another kind or skip it; so does a number out of the asked type's range. After
/// any other error the reader's position is unspecified: stop reading.
///
/// A call out of that order (two keys without a value between them) is a programming error;
/// the reader then throws ``JSONReaderError/Kind/malformed`` where it finds itself, and never
/// reads outside the bytes.
///
/// The reader holds a pointer to the bytes, not the bytes: use it only while they are alive,
/// inside `withUnsafeBufferPointer` or ``read(_:_:)``. Not thread-safe.
///
/// - Complexity: O(n) in the bytes read, over the whole walk: each byte is looked at a bounded
///   number of times, nesting is a counter (and, for ``skipValue()``, a stack of bits), and
///   nothing recurses. Nothing is allocated but the strings returned, and a buffer reused for
///   strings with escapes.
package struct JSONReader {
    /// The deepest nesting of arrays and objects read: the 513th open container is an error,
    /// as it is for Foundation's `JSONDecoder`.
    package static var maxDepth: Int { 512 }

    /// The input.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next read starts, in bytes from the start of the input.
    package internal(set) var offset: Int
    /// The arrays and objects open around the next read.
    package internal(set) var depth = 0
    /// Whether the last thing read opened a container, whose first key or element then comes
    /// without a comma.
    var atContainerStart = false
    /// The characters of the last string read that had escapes, reused from one to the next.
    var scratch: [UInt8] = []

    /// A reader at the start of `bytes` (after a UTF-8 byte order mark, if any). The bytes
    /// must stay alive and unchanged while the reader is used.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        offset = hasByteOrderMark ? 3 : 0
    }

    /// Runs `body` with a reader over `bytes`, which it reads in place (no copy), and returns
    /// what `body` returns. The reader must not outlive the call.
    package static func read<Value, Failure: Error>(
        _ bytes: [UInt8], _ body: (inout JSONReader) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Value in
            var reader = JSONReader(buffer)
            return try body(&reader)
        }
    }

    // MARK: - Structure

    /// The kind of the next value, from its first byte, without reading it. It skips the white
    /// space before it.
    ///
    /// - Throws: ``JSONReaderError/Kind/malformed`` where no value starts (the input ends, or
    ///   holds `]`, `,` or another byte no value starts with).
    package mutating func peek() throws(JSONReaderError) -> JSONValueKind {
        skipWhitespace()
        guard offset < bytes.count, let kind = JSONValueKind(firstByte: bytes[offset]) else { throw malformed("a value") }
        return kind
    }

    /// Reads the `{` that opens an object; then ``nextKey()`` reads its keys.
    ///
    /// - Throws: ``JSONReaderError/Kind/typeMismatch`` for a value of another kind (unread),
    ///   ``JSONReaderError/Kind/tooDeep`` past ``maxDepth``, else
    ///   ``JSONReaderError/Kind/malformed``.
    package mutating func beginObject() throws(JSONReaderError) {
        try open(UInt8(ascii: "{"), "an object")
    }

    /// Reads the `[` that opens an array; then ``nextElement()`` reads its elements.
    ///
    /// - Throws: as ``beginObject()``.
    package mutating func beginArray() throws(JSONReaderError) {
        try open(UInt8(ascii: "["), "an array")
    }

    /// Reads the next key of the object open, and the `:` after it, and returns the key; or
    /// reads the `}` that closes the object and returns nil. Exactly one value must be read
    /// after a key.
    ///
    /// - Throws: ``JSONReaderError/Kind/malformed`` for anything else.
    package mutating func nextKey() throws(JSONReaderError) -> String? {
        guard try advanceToKey() else { return nil }
        let key = try readString()
        try readColon()
        return key
    }

    /// Whether the array open has another element, which must then be read; false once it has
    /// read the `]` that closes the array.
    ///
    /// - Throws: ``JSONReaderError/Kind/malformed`` for anything but `,` or `]` after an
    ///   element.
    package mutating func nextElement() throws(JSONReaderError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw malformed(atContainerStart ? "a value or ']'" : "',' or ']'") }
        if bytes[offset] == UInt8(ascii: "]") {
            close()
            return false
        }
        if atContainerStart {
            atContainerStart = false
        } else {
            guard bytes[offset] == UInt8(ascii: ",") else { throw malformed("',' or ']'") }
            offset += 1
        }
        return true
    }

    /// Checks that nothing but white space follows the top-level value.
    ///
    /// - Throws: ``JSONReaderError/Kind/malformed`` for anything else (the offset of the
    ///   first byte of it).
    package mutating func finish() throws(JSONReaderError) {
        skipWhitespace()
        guard offset == bytes.count else { throw malformed("the end of the input") }
    }

    // MARK: - Literals

    /// Reads `true` or `false`.
    ///
    /// - Throws: ``JSONReaderError/Kind/typeMismatch`` for a value of another kind (unread),
    ///   else ``JSONReaderError/Kind/malformed``.
    package mutating func bool() throws(JSONReaderError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw malformed("true or false") }
        switch bytes[offset] {
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return false
        default:
            throw mismatch("true or false")
        }
    }

    /// Reads `null` and returns true if it comes next; otherwise reads nothing and returns
    /// false.
    ///
    /// - Throws: ``JSONReaderError/Kind/malformed`` for a misspelled `null`.
    package mutating func skipNull() throws(JSONReaderError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "n") else { return false }
        try readLiteral("null")
        return true
    }

    /// Whether the next value is `null`, which it does not read.
    ///
    /// - Throws: as ``peek()``.
    package mutating func isNull() throws(JSONReaderError) -> Bool {
        try peek() == .null
    }

    // MARK: - Internals

    /// Moves past spaces, tabs, line feeds and carriage returns: JSON's white space.
    @inline(__always)
    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// Reads `bracket` (`{` or `[`) opening a container.
    private mutating func open(_ bracket: UInt8, _ expected: String) throws(JSONReaderError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == bracket else { throw mismatch(expected) }
        guard depth < Self.maxDepth else { throw JSONReaderError(.tooDeep, at: offset, expected: "at most \(Self.maxDepth) nested containers") }
        offset += 1
        depth += 1
        atContainerStart = true
    }

    /// Reads the `}` or `]` at `offset`.
    private mutating func close() {
        offset += 1
        depth = max(depth - 1, 0)
        atContainerStart = false
    }

    /// Moves to the opening quote of the object's next key and returns true, or reads the `}`
    /// that closes it and returns false.
    mutating func advanceToKey() throws(JSONReaderError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw malformed(atContainerStart ? "a key or '}'" : "',' or '}'") }
        if bytes[offset] == UInt8(ascii: "}") {
            close()
            return false
        }
        if atContainerStart {
            atContainerStart = false
        } else {
            guard bytes[offset] == UInt8(ascii: ",") else { throw malformed("',' or '}'") }
            offset += 1
            skipWhitespace()
        }
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw malformed("a key") }
        return true
    }

    /// Reads the `:` after a key.
    mutating func readColon() throws(JSONReaderError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw malformed("':'") }
        offset += 1
    }

    /// Reads `literal` (`true`, `false` or `null`) at `offset`.
    mutating func readLiteral(_ literal: StaticString) throws(JSONReaderError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            offset + count <= bytes.count && (0..<count).allSatisfy { bytes[offset + $0] == expected[$0] }
        }
        guard matches else { throw malformed("\(literal)") }
        offset += count
    }

    /// A ``JSONReaderError/Kind/malformed`` error at `position` (by default the offset).
    func malformed(_ expected: String, at position: Int? = nil) -> JSONReaderError {
        JSONReaderError(.malformed, at: position ?? offset, expected: expected)
    }

    /// The error for a read that wanted `expected` at the offset (after white space): a type
    /// mismatch where a value of another kind starts, else malformed.
    func mismatch(_ expected: String) -> JSONReaderError {
        let startsValue = offset < bytes.count && JSONValueKind(firstByte: bytes[offset]) != nil
        return JSONReaderError(startsValue ? .typeMismatch : .malformed, at: offset, expected: expected)
    }
}

/// The kinds of JSON value, as ``JSONReader/peek()`` tells them.
package enum JSONValueKind: Sendable, Hashable {
    /// `{…}`.
    case object
    /// `[…]`.
    case array
    /// `"…"`.
    case string
    /// `-1.5e3`.
    case number
    /// `true` or `false`.
    case bool
    /// `null`.
    case null

    /// The kind of value that starts with `byte`; nil for a byte no value starts with.
    init?(firstByte byte: UInt8) {
        switch byte {
        case UInt8(ascii: "{"): self = .object
        case UInt8(ascii: "["): self = .array
        case UInt8(ascii: "\""): self = .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): self = .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .bool
        case UInt8(ascii: "n"): self = .null
        default: return nil
        }
    }
}
