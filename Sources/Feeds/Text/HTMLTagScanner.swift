import Foundation

/// Finds tags of one name in HTML and reads their attributes, without building a document:
/// enough for `<img src>` in entry content and `<link rel="alternate">` in a page's head.
package enum HTMLTagScanner {
    /// Calls `visit` with the attributes (names lowercased, values with character references
    /// decoded) of each `<name ...>` tag in `html`, in order, until `visit` returns `false`.
    /// When an attribute is written twice, the first one counts, as in HTML.
    ///
    /// - Complexity: O(n) in the length of `html`.
    static func forEachTag(named name: String, in html: String, _ visit: ([String: String]) -> Bool) {
        var html = html
        // Scans the string's own bytes: content runs to a megabyte, and a copy per entry showed.
        html.withUTF8 { bytes in
            forEachTag(named: name, in: bytes) { start in
                var attributes: [String: String] = [:]
                let end = readAttributes(bytes, from: start) { name, value in
                    let name = String(decoding: bytes[name].map(lowercased), as: UTF8.self)
                    if !name.isEmpty, attributes[name] == nil {
                        attributes[name] = value.map { HTMLEntities.decode(String(decoding: bytes[$0], as: UTF8.self)) } ?? ""
                    }
                }
                return (end, visit(attributes))
            }
        }
    }

    /// Calls `visit` with the value of the attribute `attribute` (a lowercase name; its value
    /// with character references decoded, `""` when written without one, `nil` when the tag
    /// lacks it) of each `<name ...>` tag in `html`, in order, until `visit` returns `false`.
    ///
    /// The same reading as ``forEachTag(named:in:_:)`` without making a dictionary of every
    /// attribute: finding each entry's first image runs this over all its HTML.
    /// - Complexity: O(n) in the length of `html`.
    static func forEachTag(named name: String, in html: String, attribute: String, _ visit: (String?) -> Bool) {
        var html = html
        let target = Array(attribute.utf8)
        html.withUTF8 { bytes in
            forEachTag(named: name, in: bytes) { start in
                var found: Range<Int>??
                let end = readAttributes(bytes, from: start) { name, value in
                    if found == nil, name.count == target.count, zip(name, target).allSatisfy({ lowercased(bytes[$0]) == $1 }) {
                        found = .some(value)
                    }
                }
                let text = found.map { $0.map { HTMLEntities.decode(String(decoding: bytes[$0], as: UTF8.self)) } ?? "" }
                return (end, visit(text))
            }
        }
    }

    /// Finds each `<name` tag in `bytes` and calls `read` with the index just after its name;
    /// `read` returns where the tag ends and whether to go on.
    private static func forEachTag(named name: String, in bytes: UnsafeBufferPointer<UInt8>, _ read: (Int) -> (end: Int, goOn: Bool)) {
        guard let base = bytes.baseAddress else { return }
        let target = Array(name.lowercased().utf8)
        var index = 0
        while index < bytes.count, let found = memchr(base + index, Int32(UInt8(ascii: "<")), bytes.count - index) {
            index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            guard matches(target, in: bytes, at: index) else { continue }
            let after = index + target.count
            guard after < bytes.count, isSpace(bytes[after]) || bytes[after] == UInt8(ascii: ">") || bytes[after] == UInt8(ascii: "/") else {
                continue
            }
            let (end, goOn) = read(after)
            index = end
            if !goOn { return }
        }
    }

    private static func matches(_ target: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + target.count <= bytes.count else { return false }
        for offset in target.indices where lowercased(bytes[index + offset]) != target[offset] { return false }
        return true
    }

    /// Reads `name=value` pairs up to the tag's `>`, calling `each` with the range of each
    /// name and of its value (`nil` for a name written alone); returns the index after the `>`.
    private static func readAttributes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int,
                                       _ each: (_ name: Range<Int>, _ value: Range<Int>?) -> Void) -> Int {
        var index = start
        func skipSpaces() { while index < bytes.count, isSpace(bytes[index]) { index += 1 } }
        while index < bytes.count {
            skipSpaces()
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: ">") { return index + 1 }
            if bytes[index] == UInt8(ascii: "/") { index += 1; continue }
            let nameStart = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">") {
                index += 1
            }
            let name = nameStart..<index
            skipSpaces()
            var value: Range<Int>?
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                skipSpaces()
                guard index < bytes.count else { break }
                let quote = bytes[index]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    let valueStart = index + 1
                    index = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
                    value = valueStart..<index
                    index = min(index + 1, bytes.count)
                } else {
                    let valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = valueStart..<index
                }
            }
            each(name, value)
        }
        return index
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    /// The first `<img src>` of `html` that resolves, against `base`, to an absolute URL: an
    /// entry's thumbnail when its feed names none.
    package static func firstImage(in html: String?, base: URL?) -> URL? {
        guard let html else { return nil }
        var found: URL?
        forEachTag(named: "img", in: html, attribute: "src") { source in
            // A picture to load needs an absolute URL: a relative one with no base names none.
            found = source.flatMap { URLResolver.resolve($0, against: base) }.flatMap { $0.scheme == nil ? nil : $0 }
            return found == nil
        }
        return found
    }
}
