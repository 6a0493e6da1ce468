import Foundation

/// The outcome of opening a feed: nothing new, or its response and a body still arriving.
public enum FeedOpening: Sendable {
    /// The feed has not changed since the validators were given (HTTP 304).
    case notModified(permanentRedirect: URL?)
    /// The feed's response; read ``FeedBody`` to receive its bytes as they arrive.
    case opened(FeedResponse, FeedBody)
}
