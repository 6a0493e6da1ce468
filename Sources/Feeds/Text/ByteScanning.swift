/// Scans of UTF-8 bytes eight at a time, for the loops that read every byte of a post's text
/// (excerpts, collapsed whitespace): a byte at a time, each byte cost a dozen instructions or
/// more.
extension UnsafeBufferPointer<UInt8> {
    /// The end of the run of word bytes at `start`: the index of the first byte at or after it
    /// outside `0x21...0x7F` (visible ASCII and DEL), which is a space, a control character
    /// below it, or a byte of a non-ASCII character. `count` when there is none.
    ///
    /// - Complexity: O(n) in the bytes scanned, a word at a time.
    func endOfASCIIWord(from start: Int) -> Int {
        var index = start
        #if _endian(little)
        if let base = baseAddress {
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                // A byte under 0x21 sets its top bit in `word - 0x21…` (and no byte before the
                // first such byte borrows); a byte at 0x80 or over has its own top bit set.
                let flagged = (word & Self.highBits) | ((word &- Self.repeated(0x21)) & ~word & Self.highBits)
                if flagged != 0 { return index + flagged.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        #endif
        while index < count, (0x21...0x7F).contains(self[index]) { index += 1 }
        return index
    }

    /// Whether the first `length` bytes (all of them, when fewer) are ASCII with no carriage
    /// return.
    ///
    /// - Complexity: O(length), a word at a time.
    func isASCIIWithoutCarriageReturn(prefix length: Int) -> Bool {
        let end = Swift.min(length, count)
        var index = 0
        #if _endian(little)
        if let base = baseAddress {
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                // A zero byte of `word ^ 0x0D…` is a carriage return.
                let carriageReturns = word ^ Self.repeated(0x0D)
                let hasCarriageReturn = (carriageReturns &- Self.repeated(0x01)) & ~carriageReturns & Self.highBits
                if (word & Self.highBits) | hasCarriageReturn != 0 { return false }
                index += 8
            }
        }
        #endif
        while index < end {
            if self[index] >= 0x80 || self[index] == 0x0D { return false }
            index += 1
        }
        return true
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// `byte` in every byte of a word.
    private static func repeated(_ byte: UInt8) -> UInt64 {
        UInt64(byte) &* 0x0101_0101_0101_0101
    }
}
