/// A password or a token, which no description, debug output, dump or error message shows.
///
/// `"\(secret)"`, `String(reflecting: secret)` and `dump(secret)` all print `<redacted>`; only
/// ``revealed`` gives the text, for the one place that must send it (a request's header or
/// form field, itself redacted in descriptions; see ``SyncRequest``).
public struct SyncSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret itself. Read it only to put it into a request or a file only its user can read.
    public let revealed: String

    /// Wraps `revealed`.
    public init(_ revealed: String) {
        self.revealed = revealed
    }

    /// `<redacted>`.
    public var description: String { "<redacted>" }
    /// `SyncSecret(<redacted>)`.
    public var debugDescription: String { "SyncSecret(<redacted>)" }
    /// A mirror without children, so `dump` and reflection show nothing of the text.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
