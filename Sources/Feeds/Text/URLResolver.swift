import Foundation

/// Turns the relative references feeds are full of into absolute URLs.
enum URLResolver {
    /// `reference` resolved against `base`; `nil` when it is empty or not a URL even after
    /// percent-encoding the spaces and other characters feeds leave raw.
    ///
    /// The two references nearly every entry has, an absolute `http(s)` link and a path from
    /// the site's root (`/images/1.jpg`), are joined here as text and parsed once; Foundation
    /// resolves the rest (and would parse the reference, then the joined URL, for those too).
    /// Both ways give the same URL.
    static func resolve(_ reference: String, against base: URL?) -> URL? {
        let trimmed = reference.trimmedWhitespace
        guard !trimmed.isEmpty else { return nil }
        if let joined = joined(trimmed, base), let url = URL(string: joined) { return url }
        return resolvedByFoundation(trimmed, against: base)
    }

    /// Foundation's resolution of a trimmed, non-empty reference.
    static func resolvedByFoundation(_ trimmed: String, against base: URL?) -> URL? {
        let url = URL(string: trimmed, relativeTo: base)
            ?? trimmed.addingPercentEncoding(withAllowedCharacters: allowed).flatMap { URL(string: $0, relativeTo: base) }
        return url?.absoluteURL
    }

    /// The absolute form of `reference` when resolving it is only joining text: `reference`
    /// itself when it is an absolute `http(s)` URL, the base's scheme and authority before it
    /// when it is a path from the root and the base is an `http(s)` URL. `nil` for anything
    /// else, and for a reference with a dot segment (`/a/../b`), which resolving removes.
    static func joined(_ reference: String, _ base: URL?) -> String? {
        var utf8 = reference
        return utf8.withUTF8 { bytes -> String? in
            guard !bytes.isEmpty, !hasDotSegment(bytes) else { return nil }
            if httpPrefixLength(bytes) != nil { return reference }
            guard bytes[0] == UInt8(ascii: "/"), bytes.count == 1 || bytes[1] != UInt8(ascii: "/"), let base else { return nil }
            var baseText = base.absoluteString
            return baseText.withUTF8 { baseBytes -> String? in
                guard let prefix = httpPrefixLength(baseBytes) else { return nil }
                var end = prefix
                while end < baseBytes.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(baseBytes[end]) { end += 1 }
                guard end > prefix else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: baseBytes[..<end]), as: UTF8.self) + reference
            }
        }
    }

    /// The length of `http://` or `https://` when `bytes` start with it.
    private static func httpPrefixLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 7, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"), bytes[2] == UInt8(ascii: "t"),
              bytes[3] == UInt8(ascii: "p") else { return nil }
        let rest = bytes[4] == UInt8(ascii: "s") ? 5 : 4
        guard bytes.count >= rest + 3, bytes[rest] == UInt8(ascii: ":"), bytes[rest + 1] == UInt8(ascii: "/"),
              bytes[rest + 2] == UInt8(ascii: "/") else { return nil }
        return rest + 3
    }

    /// Whether a path segment of `bytes` starts with a dot: `/.`, which may be `/./` or `/../`.
    private static func hasDotSegment(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: ".") { return true }
            previous = byte
        }
        return false
    }

    /// Characters that may appear unescaped in a URL reference, `%` included so existing
    /// escapes survive.
    private static let allowed = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "#%"))
}
