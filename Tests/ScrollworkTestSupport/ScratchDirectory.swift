import Foundation

/// A directory of its own under the system's temporary folder, removed with everything in it
/// when the value is released: hold one in a test suite's property, and every file a test
/// makes there is gone when the test ends.
public final class ScratchDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory, named after `prefix` and a fresh UUID.
    public init(_ prefix: String = "scrollwork-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory.
    public func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Writes `text` as UTF-8 to a new file named `name` (a fresh one when `nil`) and returns it.
    @discardableResult
    public func file(_ text: String, named name: String? = nil, suffix: String = "txt") throws -> URL {
        let file = path(name ?? "\(UUID().uuidString).\(suffix)")
        try Data(text.utf8).write(to: file)
        return file
    }
}
