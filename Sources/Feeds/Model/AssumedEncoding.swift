/// The encoding a feed was read in when it named one nobody knows, or named none and its
/// bytes were not UTF-8: what browsers and feedparser do, said so that a reader can tell.
public struct AssumedEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The encoding the document or its HTTP charset named; `nil` when it named none.
    public var declared: String?
    /// The encoding it was read in: `windows-1252`.
    public var read: String

    /// An encoding read in place of `declared`.
    public init(declared: String?, read: String) {
        self.declared = declared
        self.read = read
    }

    /// "unknown encoding "dbcs", read as windows-1252", or "not UTF-8, read as windows-1252".
    public var description: String {
        if let declared { return "unknown encoding \"\(declared)\", read as \(read)" }
        return "not UTF-8, read as \(read)"
    }
}
