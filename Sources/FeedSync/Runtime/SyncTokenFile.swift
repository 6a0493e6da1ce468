import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file that keeps an account's session token, which only its user can read (mode 0600
/// from the moment it exists: it is created so, never changed to it after).
///
/// The token is what a login returns; keeping it spares a login (and the password) on every
/// sync. A refused token is forgotten and a new one kept after one fresh login.
public struct SyncTokenFile: Sendable, Hashable {
    /// Where the token is kept.
    public let url: URL

    /// The token file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The token kept, or `nil` when there is none (or it cannot be read: a login makes one).
    public func load() -> SyncSecret? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : SyncSecret(token)
    }

    /// Keeps `token`, or removes the file when it is `nil`. The token is written to a new file
    /// made with mode 0600 beside the old one, then renamed over it.
    public func save(_ token: SyncSecret?) throws(SyncAccountError) {
        guard let token else {
            if unlink(url.path) != 0, errno != ENOENT {
                throw SyncAccountError(description: "cannot remove the session token \(url.path): \(String(cString: strerror(errno)))")
            }
            return
        }
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SyncAccountError(description: "cannot write the session token \(url.path): \(String(cString: strerror(errno)))")
        }
        // A file left by an earlier process may have had other modes.
        _ = fchmod(descriptor, 0o600)
        let bytes = Array((token.revealed + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw SyncAccountError(description: "cannot write the session token \(url.path)")
        }
    }
}
