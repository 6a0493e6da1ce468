extension JSONReader {
    /// Reads the next value whole, whatever it is, checking it as the other reads do, and
    /// keeps nothing of it.
    ///
    /// - Throws: ``JSONReaderError/Kind/malformed``, or ``JSONReaderError/Kind/tooDeep`` for
    ///   nesting past ``maxDepth`` (counting the containers open around the value).
    /// - Complexity: O(n) in the value's bytes, without recursion: the open containers are a
    ///   stack of bits (one word up to 64 levels), and strings are not made.
    package mutating func skipValue() throws(JSONReaderError) {
        var open = ContainerStack()
        // Each turn reads one value; a container's opening makes the next turn its first value.
        while true {
            skipWhitespace()
            guard offset < bytes.count else { throw malformed("a value") }
            switch bytes[offset] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[offset] == UInt8(ascii: "{")
                guard depth < Self.maxDepth else { throw JSONReaderError(.tooDeep, at: offset, expected: "at most \(Self.maxDepth) nested containers") }
                depth += 1
                open.push(isObject)
                offset += 1
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    offset += 1
                    depth -= 1
                    open.pop()
                } else {
                    if isObject { try skipKey() }
                    continue
                }
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "t"):
                try readLiteral("true")
            case UInt8(ascii: "f"):
                try readLiteral("false")
            case UInt8(ascii: "n"):
                try readLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                offset = try numberEnd()
            default:
                throw malformed("a value")
            }
            // After a value: commas and closing brackets up to the next value, or the end.
            while let isObject = open.top {
                skipWhitespace()
                let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard offset < bytes.count else { throw malformed(isObject ? "',' or '}'" : "',' or ']'") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    if isObject { try skipKey() }
                    break
                }
                guard bytes[offset] == closing else { throw malformed(isObject ? "',' or '}'" : "',' or ']'") }
                offset += 1
                depth -= 1
                open.pop()
            }
            if open.top == nil { return }
        }
    }

    /// Moves past a key and its `:`.
    private mutating func skipKey() throws(JSONReaderError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw malformed("a key") }
        try skipString()
        try readColon()
    }
}

/// The containers ``JSONReader/skipValue()`` is inside, one bit each (set for an object):
/// a word for the first 64 levels, more words beyond.
private struct ContainerStack {
    private var first: UInt64 = 0
    private var more: [UInt64] = []
    private var count = 0

    /// Whether the innermost container is an object; nil when none is open.
    var top: Bool? {
        guard count > 0 else { return nil }
        let level = count - 1
        let word = level < 64 ? first : more[level / 64 - 1]
        return word >> UInt64(level % 64) & 1 == 1
    }

    mutating func push(_ isObject: Bool) {
        let level = count
        let bit: UInt64 = 1 << UInt64(level % 64)
        if level < 64 {
            first = isObject ? first | bit : first & ~bit
        } else {
            if level / 64 - 1 == more.count { more.append(0) }
            more[level / 64 - 1] = isObject ? more[level / 64 - 1] | bit : more[level / 64 - 1] & ~bit
        }
        count += 1
    }

    mutating func pop() {
        count -= 1
    }
}
