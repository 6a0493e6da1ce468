/// Finds tags of one name in HTML and reads their attributes, without building a document:
/// enough for `<img src>` in entry content and `<link rel="alternate">` in a page's head.
enum HTMLTagScanner {
    /// Calls `visit` with the attributes (names lowercased, values with character references
    /// decoded) of each `<name ...>` tag in `html`, in order, until `visit` returns `false`.
    ///
    /// - Complexity: O(n) in the length of `html`.
    static func forEachTag(named name: String, in html: String, _ visit: ([String: String]) -> Bool) {
        var html = html
        // Scans the string's own bytes: content runs to a megabyte, and a copy per entry showed.
        html.withUTF8 { forEachTag(named: name, in: $0, visit) }
    }

    private static func forEachTag(named name: String, in bytes: UnsafeBufferPointer<UInt8>, _ visit: ([String: String]) -> Bool) {
        let target = Array(name.lowercased().utf8)
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            guard matches(target, in: bytes, at: index) else { continue }
            let after = index + target.count
            guard after < bytes.count, isSpace(bytes[after]) || bytes[after] == UInt8(ascii: ">") || bytes[after] == UInt8(ascii: "/") else {
                continue
            }
            let (attributes, end) = readAttributes(bytes, from: after)
            index = end
            if !visit(attributes) { return }
        }
    }

    private static func matches(_ target: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + target.count <= bytes.count else { return false }
        for offset in target.indices where lowercased(bytes[index + offset]) != target[offset] { return false }
        return true
    }

    /// Reads `name=value` pairs up to the tag's `>`, returning them and the index after it.
    private static func readAttributes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> ([String: String], Int) {
        var attributes: [String: String] = [:]
        var index = start
        func skipSpaces() { while index < bytes.count, isSpace(bytes[index]) { index += 1 } }
        while index < bytes.count {
            skipSpaces()
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: ">") { return (attributes, index + 1) }
            if bytes[index] == UInt8(ascii: "/") { index += 1; continue }
            let nameStart = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">") {
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index].map(lowercased), as: UTF8.self)
            skipSpaces()
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                skipSpaces()
                guard index < bytes.count else { break }
                let quote = bytes[index]
                let valueStart: Int
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    valueStart = index + 1
                    index = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    index = min(index + 1, bytes.count)
                } else {
                    valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes[name] = HTMLEntities.decode(value) }
        }
        return (attributes, index)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}
