#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes a document in a legacy encoding to UTF-8 as its pieces arrive, for the scanner:
/// through iconv, or as windows-1252 by a table of its own.
///
/// A byte that is not a character of the encoding becomes U+FFFD and the decoding goes on
/// (libxml2 stops the whole document at the first one). A character cut between two pieces
/// is held until the next. The XML declaration's `encoding` is rewritten to `UTF-8` in the
/// output, so that whoever reads the output (the scanner, or libxml2 after a handoff) reads
/// it as what it now is.
///
/// Not thread-safe: one document, fed from one thread at a time.
final class XMLTranscoder {
    /// What the bytes are decoded from.
    enum Source: Equatable, Sendable {
        /// An encoding by the name iconv knows it by.
        case iconv(String)
        /// windows-1252, its five unassigned bytes as Latin-1's C1 controls (which the
        /// sanitiser removes, as every other control).
        case windows1252
    }

    private let converter: iconv_t?
    /// Bytes at the end of the last block that start a character the next block finishes.
    private var held: [UInt8] = []
    /// Bytes received that make no whole block yet (``blockBytes``).
    private var pending: [UInt8] = []
    private var rewroteDeclaration = false
    /// How many bytes were not characters of the encoding (each became U+FFFD).
    private(set) var replacements = 0

    /// A decoder from `source`, or `nil` when iconv cannot open it.
    init?(_ source: Source) {
        switch source {
        case .windows1252:
            converter = nil
        case .iconv(let name):
            guard let converter = Self.open(name) else { return nil }
            self.converter = converter
        }
    }

    deinit {
        if let converter { iconv_close(converter) }
    }

    /// Whether iconv decodes an encoding of this name to UTF-8.
    static func iconvKnows(_ name: String) -> Bool {
        guard let converter = open(name) else { return false }
        iconv_close(converter)
        return true
    }

    private static func open(_ name: String) -> iconv_t? {
        let converter = iconv_open("UTF-8", name)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
        return converter
    }

    /// How many bytes iconv is given at once: the document's bytes go to iconv in blocks at
    /// fixed offsets (0, 4096, 8192, …), however they arrive.
    ///
    /// glibc's stateful decoders read the same bytes differently when a call ends in the middle
    /// of them: UTF-7 split after a byte it refused turned every byte of the next call into
    /// U+FFFD (found by fuzz-feed-parser, a feed declaring `utf-\u{FFFD}7`, which glibc reads
    /// as UTF-7). With the calls' boundaries fixed, a document reads the same whole and in
    /// pieces.
    static let blockBytes = 4 << 10

    /// `piece` as UTF-8; with `final`, the document's last bytes, and nothing is held back.
    ///
    /// Decoded through iconv, the output lags the input by less than ``blockBytes``.
    func transcode(_ piece: UnsafeBufferPointer<UInt8>, final: Bool) -> [UInt8] {
        var output: [UInt8]
        if converter == nil {
            output = Self.windows1252(piece)
        } else {
            pending.append(contentsOf: piece)
            let count = final ? pending.count : pending.count / Self.blockBytes * Self.blockBytes
            output = []
            var start = 0
            while start < count {
                let end = min(start + Self.blockBytes, count)
                let isLast = final && end == count
                if held.isEmpty {
                    output += pending.withUnsafeBufferPointer { decode(UnsafeBufferPointer(rebasing: $0[start..<end]), final: isLast) }
                } else {
                    let joined = held + pending[start..<end]
                    held = []
                    output += joined.withUnsafeBufferPointer { decode($0, final: isLast) }
                }
                start = end
            }
            if final, count == 0 {
                // The document ended on a block's boundary: a character cut short there, and
                // the shift back to the initial state.
                let rest = held
                held = []
                output += rest.withUnsafeBufferPointer { decode($0, final: true) }
            }
            pending.removeFirst(count)
        }
        if !rewroteDeclaration, !output.isEmpty {
            rewroteDeclaration = true
            if let range = XMLEncoding.declaredEncodingRange(output) { output.replaceSubrange(range, with: "UTF-8".utf8) }
        }
        return output
    }

    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> [UInt8] {
        guard let converter else { return Self.windows1252(bytes) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2 + 16)
        // No bytes (the end of a document) still shift back to the initial state below.
        var input = UnsafeMutableRawPointer(mutating: bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!)
            .assumingMemoryBound(to: CChar.self)
        var inputLeft = bytes.baseAddress == nil ? 0 : bytes.count
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 << 10) { scratch in
            let start = UnsafeMutableRawPointer(scratch.baseAddress!).assumingMemoryBound(to: CChar.self)
            while inputLeft > 0 {
                var out: UnsafeMutablePointer<CChar>? = start
                var outLeft = scratch.count
                var into: UnsafeMutablePointer<CChar>? = input
                let result = iconv(converter, &into, &inputLeft, &out, &outLeft)
                let error = errno
                input = into!
                output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<(scratch.count - outLeft)]))
                guard result == -1 else { continue }
                switch error {
                case E2BIG:
                    continue
                case EINVAL where !final:
                    // A character cut at the end of the piece: the next piece finishes it.
                    held = Array(UnsafeRawBufferPointer(start: input, count: inputLeft))
                    inputLeft = 0
                default:
                    // Not a character of the encoding (or cut at the document's end).
                    output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    replacements += 1
                    input += 1
                    inputLeft -= 1
                }
            }
            if final {
                // The shift back to the initial state, for the stateful encodings (ISO-2022).
                var out: UnsafeMutablePointer<CChar>? = start
                var outLeft = scratch.count
                _ = iconv(converter, nil, nil, &out, &outLeft)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<(scratch.count - outLeft)]))
            }
        }
        return output
    }

    /// windows-1252 `bytes` as UTF-8.
    static func windows1252(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                appendWindows1252(byte, to: &output)
            }
        }
        return output
    }

    /// The windows-1252 character `byte` (128 or more).
    static func windows1252Scalar(_ byte: UInt8) -> UInt16 {
        byte < 0xA0 ? windows1252High[Int(byte - 0x80)] : UInt16(byte)
    }

    /// Appends the UTF-8 of the windows-1252 character `byte` (128 or more) to `output`.
    static func appendWindows1252(_ byte: UInt8, to output: inout [UInt8]) {
        let scalar = windows1252Scalar(byte)
        if scalar < 0x800 {
            output.append(0xC0 | UInt8(scalar >> 6))
            output.append(0x80 | UInt8(scalar & 0x3F))
        } else {
            output.append(0xE0 | UInt8(scalar >> 12))
            output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            output.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// windows-1252's characters for the bytes 0x80 to 0x9F.
    private static let windows1252High: [UInt16] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
