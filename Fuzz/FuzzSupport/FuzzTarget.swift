import StableHashing

/// What a fuzz target found wrong with an input it read without crashing: a broken invariant,
/// or two readings of the input that should agree and do not.
public struct FuzzFinding: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// One fuzz target: the check of one input.
///
/// `check` returns when the code under test handled the input as its contract says, throws a
/// ``FuzzFinding`` when it did not, and crashes (or a sanitizer stops it) on a memory or
/// arithmetic bug. It must be deterministic: the same bytes, the same outcome, so that a
/// finding replays from its input alone.
public struct FuzzTarget: Sendable {
    /// The executable's name, `fuzz-…`, which is also its corpus folder's.
    public let name: String
    public let check: @Sendable ([UInt8]) throws(FuzzFinding) -> Void

    public init(name: String, check: @escaping @Sendable ([UInt8]) throws(FuzzFinding) -> Void) {
        self.name = name
        self.check = check
    }

    /// Runs ``check`` for libFuzzer's `LLVMFuzzerTestOneInput`: a finding stops the process
    /// (libFuzzer then saves the input as a crash).
    public func run(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        do {
            try check(bytes)
        } catch {
            fatalError("\(name): \(error.description)")
        }
        return 0
    }
}

/// Where an input is cut to be fed in pieces, as bytes arrive from a socket: the same input is
/// always cut the same way (the sizes come from its hash), so a finding replays.
public enum FuzzPieces {
    /// `bytes` cut into pieces of 1 to 64 bytes, sizes chosen by the input's FNV-1a hash;
    /// small pieces are likelier, since the boundaries they make are what breaks.
    public static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var state = StableHash.fnv1a64(bytes) | 1
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            // xorshift64
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let size = state % 4 == 0 ? Int((state >> 8) % 64) + 1 : Int((state >> 8) % 7) + 1
            let end = min(bytes.count, start + size)
            pieces.append(bytes[start..<end])
            start = end
        }
        return pieces
    }
}

/// Checks shared by the targets.
public enum FuzzInvariants {
    /// Why `text` may not reach a terminal, or `nil`: a C0 control other than tab and line
    /// feed, DEL, a C1 control, and in a single-line field (`singleLine`) a bidirectional
    /// embedding, override or isolate.
    public static func terminalHazard(in text: String, singleLine: Bool) -> String? {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A:
                continue
            case 0x00...0x1F, 0x7F...0x9F:
                return "U+\(String(scalar.value, radix: 16, uppercase: true)) in \(text.debugDescription.prefix(200))"
            case 0x202A...0x202E where singleLine, 0x2066...0x2069 where singleLine:
                return "bidi control U+\(String(scalar.value, radix: 16, uppercase: true)) in \(text.debugDescription.prefix(200))"
            default:
                continue
            }
        }
        return nil
    }
}
