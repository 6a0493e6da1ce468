/// A server's identity of an item, in the one form a protocol stores it in; stored as the
/// entry's id (``Feeds/FeedEntry/id``), so local entries and server items meet on it.
///
/// A protocol normalizes the forms its server uses into one: ``GoogleReaderAPI`` uses the long
/// form `tag:google.com,2005:reader/item/` and 16 lowercase hex digits.
public struct RemoteItemID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The normalized text.
    public let rawValue: String

    /// An id already in its protocol's normalized form.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The normalized text.
    public var description: String { rawValue }

    /// Orders by the normalized text: the order requests list ids in, so they are deterministic.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
