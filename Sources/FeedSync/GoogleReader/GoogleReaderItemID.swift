/// Google Reader's two spellings of an item id, and the one ``RemoteItemID`` keeps.
///
/// The long form is `tag:google.com,2005:reader/item/` and 16 hex digits; the short form is
/// the same 64-bit number in decimal, signed (Google Reader's own ids could be negative).
/// FreshRSS answers the short form in id lists and the long one in items, and accepts both.
enum GoogleReaderItemID {
    static let longPrefix = "tag:google.com,2005:reader/item/"

    /// `text` in the long form with 16 lowercase hex digits; nil when it is neither form.
    static func normalized(_ text: String) -> RemoteItemID? {
        // Already the long form with 16 lowercase hex digits, as FreshRSS sends items: as it is.
        let utf8 = text.utf8
        if utf8.count == longPrefix.utf8.count + 16, text.hasPrefix(longPrefix),
           utf8.suffix(16).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) {
            return RemoteItemID(text)
        }
        let number: UInt64?
        if text.hasPrefix(longPrefix) {
            let hex = text.dropFirst(longPrefix.count)
            number = hex.count <= 16 ? UInt64(hex, radix: 16) : nil
        } else if text.first == "-" {
            number = Int64(text).map { UInt64(bitPattern: $0) }
        } else {
            number = UInt64(text)
        }
        guard let number else { return nil }
        let hex = String(number, radix: 16)
        return RemoteItemID(longPrefix + String(repeating: "0", count: 16 - hex.count) + hex)
    }
}
