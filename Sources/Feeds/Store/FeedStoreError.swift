import Foundation

/// Why a ``FeedStore`` operation failed.
public enum FeedStoreError: Error, Sendable, Hashable {
    /// The database was written by a newer Scrollwork: it holds schema versions this build does not
    /// know. The store refuses to open it rather than write rows the newer schema would misread.
    case newerSchema(unknownVersions: [String])
    /// A feed with this URL is already stored.
    case duplicateFeed(URL)
    /// No feed has this identifier, for instance because it was removed meanwhile.
    case unknownFeed(StoredFeed.ID)
    /// The database was opened read-only, and was written by an older Scrollwork: only a
    /// writer can bring it up to date.
    case readOnlyNeedsUpgrade
    /// SQLite failed: the file is unreadable, locked, full or corrupt. `message` is SQLite's.
    case database(message: String)
}

extension FeedStoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .newerSchema(let versions):
            "the database was written by a newer Scrollwork (schema \(versions.joined(separator: ", "))); update Scrollwork to open it"
        case .duplicateFeed(let url): "already subscribed to \(url.absoluteString)"
        case .unknownFeed(let id): "no feed with id \(id)"
        case .readOnlyNeedsUpgrade: "the database is read-only and was written by an older Scrollwork; open it once where it can be written to update it"
        case .database(let message): "database error: \(message)"
        }
    }
}
