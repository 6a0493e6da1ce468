import Feeds

// The replies' JSON is read with Feeds' JSONReader, the way Foundation's JSONDecoder decoded
// it into Decodable structs before, with the same results and the same errors for any valid
// JSON: the first of duplicate keys counts, `null` is an absent optional, and of an object's
// problems the one reported is that of the field the struct declared first (JSONDecoder
// decoded fields in that order), whatever their order in the reply; of an array's, the first
// element's. The reader reads every value (skipping those not wanted) before a problem is
// reported, so that a reply that is not JSON at all is reported so, as JSONDecoder did.

/// Why a reply is JSON but not the shape a call expects, with the path to the value.
struct ReplyShapeFailure: Sendable {
    /// What JSONDecoder would have said.
    enum Kind: Sendable {
        /// `typeMismatch` or `valueNotFound`: a value of another type, or `null` where a value
        /// must be.
        case wrongType
        /// `keyNotFound`: the object at the path lacks the key.
        case missingKey(String)
        /// `dataCorrupted`: a number a `Double` cannot hold, which made the reply invalid JSON.
        case unrepresentable
    }

    /// What is wrong.
    var kind: Kind
    /// The keys and indexes from the value out to the reply's top level: innermost first.
    var reversedPath: [String] = []

    /// The failure of a value inside the value at `component` (a key or an index).
    func inside(_ component: String) -> ReplyShapeFailure {
        ReplyShapeFailure(kind: kind, reversedPath: reversedPath + [component])
    }

    /// The error the call reports: JSONDecoder's error as the decoding mapped it.
    var error: SyncError {
        let path = reversedPath.isEmpty ? "the reply" : reversedPath.reversed().joined(separator: ".")
        return switch kind {
        case .wrongType: .unexpectedReply(reason: "a value of another type at \(path)")
        case let .missingKey(key): .unexpectedReply(reason: "no \(key) in \(path)")
        case .unrepresentable: .invalidJSON
        }
    }
}

/// A value read as JSONDecoder decoded one: the value, `null`, or why it is not the value.
enum Decoded<Value> {
    /// The value.
    case value(Value)
    /// `null`.
    case null
    /// A value of another shape, read whole and dropped.
    case failed(ReplyShapeFailure)

    /// Puts the value, or nil for `null`, in the optional `field`, as `decodeIfPresent` did;
    /// returns the failure, if any.
    func store(in field: inout Value?) -> ReplyShapeFailure? {
        switch self {
        case let .value(value): field = value
        case .null: field = nil
        case let .failed(failure): return failure
        }
        return nil
    }

    /// Puts the value in `field`, as `decode` did, for which `null` is a value of another type;
    /// returns the failure, if any.
    func storeRequired(in field: inout Value) -> ReplyShapeFailure? {
        switch self {
        case let .value(value): field = value
        case .null: return ReplyShapeFailure(kind: .wrongType)
        case let .failed(failure): return failure
        }
        return nil
    }
}

/// The keys of an object of a reply, in the order the struct that holds it declares its
/// properties: the order in which JSONDecoder decoded them.
struct ReplyKeys<Key: CaseIterable & RawRepresentable<String> & Equatable & Sendable>: Sendable {
    /// The keys, in `allCases` order.
    let keys: [Key]
    /// Their names, in the same order, for the reader to match.
    let table: JSONKeyTable

    init() {
        keys = Array(Key.allCases)
        table = JSONKeyTable(Key.self)
    }
}

/// The failure of the field an object's struct declared first among those that failed.
private struct FieldFailures {
    private(set) var first: ReplyShapeFailure?
    private var firstRank = Int.max

    /// Notes the failure of the field at `rank` in declaration order.
    mutating func note(_ failure: ReplyShapeFailure, rank: Int) {
        guard rank < firstRank else { return }
        first = failure
        firstRank = rank
    }
}

extension JSONReader {
    /// An object read as JSONDecoder decoded a struct whose properties are `keys`, in their
    /// order: `field` reads the first value of each of them into `value` (JSONDecoder kept
    /// the first of duplicate keys) and returns its failure, if any; other keys and later
    /// duplicates are skipped. A key of `required` missing fails in its turn.
    ///
    /// - Throws: the reader's errors: the reply is not JSON.
    mutating func decodedObject<Key, Value>(
        _ keys: ReplyKeys<Key>, required: [Key] = [], into value: Value,
        _ field: (inout JSONReader, Key, inout Value) throws(JSONReaderError) -> ReplyShapeFailure?
    ) throws(JSONReaderError) -> Decoded<Value> {
        switch try peek() {
        case .object: try beginObject()
        case .null: return try skipping(.null)
        default: return try skipping(.failed(ReplyShapeFailure(kind: .wrongType)))
        }
        var value = value
        var seen: UInt64 = 0
        var failures = FieldFailures()
        while let match = try nextKey(in: keys.table) {
            // Structs have far fewer than 64 properties; past that, a duplicate would be read again.
            guard case let .known(position) = match, position >= 64 || seen & 1 << position == 0 else {
                try skipValue()
                continue
            }
            if position < 64 { seen |= 1 << position }
            let key = keys.keys[position]
            if let failure = try field(&self, key, &value) { failures.note(failure.inside(key.rawValue), rank: position) }
        }
        for key in required {
            guard let position = keys.keys.firstIndex(of: key), position < 64, seen & 1 << position == 0 else { continue }
            failures.note(ReplyShapeFailure(kind: .missingKey(key.rawValue)), rank: position)
        }
        if let failure = failures.first { return .failed(failure) }
        return .value(value)
    }

    /// An array read as JSONDecoder decoded one, each element by `element`; `null` is no
    /// element. The first element that fails fails the array, whose other elements are then
    /// skipped.
    mutating func decodedArray<Element>(
        _ element: (inout JSONReader) throws(JSONReaderError) -> Decoded<Element>
    ) throws(JSONReaderError) -> Decoded<[Element]> {
        switch try peek() {
        case .array: try beginArray()
        case .null: return try skipping(.null)
        default: return try skipping(.failed(ReplyShapeFailure(kind: .wrongType)))
        }
        var elements: [Element] = []
        while try nextElement() {
            let failure: ReplyShapeFailure
            switch try element(&self) {
            case let .value(value):
                elements.append(value)
                continue
            case .null: failure = ReplyShapeFailure(kind: .wrongType)
            case let .failed(elementFailure): failure = elementFailure
            }
            let index = elements.count
            while try nextElement() { try skipValue() }
            return .failed(failure.inside(String(index)))
        }
        return .value(elements)
    }

    /// A string.
    mutating func decodedString() throws(JSONReaderError) -> Decoded<String> {
        switch try peek() {
        case .string: .value(try string())
        case .null: try skipping(.null)
        default: try skipping(.failed(ReplyShapeFailure(kind: .wrongType)))
        }
    }

    /// A number as a `Double`; one JSONDecoder refused (``GoogleReaderNumber/double(of:)``)
    /// is unrepresentable.
    mutating func decodedDouble() throws(JSONReaderError) -> Decoded<Double> {
        switch try peek() {
        case .number:
            guard let value = GoogleReaderNumber.double(of: try number()) else { return .failed(ReplyShapeFailure(kind: .unrepresentable)) }
            return .value(value)
        case .null: return try skipping(.null)
        default: return try skipping(.failed(ReplyShapeFailure(kind: .wrongType)))
        }
    }

    /// A string the server may send as a number (continuations, ids, lengths), a number
    /// spelled as the decoding with JSONDecoder spelled it (``GoogleReaderNumber/lenientText(of:)``).
    mutating func decodedLenientString() throws(JSONReaderError) -> Decoded<String> {
        switch try peek() {
        case .string: return .value(try string())
        case .number:
            guard let text = GoogleReaderNumber.lenientText(of: try number()) else { return .failed(ReplyShapeFailure(kind: .unrepresentable)) }
            return .value(text)
        case .null: return try skipping(.null)
        default: return try skipping(.failed(ReplyShapeFailure(kind: .wrongType)))
        }
    }

    /// Skips the next value and returns `result`.
    private mutating func skipping<Value>(_ result: Decoded<Value>) throws(JSONReaderError) -> Decoded<Value> {
        try skipValue()
        return result
    }
}
