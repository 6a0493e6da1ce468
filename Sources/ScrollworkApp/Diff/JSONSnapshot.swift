import Foundation
import ScrollworkReader
import ListDiff

/// Any JSON value, compared structurally: the content of a section or item in a `diff` input.
enum JSONValue: Equatable, Sendable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

/// The identity of a section or item in a `diff` input: a string or an integer.
enum JSONIdentity: Hashable, Sendable, Decodable {
    case string(String)
    case integer(Int)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else {
            throw DecodingError.typeMismatch(
                JSONIdentity.self,
                .init(codingPath: decoder.codingPath, debugDescription: "an id must be a string or an integer"))
        }
    }
}

/// A section's identity and optional content, as `{"id": ..., "content": ...}`.
struct JSONSectionModel: Identifiable, Equatable, Sendable {
    var id: JSONIdentity
    var content: JSONValue
}

/// An item of a `diff` input, as `{"id": ..., "content": ...}`; missing content is `null`.
struct JSONItem: Identifiable, Equatable, Sendable, Decodable {
    var id: JSONIdentity
    var content: JSONValue

    private enum CodingKeys: String, CodingKey { case id, content }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(JSONIdentity.self, forKey: .id)
        content = try container.decodeIfPresent(JSONValue.self, forKey: .content) ?? .null
    }
}

/// A list snapshot read from JSON: `[{"id": "s1", "content": ..., "items": [{"id": "a", "content": "x"}]}]`.
enum JSONSnapshot {
    typealias Sections = [ListSection<JSONSectionModel, JSONItem>]

    /// Why a snapshot could not be read, in words that name the place in the document.
    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    private struct SectionInput: Decodable {
        var id: JSONIdentity
        var content: JSONValue?
        var items: [JSONItem]
    }

    /// Parses a snapshot from JSON bytes.
    static func decode(_ data: Data) throws(ReadError) -> Sections {
        do {
            return try JSONDecoder().decode([SectionInput].self, from: data).map { input in
                ListSection(model: JSONSectionModel(id: input.id, content: input.content ?? .null), items: input.items)
            }
        } catch let error as DecodingError {
            throw ReadError(description: describe(error, in: data))
        } catch {
            throw ReadError(description: "not valid JSON: \(error)")
        }
    }

    /// Reads and parses the snapshot in the file at `path`.
    static func read(path: String) throws(ReadError) -> Sections {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ReadError(description: "cannot read the file: \((error as NSError).localizedDescription)")
        }
        return try decode(data)
    }

    private static func describe(_ error: DecodingError, in data: Data) -> String {
        switch error {
        case let .keyNotFound(key, context):
            return "\(place(context.codingPath)): missing key \"\(key.stringValue)\""
        case let .typeMismatch(type, context):
            let expected = type == JSONIdentity.self ? "a string or an integer" : expectation(for: type, at: context.codingPath)
            return "\(place(context.codingPath)): expected \(expected)"
        case let .valueNotFound(type, context):
            return "\(place(context.codingPath)): null where \(expectation(for: type, at: context.codingPath)) is expected"
        case let .dataCorrupted(context):
            guard context.codingPath.isEmpty else { return "\(place(context.codingPath)): \(context.debugDescription)" }
            return "not valid JSON: " + (syntaxError(in: data) ?? context.debugDescription)
        @unknown default:
            return "\(error)"
        }
    }

    /// Where and why `data` is not JSON, as Foundation's parser says it, with the character
    /// offset it reports turned into a line and column.
    private static func syntaxError(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            guard var detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return nil }
            if let range = detail.range(of: #"character \d+"#, options: .regularExpression),
               let offset = Int(detail[range].dropFirst("character ".count)) {
                let before = data.prefix(offset)
                let line = before.count { $0 == UInt8(ascii: "\n") } + 1
                let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
                detail.replaceSubrange(range, with: "line \(line), column \(column)")
            }
            return detail
        }
    }

    /// `[2].items[5].id`, or "the top level".
    private static func place(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "at the top level" }
        return "at " + path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            .joined().trimmingPrefix(".")
    }

    private static func expectation(for type: Any.Type, at path: [any CodingKey]) -> String {
        if type is [Any].Type {
            if path.isEmpty { return "an array of sections" }
            return path.last?.stringValue == "items" ? "an array of items" : "an array"
        }
        if type is [String: Any].Type { return path.count == 1 ? "a section object" : "an object" }
        if type is String.Type { return "a string" }
        return "a value of type \(type)"
    }
}

extension String {
    fileprivate func trimmingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
