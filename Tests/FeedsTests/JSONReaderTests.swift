@testable import Feeds
import Foundation
import SeededRandom
import Testing

/// ``JSONReader``: RFC 8259 read in place, every escape, numbers in their three readings,
/// repair rather than refusal for text that is not UTF-8, and an error (never a crash) for
/// anything that is not JSON.
@Suite struct JSONReaderTests {
    /// A JSON value read whole.
    indirect enum Value: Equatable, CustomStringConvertible {
        case string(String)
        case number(JSONNumber)
        case bool(Bool)
        case null
        case array([Value])
        case object([String: Value])

        var description: String {
            switch self {
            case .string(let text): text.debugDescription
            case .number(let number): number.text
            case .bool(let bool): "\(bool)"
            case .null: "null"
            case .array(let elements): "[\(elements.map(\.description).joined(separator: ","))]"
            case .object(let members): "{\(members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }.joined(separator: ","))}"
            }
        }
    }

    /// The next value, read whole (recursively: the tests' documents are shallow).
    static func value(_ reader: inout JSONReader) throws(JSONReaderError) -> Value {
        switch try reader.peek() {
        case .object:
            try reader.beginObject()
            var members: [String: Value] = [:]
            while let key = try reader.nextKey() { members[key] = try value(&reader) }
            return .object(members)
        case .array:
            try reader.beginArray()
            var elements: [Value] = []
            while try reader.nextElement() { elements.append(try value(&reader)) }
            return .array(elements)
        case .string: return .string(try reader.string())
        case .number: return .number(try reader.number())
        case .bool: return .bool(try reader.bool())
        case .null:
            _ = try reader.skipNull()
            return .null
        }
    }

    /// The document in `bytes`, read whole and finished.
    static func document(_ bytes: [UInt8]) throws(JSONReaderError) -> Value {
        try JSONReader.read(bytes) { (reader: inout JSONReader) throws(JSONReaderError) -> Value in
            let result = try value(&reader)
            try reader.finish()
            return result
        }
    }

    static func document(_ text: String) throws(JSONReaderError) -> Value {
        try document(Array(text.utf8))
    }

    /// Whether `bytes` is JSON, checked by skipping its value.
    static func skips(_ bytes: [UInt8]) -> Bool {
        JSONReader.read(bytes) { reader in (try? reader.skipValue()) != nil && (try? reader.finish()) != nil }
    }

    /// The error reading `text` whole throws, if any.
    static func error(_ text: String) -> JSONReaderError? {
        do {
            _ = try document(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Strings

    @Test func readsEveryEscape() throws {
        #expect(try Self.document(#""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \u0000""#)
            == .string("\" \\ / \u{08} \u{0C} \n \r \t A é € \u{0}"))
        #expect(try Self.document(#""plain, with ümlauts and 😀""#) == .string("plain, with ümlauts and 😀"))
        #expect(try Self.document(#""""#) == .string(""))
        #expect(try Self.document(#""a long run of text before \"one\" escape, and a long run after it""#)
            == .string(#"a long run of text before "one" escape, and a long run after it"#))
        for bad in [#""\x""#, #""\u12""#, #""\u12G4""#, #""\'""#, "\"a\u{1}b\"", "\"tab\there\"", "\"line\nbreak\""] {
            #expect(Self.error(bad)?.kind == .malformed, "\(bad.debugDescription)")
        }
    }

    @Test func joinsSurrogatePairsAndReplacesLoneSurrogates() throws {
        #expect(try Self.document(#""\ud83d\ude00 \uD83D\uDE00""#) == .string("😀 😀"))
        #expect(try Self.document(#""\ud800""#) == .string("\u{FFFD}"))
        #expect(try Self.document(#""\udc00x""#) == .string("\u{FFFD}x"))
        #expect(try Self.document(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
        #expect(try Self.document(#""\ud800\ud800\udc00""#) == .string("\u{FFFD}\u{10000}"))
        #expect(try Self.document(#""\ude00\ud83d""#) == .string("\u{FFFD}\u{FFFD}"))
        #expect(try Self.document(#""\ud83dx\ude00""#) == .string("\u{FFFD}x\u{FFFD}"))
        // A high surrogate before a malformed escape is still malformed.
        #expect(Self.error(#""\ud800\uZZZZ""#)?.kind == .malformed)
    }

    @Test func repairsBytesThatAreNotUTF8AsStringDecodingDoes() throws {
        let broken: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC0, 0xAF], [0x80, 0xBF]]
        for bytes in broken {
            let inner = Array("a".utf8) + bytes + Array("b".utf8)
            let expected = String(decoding: inner, as: UTF8.self)
            #expect(try Self.document([0x22] + inner + [0x22]) == .string(expected), "\(bytes)")
            // The same with an escape, which takes the other path.
            let escaped = Array("a".utf8) + bytes + Array(#"b\n"#.utf8)
            #expect(try Self.document([0x22] + escaped + [0x22]) == .string(expected + "\n"), "\(bytes)")
            // As a key.
            #expect(try Self.document(Array(#"{""#.utf8) + inner + Array(#"":1}"#.utf8)) == .object([expected: .number(JSONNumber("1")!)]))
        }
    }

    @Test func findsTheEndOfAStringAtEveryAlignment() throws {
        // The closing quote, a backslash or a control character in each of a word's eight
        // bytes, after and across words.
        for length in 0..<40 {
            let body = String((0..<length).map { Character(UnicodeScalar(UInt8(0x41 + $0 % 26))) })
            #expect(try Self.document("\"\(body)\"") == .string(body))
            #expect(try Self.document("\"\(body)\\\"\(body)\"") == .string(body + "\"" + body))
            #expect(try Self.document("[\"\(body)é\", 1]") == .array([.string(body + "é"), .number(JSONNumber("1")!)]))
            #expect(Self.error("\"\(body)\u{1F}\(body)\"")?.offset == 1 + length)
            #expect(Self.error("\"\(body)")?.kind == .malformed)
        }
    }

    @Test func readsLenientStringsAndLiterals() throws {
        try JSONReader.read(Array(#"["12", -1.50e3, 7, true, false, null, {}]"#.utf8)) { (reader: inout JSONReader) throws in
            try reader.beginArray()
            #expect(try reader.nextElement())
            #expect(try reader.lenientString() == "12")
            #expect(try reader.nextElement())
            #expect(try reader.lenientString() == "-1.50e3")
            #expect(try reader.nextElement())
            #expect(try reader.isNull() == false)
            #expect(try reader.skipNull() == false)
            #expect(try reader.int64() == 7)
            #expect(try reader.nextElement())
            #expect(try reader.bool() == true)
            #expect(try reader.nextElement())
            #expect(try reader.bool() == false)
            #expect(try reader.nextElement())
            #expect(try reader.isNull())
            #expect(try reader.skipNull())
            #expect(try reader.nextElement())
            #expect(throws: JSONReaderError(.typeMismatch, at: 38, expected: "a string or a number")) { try reader.lenientString() }
            try reader.skipValue()
            #expect(try reader.nextElement() == false)
            try reader.finish()
        }
        for bad in ["tru", "trUe", "nul", "falsey", "nulll", "[true false]"] {
            #expect(Self.error(bad)?.kind == .malformed, "\(bad)")
        }
    }

    // MARK: - Numbers

    @Test func readsNumbersAsDoublesIntegersAndText() throws {
        let cases: [(String, Double?, Int64?)] = [
            ("0", 0, 0), ("-12", -12, -12), ("1.5", 1.5, nil), ("1.5e3", 1500, 1500), ("1E+2", 100, 100), ("1e-2", 0.01, nil),
            ("2.50", 2.5, nil), ("10e-1", 1, 1), ("1.0", 1, 1), ("0.0e5", 0, 0),
            ("9223372036854775807", 0x1p63, .max), ("-9223372036854775808", -0x1p63, .min),
            ("9223372036854775808", 0x1p63, nil), ("-9.2233720368547758e18", -9.2233720368547758e18, -9_223_372_036_854_775_800),
            ("123456789012345678901234567890", 1.2345678901234568e29, nil), ("12345678901234567.0", 12_345_678_901_234_568, 12_345_678_901_234_567),
            ("1.00000000000000000001", 1, nil), ("0.1", 0.1, nil), ("5e-324", .leastNonzeroMagnitude, nil), ("1.7976931348623157e308", .greatestFiniteMagnitude, nil),
            ("1e400", nil, nil), ("-1e400", nil, nil), ("1e-400", nil, nil), ("2.4e-324", nil, nil), ("1e99999999999999999999", nil, nil),
            ("0e99999999999999999999", 0, 0), ("123456789012345", 123_456_789_012_345, 123_456_789_012_345),
        ]
        for (text, double, integer) in cases {
            let number = try #require(JSONNumber(text), "\(text)")
            #expect(number.text == text)
            #expect(number.double == double, "\(text)")
            #expect(number.int64 == integer, "\(text)")
            #expect(number.isInteger == !text.contains { ".eE".contains($0) })
            try JSONReader.read(Array("[\(text)]".utf8)) { (reader: inout JSONReader) throws in
                try reader.beginArray()
                _ = try reader.nextElement()
                if let double {
                    #expect(try reader.double() == double, "\(text)")
                } else {
                    #expect(throws: JSONReaderError(.numberOutOfRange, at: 1, expected: "a number within a Double's range")) { try reader.double() }
                    try reader.skipValue()
                }
            }
            let reading = JSONReader.read(Array(text.utf8)) { reader in Result { () throws(JSONReaderError) in try reader.int64() } }
            if let integer {
                #expect(try reading.get() == integer, "\(text)")
            } else {
                #expect(throws: JSONReaderError.self) { try reading.get() }
            }
        }
        // -0 keeps its sign as a Double; as an integer it is 0.
        let negativeZero = try #require(JSONNumber("-0"))
        #expect(negativeZero.double == 0 && negativeZero.double?.sign == .minus)
        #expect(negativeZero.int64 == 0)
        #expect(JSONReader.read(Array("-0.0".utf8)) { reader in try? reader.double() }?.sign == .minus)
    }

    @Test func tellsAFractionFromANumberTooLargeForAnInteger() {
        func kind(_ text: String) -> JSONReaderError.Kind? {
            JSONReader.read(Array(text.utf8)) { reader -> JSONReaderError.Kind? in
                do throws(JSONReaderError) { _ = try reader.int64(); return nil } catch { return error.kind }
            }
        }
        #expect(kind("1.5") == .typeMismatch)
        #expect(kind("1e-1") == .typeMismatch)
        #expect(kind("9223372036854775808") == .numberOutOfRange)
        #expect(kind("1e19") == .numberOutOfRange)
        #expect(kind("\"1\"") == .typeMismatch)
    }

    @Test func refusesNumbersRFC8259DoesNot() {
        for bad in ["01", "-01", "00", "1.", ".5", "+1", "1e", "1e+", "-", "--1", "1.e5", "0x10", "NaN", "Infinity", "-Infinity", "1_000", "[1.]", "[01]", "{\"a\":-}"] {
            #expect(Self.error(bad)?.isMalformed == true, "\(bad)")
            #expect(JSONNumber(bad) == nil, "\(bad)")
        }
        #expect(JSONNumber(" 1") == nil)
        #expect(JSONNumber("1 ") == nil)
        #expect(JSONNumber("\u{FEFF}1") == nil)
    }

    // MARK: - Structure

    @Test func readsAndSkipsNestedStructures() throws {
        let text = #"{"skip":{"a":[1,{"b":[[],{}]},"x\"y]}",-2.5e-3,true,null],"c":{}},"keep":7,"list":[ ],"obj":{ }}"#
        #expect(Self.skips(Array(text.utf8)))
        try JSONReader.read(Array(text.utf8)) { (reader: inout JSONReader) throws in
            try reader.beginObject()
            #expect(try reader.nextKey() == "skip")
            try reader.skipValue()
            #expect(reader.depth == 1)
            #expect(try reader.nextKey() == "keep")
            #expect(try reader.double() == 7)
            #expect(try reader.nextKey() == "list")
            try reader.beginArray()
            #expect(try reader.nextElement() == false)
            #expect(try reader.nextKey() == "obj")
            try reader.skipValue()
            #expect(try reader.nextKey() == nil)
            #expect(reader.depth == 0)
            try reader.finish()
        }
        #expect(try Self.document(" \n\t\r[ 1 , \"a\" , { \"k\" : [ ] } ] \r\n") == .array([.number(JSONNumber("1")!), .string("a"), .object(["k": .array([])])]))
        for bad in ["[1,]", "{\"a\":1,}", "{,}", "[,1]", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "[1 2]", "{1:2}", "{\"a\"}", "[}", "{]", "[", "{", "]", "}", ":", ",",
                    "{\"a\":[1}", "[{]}", "\u{0C}1", "\u{A0}1", "[1\u{0}]"] {
            #expect(Self.error(bad)?.isMalformed == true, "\(bad.debugDescription)")
            #expect(!Self.skips(Array(bad.utf8)), "\(bad.debugDescription)")
        }
    }

    @Test func matchesKeysAgainstATableWithoutMakingThem() throws {
        enum Key: String, CaseIterable { case id, title, content }
        let table = JSONKeyTable(Key.self)
        #expect(table.count == 3)
        let text = #"{"title":"a","other":[1,{"id":2}],"ti\u0074le":"b","id":3,"content":null,"conten":4,"contents":5,"":6}"#
        var keys: [JSONKeyMatch] = []
        try JSONReader.read(Array(text.utf8)) { (reader: inout JSONReader) throws in
            try reader.beginObject()
            while let key = try reader.nextKey(in: table) {
                keys.append(key)
                try reader.skipValue()
            }
            try reader.finish()
        }
        #expect(keys == [.known(position: 1), .unknown, .known(position: 1), .known(position: 0), .known(position: 2), .unknown, .unknown, .unknown])
        #expect(JSONKeyTable(["a", "b", "a"]).position(of: UnsafeBufferPointer(start: nil, count: 0)) == nil)
    }

    @Test func limitsNestingWithAnError() throws {
        func nested(_ depth: Int) -> [UInt8] {
            Array((String(repeating: "[{\"a\":", count: depth / 2) + String(repeating: "[", count: depth % 2) + "0"
                + String(repeating: "]", count: depth % 2) + String(repeating: "}]", count: depth / 2)).utf8)
        }
        #expect(Self.skips(nested(JSONReader.maxDepth)))
        #expect(throws: Never.self) { try Self.document(nested(JSONReader.maxDepth)) }
        let tooDeep = nested(JSONReader.maxDepth + 1)
        #expect(!Self.skips(tooDeep))
        #expect(throws: JSONReaderError(.tooDeep, at: 6 * 256, expected: "at most 512 nested containers")) { try Self.document(tooDeep) }
        // Hostile depth, skipped: an error, no overflow of the stack.
        let hostile = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(JSONReader.read(hostile) { reader in (try? reader.skipValue()) == nil && reader.depth == JSONReader.maxDepth })
        // Opened by the caller, then skipped: the limit counts both.
        let skipped = JSONReader.read(Array(String(repeating: "[", count: 600).utf8)) { reader in
            for _ in 0..<500 { try? reader.beginArray() }
            return Result { () throws(JSONReaderError) in try reader.skipValue() }
        }
        #expect(throws: JSONReaderError(.tooDeep, at: 512, expected: "at most 512 nested containers")) { try skipped.get() }
    }

    @Test func refusesEveryTruncationOfADocument() throws {
        let text = #"{"a":[1,-2.5e+3,"x\u00e9\"\ud83d\ude00",true,false,null,{"b":{}}],"c":-0,"d":"plain"}"#
        let bytes = Array(text.utf8)
        #expect(try Self.document(bytes) != .null)
        for count in 0..<bytes.count {
            let prefix = Array(bytes[..<count])
            #expect(throws: JSONReaderError.self, "\(count)") { try Self.document(prefix) }
            #expect(!Self.skips(prefix), "\(count)")
        }
    }

    @Test func refusesTrailingGarbageAndTakesAByteOrderMark() throws {
        for bad in ["{} x", "{}{}", "1 2", "\"a\"b", "null,", "[]]", "{}\u{0}", "1/", "true false"] {
            #expect(Self.error(bad)?.kind == .malformed, "\(bad.debugDescription)")
        }
        #expect(Self.error("{} x") == JSONReaderError(.malformed, at: 3, expected: "the end of the input"))
        #expect(try Self.document("{}  \n\t") == .object([:]))
        #expect(try Self.document([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8)) == .object(["a": .number(JSONNumber("1")!)]))
        #expect(try Self.document([0xEF, 0xBB, 0xBF, 0x20, 0x31]) == .number(JSONNumber("1")!))
        #expect(throws: JSONReaderError.self) { try Self.document([0x20, 0xEF, 0xBB, 0xBF, 0x31]) }
        #expect(throws: JSONReaderError.self) { try Self.document([0xEF, 0xBB, 0xBF]) }
        #expect(throws: JSONReaderError(.malformed, at: 0, expected: "a value")) { try Self.document("") }
        #expect(throws: JSONReaderError(.malformed, at: 2, expected: "a value")) { try Self.document("  ") }
    }

    @Test func leavesAValueOfAnotherKindUnread() throws {
        try JSONReader.read(Array(#"["text", 12, {"k": 1}]"#.utf8)) { (reader: inout JSONReader) throws in
            try reader.beginArray()
            _ = try reader.nextElement()
            #expect(throws: JSONReaderError(.typeMismatch, at: 1, expected: "a number")) { try reader.double() }
            #expect(throws: JSONReaderError(.typeMismatch, at: 1, expected: "an object")) { try reader.beginObject() }
            #expect(throws: JSONReaderError(.typeMismatch, at: 1, expected: "true or false")) { try reader.bool() }
            #expect(try reader.string() == "text")
            _ = try reader.nextElement()
            #expect(throws: JSONReaderError(.typeMismatch, at: 9, expected: "a string")) { try reader.string() }
            #expect(throws: JSONReaderError(.typeMismatch, at: 9, expected: "an array")) { try reader.beginArray() }
            #expect(try reader.int64() == 12)
            _ = try reader.nextElement()
            #expect(try reader.peek() == .object)
            try reader.skipValue()
            #expect(try reader.nextElement() == false)
            try reader.finish()
        }
        // A byte no value starts with is malformed, not another kind.
        let error = JSONReader.read(Array("[x]".utf8)) { reader in
            Result { () throws(JSONReaderError) in
                try reader.beginArray()
                _ = try reader.nextElement()
                return try reader.string()
            }
        }
        #expect(throws: JSONReaderError(.malformed, at: 1, expected: "a string")) { try error.get() }
    }

    // MARK: - Randomized

    /// Random values serialized by JSONSerialization read back the same.
    @Test func readsBackWhatJSONSerializationWrites() throws {
        let seed = randomizedTestSeed()
        print("JSONReaderTests round-trip seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let original = Self.randomValue(depth: 0, &random)
            let data = try JSONSerialization.data(withJSONObject: Self.foundationObject(original), options: [.fragmentsAllowed])
            let read = try Self.document(Array(data))
            #expect(Self.same(read, original), "seed \(seed): \(String(decoding: data, as: UTF8.self).prefix(500))")
        }
    }

    /// Random values written with every escape (surrogate pairs, upper and lower hex, `\/`)
    /// and white space read back the same.
    @Test func readsBackEveryWayOfWritingAValue() throws {
        let seed = randomizedTestSeed()
        print("JSONReaderTests escapes seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let original = Self.randomValue(depth: 0, &random)
            let text = Self.write(original, &random)
            let read = try Self.document(text)
            #expect(Self.same(read, original), "seed \(seed): \(text.prefix(500))")
            #expect(Self.skips(Array(text.utf8)), "seed \(seed): \(text.prefix(500))")
        }
    }

    /// Documents with bytes changed, added or removed: each is read or refused, never a crash
    /// or a read past the end, and skipping agrees with reading whole.
    @Test func survivesDamagedDocuments() throws {
        let seed = randomizedTestSeed()
        print("JSONReaderTests damage seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let alphabet = Array(#"{}[],:"\ 0123456789eE.-+tfnulrasx/u"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xFF]
        for _ in 0..<2_000 {
            var bytes = Array(Self.write(Self.randomValue(depth: 0, &random), &random).utf8)
            for _ in 0...Int.random(in: 0...2, using: &random) {
                let position = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where position < bytes.count: bytes[position] = alphabet.randomElement(using: &random) ?? 0
                case 1: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: position)
                default: if position < bytes.count { bytes.remove(at: position) }
                }
            }
            let read = (try? Self.document(bytes)) != nil
            #expect(read == Self.skips(bytes), "seed \(seed): \(bytes)")
        }
    }

    /// A random value: strings of any characters (controls, quotes, backslashes, slashes,
    /// beyond the BMP), integers and doubles, literals, arrays and objects.
    static func randomValue(depth: Int, _ random: inout SeededGenerator) -> Value {
        switch Int.random(in: 0..<(depth >= 4 ? 5 : 7), using: &random) {
        case 0: return .string(randomString(&random))
        case 1: return .number(JSONNumber(String(Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random)))!)
        case 2:
            let double = Double(bitPattern: UInt64.random(in: 0 ... .max, using: &random))
            return .number(JSONNumber(double.isFinite ? "\(double)".replacingOccurrences(of: "e+", with: "e") : "0.5")!)
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .null
        case 5: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, &random) })
        default:
            var members: [String: Value] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) { members[randomString(&random)] = randomValue(depth: depth + 1, &random) }
            return .object(members)
        }
    }

    static func randomString(_ random: inout SeededGenerator) -> String {
        let pool: [ClosedRange<UInt32>] = [0x00...0x1F, 0x20...0x7E, 0x22...0x22, 0x5C...0x5C, 0x2F...0x2F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...20, using: &random) {
            let range = pool[Int.random(in: 0..<pool.count, using: &random)]
            if let scalar = UnicodeScalar(UInt32.random(in: range, using: &random)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// `value` as Foundation's JSONSerialization takes it.
    static func foundationObject(_ value: Value) -> Any {
        switch value {
        case .string(let text): text
        case .number(let number): number.isInteger ? NSNumber(value: number.int64 ?? 0) : NSNumber(value: number.double ?? 0)
        case .bool(let bool): NSNumber(value: bool)
        case .null: NSNull()
        case .array(let elements): elements.map(foundationObject)
        case .object(let members): members.mapValues(foundationObject)
        }
    }

    /// Whether `read` is `original`: numbers by value (an integer exactly, others as doubles).
    static func same(_ read: Value, _ original: Value) -> Bool {
        switch (read, original) {
        case let (.number(a), .number(b)): b.isInteger ? a.int64 == b.int64 : a.double == b.double
        case let (.array(a), .array(b)): a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case let (.object(a), .object(b)): a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        default: read == original
        }
    }

    /// `value` written with random white space and random escapes.
    static func write(_ value: Value, _ random: inout SeededGenerator) -> String {
        let space = [" ", "\n", "\t", "\r", ""][Int.random(in: 0..<5, using: &random)]
        switch value {
        case .string(let text): return writeString(text, &random)
        case .number(let number): return number.text
        case .bool(let bool): return "\(bool)"
        case .null: return "null"
        case .array(let elements): return "[" + space + elements.map { write($0, &random) }.joined(separator: space + "," + space) + "]"
        case .object(let members):
            return "{" + space + members.map { writeString($0.key, &random) + space + ":" + write($0.value, &random) }.joined(separator: "," + space) + "}"
        }
    }

    static func writeString(_ text: String, _ random: inout SeededGenerator) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let escapeAnyway = Int.random(in: 0..<4, using: &random) == 0
            func hex(_ unit: UInt32) -> String {
                let digits = String(unit, radix: 16)
                let padded = String(repeating: "0", count: 4 - digits.count) + digits
                return "\\u" + (Bool.random(using: &random) ? padded.uppercased() : padded)
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += escapeAnyway ? "\\/" : "/"
            case "\u{08}": out += escapeAnyway ? hex(8) : "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}": out += hex(scalar.value)
            default:
                guard escapeAnyway else {
                    out.unicodeScalars.append(scalar)
                    continue
                }
                if scalar.value >= 0x10000 {
                    let value = scalar.value - 0x10000
                    out += hex(0xD800 + (value >> 10)) + hex(0xDC00 + (value & 0x3FF))
                } else {
                    out += hex(scalar.value)
                }
            }
        }
        return out + "\""
    }
}
