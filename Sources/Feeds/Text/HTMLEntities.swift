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
    /// - Complexity: O(n), plus what `named` costs.
    static func decode(_ text: String, named: (String) -> String? = { _ in nil }) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "&", let end = scalars.prefix(32).firstIndex(of: ";") else {
                out.append(scalar)
                continue
            }
            let reference = Substring(scalars[scalars.startIndex..<end])
            let replacement = reference.first == "#"
                ? character(numeric: reference.dropFirst()).map { String($0) }
                : named(String(reference)) ?? character(named: String(reference)).map { String($0) }
            if let replacement {
                out.append(contentsOf: replacement.unicodeScalars)
                scalars = scalars[scalars.index(after: end)...]
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
