/// Google Reader's two spellings of an item id, and the one ``RemoteItemID`` keeps.
///
/// The long form is `tag:google.com,2005:reader/item/` and 16 hex digits; the short form is
/// the same 64-bit number in decimal, signed (Google Reader's own ids could be negative).
/// FreshRSS answers the short form in id lists and the long one in items, and accepts both.
enum GoogleReaderItemID {
    static let longPrefix = "tag:google.com,2005:reader/item/"

    /// The prefix's bytes.
    private static let prefixBytes = Array(longPrefix.utf8)

    /// `text` in the long form with 16 lowercase hex digits; nil when it is neither form.
    ///
    /// The long form may have 1 to 16 hex digits in either case, and no sign; the short form is
    /// decimal digits with an optional `-` (a signed 64-bit number) or none (an unsigned one),
    /// and no `+`. Read on the bytes: a sync reads every id of an account's unread list in the
    /// short form (10,000 ids for 10,000 unread items), and parsing each into a number and back
    /// through strings was a fifth of the sync core's time.
    static func normalized(_ text: String) -> RemoteItemID? {
        var bytes = text
        guard let (number, isLongForm) = bytes.withUTF8(parse) else { return nil }
        return RemoteItemID(isLongForm ? text : longForm(number))
    }

    /// The number `bytes` spell, and whether they are the long form with 16 lowercase digits.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, Bool)? {
        if bytes.starts(with: prefixBytes) {
            let digits = UnsafeBufferPointer(rebasing: bytes[prefixBytes.count...])
            guard (1...16).contains(digits.count) else { return nil }
            var number: UInt64 = 0
            var isLowercase = true
            for byte in digits {
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"):
                    value = byte - UInt8(ascii: "A") + 10
                    isLowercase = false
                default: return nil
                }
                number = number << 4 | UInt64(value)
            }
            return (number, isLowercase && digits.count == 16)
        }
        let isNegative = bytes.first == UInt8(ascii: "-")
        let digits = UnsafeBufferPointer(rebasing: bytes[(isNegative ? 1 : 0)...])
        guard !digits.isEmpty else { return nil }
        var number: UInt64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (tens, overflowed) = number.multipliedReportingOverflow(by: 10)
            let (sum, carried) = tens.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowed, !carried else { return nil }
            number = sum
        }
        guard isNegative else { return (number, false) }
        // Down to Int64.min, whose magnitude is 2^63; its two's complement is the id.
        guard number <= UInt64(Int64.max) + 1 else { return nil }
        return (0 &- number, false)
    }

    /// The long form of `number`: the prefix and 16 lowercase hex digits.
    private static func longForm(_ number: UInt64) -> String {
        let count = prefixBytes.count + 16
        return String(unsafeUninitializedCapacity: count) { out in
            var index = out.initialize(fromContentsOf: prefixBytes)
            for shift in stride(from: 60, through: 0, by: -4) {
                let digit = UInt8(truncatingIfNeeded: number >> UInt64(shift)) & 0xF
                out[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                index += 1
            }
            return count
        }
    }
}
