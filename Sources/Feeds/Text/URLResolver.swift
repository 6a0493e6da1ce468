import Foundation

/// Turns the relative references feeds are full of into absolute URLs.
enum URLResolver {
    /// `reference` resolved against `base`; `nil` when it is empty or not a URL even after
    /// percent-encoding the spaces and other characters feeds leave raw.
    static func resolve(_ reference: String, against base: URL?) -> URL? {
        let trimmed = reference.trimmedWhitespace
        guard !trimmed.isEmpty else { return nil }
        let url = URL(string: trimmed, relativeTo: base)
            ?? trimmed.addingPercentEncoding(withAllowedCharacters: allowed).flatMap { URL(string: $0, relativeTo: base) }
        return url?.absoluteURL
    }

    /// Characters that may appear unescaped in a URL reference, `%` included so existing
    /// escapes survive.
    private static let allowed = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "#%"))
}
