import CLibXML2
import Foundation

/// HTML's named character references, which RSS titles and descriptions use freely (`&nbsp;`,
/// `&eacute;`) although XML does not declare them.
enum HTMLEntities {
    /// The character `name` stands for (without `&` and `;`), from libxml2's HTML 4 table,
    /// which covers the 253 names feeds use in practice.
    static func character(named name: String) -> Unicode.Scalar? {
        // HTML's names are letters and digits. libxml2 reads the name as a C string, so a name
        // with a NUL in it (`&nbsp\0…;`) was looked up as what comes before the NUL.
        guard !name.isEmpty, name.utf8.allSatisfy(isNameByte),
              case .success(let library) = LibXML2.shared, let description = library.htmlEntityLookup(name) else { return nil }
        return Unicode.Scalar(description.pointee.value)
    }

    /// Whether `byte` is an ASCII letter or digit, of which HTML's names are made.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        FeedDate.isDigit(byte) || (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// The character a numeric reference's digits stand for (`233` or `xE9`), or `nil` when
    /// they are malformed or name a character XML forbids.
    static func character(numeric digits: Substring) -> Unicode.Scalar? {
        var digits = String(digits)
        return digits.withUTF8(character(numeric:))
    }

    /// `text` with every character reference it contains (named, decimal, hexadecimal)
    /// replaced; unknown references are kept as written. `named` resolves names first (to the
    /// text of entities a document declares); HTML's names are the fallback.
    ///
    /// Works on the UTF-8 bytes of `text`, copying the runs between references whole; the
    /// references nearly every text has (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, numeric
    /// ones) are read on the bytes, without a string made of their name.
    /// - Complexity: O(n), plus what `named` costs.
    static func decode(_ text: String, named: ((String) -> String?)? = nil) -> String {
        let ampersand = UInt8(ascii: "&")
        guard text.containsUTF8(ampersand) else { return text }
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                guard let start = bytes[index...].firstIndex(of: ampersand) else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index...]))
                    break
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<start]))
                index = start + 1
                let window = bytes[index..<min(index + 32, bytes.count)]
                guard let end = window.firstIndex(of: UInt8(ascii: ";")), end > index else {
                    out.append(ampersand)
                    continue
                }
                let reference = UnsafeBufferPointer(rebasing: bytes[index..<end])
                if reference[0] == UInt8(ascii: "#") {
                    if let character = character(numeric: UnsafeBufferPointer(rebasing: reference.dropFirst())) {
                        out.append(contentsOf: UTF8.encode(character)!)
                        index = end + 1
                    } else {
                        out.append(ampersand)
                    }
                    continue
                }
                if named == nil, let predefined = predefined(reference) {
                    out.append(predefined)
                    index = end + 1
                    continue
                }
                let name = String(decoding: reference, as: UTF8.self)
                if let replacement = named?(name) ?? character(named: name).map({ String($0) }) {
                    out.append(contentsOf: replacement.utf8)
                    index = end + 1
                } else {
                    out.append(ampersand)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The character of one of XML's five predefined entities, by its name's bytes.
    static func predefined(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
        switch name.count {
        case 2 where name[1] == UInt8(ascii: "t"):
            return name[0] == UInt8(ascii: "l") ? UInt8(ascii: "<") : name[0] == UInt8(ascii: "g") ? UInt8(ascii: ">") : nil
        case 3 where name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "p"):
            return UInt8(ascii: "&")
        case 4 where name[0] == UInt8(ascii: "q") && name[1] == UInt8(ascii: "u") && name[2] == UInt8(ascii: "o") && name[3] == UInt8(ascii: "t"):
            return UInt8(ascii: "\"")
        case 4 where name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "p") && name[2] == UInt8(ascii: "o") && name[3] == UInt8(ascii: "s"):
            return UInt8(ascii: "'")
        default: return nil
        }
    }

    /// The character of a numeric reference's bytes after `#` (`233` or `xE9`), or `nil`
    /// when they are malformed or name a character XML forbids.
    private static func character(numeric digits: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var rest = digits[...]
        var radix: UInt32 = 10
        if let first = rest.first, first | 0x20 == UInt8(ascii: "x") {
            radix = 16
            rest = rest.dropFirst()
        }
        // A sign, as `UInt32(_:radix:)` read it when references were decoded through it.
        if rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
        guard let value = codePoint(rest, radix: radix), value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    /// The number `digits` write in `radix` (10 or 16), if they are all its digits, there is at
    /// least one, and it is at most U+10FFFF.
    static func codePoint(_ digits: Slice<UnsafeBufferPointer<UInt8>>, radix: UInt32) -> UInt32? {
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * radix + digit
            guard value <= 0x10FFFF else { return nil }
        }
        return value
    }
}
