import CLibXML2

/// HTML's named character references, which RSS titles and descriptions use freely (`&nbsp;`,
/// `&eacute;`) although XML does not declare them.
enum HTMLEntities {
    /// The character `name` stands for (without `&` and `;`), from libxml2's HTML 4 table,
    /// which covers the 253 names feeds use in practice.
    static func character(named name: String) -> Unicode.Scalar? {
        guard let description = htmlEntityLookup(name) else { return nil }
        return Unicode.Scalar(description.pointee.value)
    }

    /// The character a numeric reference's digits stand for (`233` or `xE9`), or `nil` when
    /// they are malformed or name a character XML forbids.
    static func character(numeric digits: Substring) -> Unicode.Scalar? {
        let value: UInt32?
        if let first = digits.first, first == "x" || first == "X" {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        guard let value, value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    /// `text` with every character reference it contains (named, decimal, hexadecimal)
    /// replaced; unknown references are kept as written. `named` resolves names first (to the
    /// text of entities a document declares); HTML's names are the fallback.
    ///
    /// Works on UTF-8 bytes, copying the runs between references whole.
    /// - Complexity: O(n), plus what `named` costs.
    static func decode(_ text: String, named: (String) -> String? = { _ in nil }) -> String {
        let ampersand = UInt8(ascii: "&")
        guard text.utf8.contains(ampersand) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard let start = bytes[index...].firstIndex(of: ampersand) else {
                out.append(contentsOf: bytes[index...])
                break
            }
            out.append(contentsOf: bytes[index..<start])
            index = start + 1
            let window = bytes[index..<min(index + 32, bytes.count)]
            guard let end = window.firstIndex(of: UInt8(ascii: ";")), end > index else {
                out.append(ampersand)
                continue
            }
            let reference = String(decoding: bytes[index..<end], as: UTF8.self)
            let replacement = reference.utf8.first == UInt8(ascii: "#")
                ? character(numeric: reference.dropFirst()).map { String($0) }
                : named(reference) ?? character(named: reference).map { String($0) }
            if let replacement {
                out.append(contentsOf: replacement.utf8)
                index = end + 1
            } else {
                out.append(ampersand)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
