import Foundation

/// The tests' time limits are guards against a hang, not measures of speed. Under a sanitizer
/// (`Scripts/sanitize.sh`), which runs the code several times slower, they allow that much
/// more: `.timeLimit(.minutes(2 * HangGuard.scale))`.
public enum HangGuard {
    /// 1, or 5 under a sanitizer.
    public static let scale = ProcessInfo.processInfo.environment["SCROLLWORK_SANITIZE"] == nil ? 1 : 5
}
