/// The names of the keys a caller expects in an object, for ``JSONReader/nextKey(in:)`` to
/// match a key against without making a string of it. Build one once (a `static let`) and
/// reuse it.
package struct JSONKeyTable: Sendable {
    /// Every name's UTF-8, one after the other.
    private let pool: [UInt8]
    /// Where each name starts in ``pool``, and its length in bytes.
    private let spans: [Span]

    private struct Span: Sendable {
        var start: Int
        var count: Int
    }

    /// A table of `names`; a match tells a name's position in this array.
    package init(_ names: [String]) {
        var pool: [UInt8] = []
        var spans: [Span] = []
        for name in names {
            spans.append(Span(start: pool.count, count: name.utf8.count))
            pool.append(contentsOf: name.utf8)
        }
        self.pool = pool
        self.spans = spans
    }

    /// A table of the raw values of every case of `keys`, in the order of `allCases`: a
    /// match's position is the case's position there.
    package init<Key: CaseIterable & RawRepresentable<String>>(_ keys: Key.Type) {
        self.init(keys.allCases.map(\.rawValue))
    }

    /// The number of names.
    package var count: Int { spans.count }

    /// The position of the first name whose UTF-8 is `key`; nil if none is.
    ///
    /// - Complexity: O(n) in the table's size, comparing bytes only of names as long as `key`.
    func position(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        pool.withUnsafeBufferPointer { pool in
            for (position, span) in spans.enumerated() where span.count == key.count {
                var index = 0
                while index < span.count, pool[span.start + index] == key[index] { index += 1 }
                if index == span.count { return position }
            }
            return nil
        }
    }
}

/// A key read by ``JSONReader/nextKey(in:)``.
package enum JSONKeyMatch: Hashable, Sendable {
    /// The name at `position` in the table.
    case known(position: Int)
    /// A key the table does not have.
    case unknown
}

extension JSONReader {
    /// Reads the next key of the object open, and the `:` after it, and tells which of
    /// `table`'s names it is; or reads the `}` that closes the object and returns nil. A key
    /// without escapes is compared in place; one with escapes once they are replaced. Exactly
    /// one value must be read after a key.
    ///
    /// - Throws: as ``nextKey()``.
    /// - Complexity: O(n) in the key's bytes plus the table's size.
    package mutating func nextKey(in table: JSONKeyTable) throws(JSONReaderError) -> JSONKeyMatch? {
        guard try advanceToKey() else { return nil }
        let start = offset + 1
        let special = Self.firstSpecialByte(in: bytes, from: start)
        let position: Int?
        if special < bytes.count, bytes[special] == UInt8(ascii: "\"") {
            position = table.position(of: UnsafeBufferPointer(rebasing: bytes[start..<special]))
            offset = special + 1
        } else {
            var key = try readString()
            position = key.withUTF8 { table.position(of: $0) }
        }
        try readColon()
        return position.map { .known(position: $0) } ?? .unknown
    }
}
