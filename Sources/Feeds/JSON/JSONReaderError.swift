/// Why a ``JSONReader`` stopped: where, what it expected there, and whether the input is not
/// JSON at all or only not what the caller asked for.
package struct JSONReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of problem, in two groups: the input is not JSON (``malformed``,
    /// ``tooDeep``), or it is JSON with a value other than the one asked for
    /// (``typeMismatch``, ``numberOutOfRange``).
    package enum Kind: Equatable, Sendable {
        /// Not JSON: a syntax error, a byte where none may be, or input that ends early.
        case malformed
        /// Containers nested deeper than ``JSONReader/maxDepth``.
        case tooDeep
        /// Valid so far, but the next value is of another kind than the one asked for: a
        /// number where a string was, a fraction where an integer was. The value is left
        /// unread (it may still turn out malformed when read).
        case typeMismatch
        /// A number too large for the type asked for, or one so close to zero that a `Double`
        /// holds only zero. The value is left unread.
        case numberOutOfRange
    }

    /// What went wrong.
    package var kind: Kind
    /// The byte offset of the problem from the start of the input (a byte order mark
    /// included); the input's length when it ended early.
    package var offset: Int
    /// What the reader expected there, in words: `"a string"`, `"',' or '}'"`.
    package var expected: String

    /// An error of `kind` at `offset`.
    package init(_ kind: Kind, at offset: Int, expected: String) {
        self.kind = kind
        self.offset = offset
        self.expected = expected
    }

    /// Whether the input is not JSON (``Kind/malformed`` or ``Kind/tooDeep``), rather than JSON
    /// holding a value of another kind.
    package var isMalformed: Bool { kind == .malformed || kind == .tooDeep }

    /// `malformed JSON at byte 12: expected ',' or '}'`.
    package var description: String {
        let what = switch kind {
        case .malformed: "malformed JSON"
        case .tooDeep: "JSON nested too deeply"
        case .typeMismatch: "a value of another type"
        case .numberOutOfRange: "a number out of range"
        }
        return "\(what) at byte \(offset): expected \(expected)"
    }
}
