import Dispatch
import Foundation

/// The one reader of `file:` URLs: a file read in pieces on a queue of its own, so that a feed
/// file streams into its parser like a network body (memory holds one piece) and the blocking
/// calls never sit on the cooperative thread pool. ``read(_:limit:)`` collects a whole file
/// (an image) the same way.
final class FileReader: Sendable {
    /// The size of one piece: what a network read delivers, give or take.
    static let chunkSize = 64 << 10

    /// One queue for all file reads: they are short, and serial reads suit a disk.
    private static let queue = DispatchQueue(label: "Scrollwork.HTTPLoading.files", qos: .utility)

    private let handle: FileHandle
    let path: String

    /// Opens `path` for reading.
    ///
    /// - Throws: ``HTTPLoadingError/fileUnreadable(_:)`` when it cannot be opened.
    init(path: String) throws(HTTPLoadingError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .fileUnreadable(path) }
        self.handle = handle
        self.path = path
    }

    deinit {
        try? handle.close()
    }

    /// The next piece, or `nil` at the end of the file.
    ///
    /// - Throws: ``HTTPLoadingError/fileUnreadable(_:)`` on a read error,
    ///   ``HTTPLoadingError/cancelled`` if the task was cancelled meanwhile.
    func next() async throws(HTTPLoadingError) -> [UInt8]? {
        let result: Result<[UInt8]?, HTTPLoadingError> = await withCheckedContinuation { continuation in
            Self.queue.async { [handle, path] in
                do {
                    let data = try handle.read(upToCount: Self.chunkSize) ?? Data()
                    continuation.resume(returning: .success(data.isEmpty ? nil : [UInt8](data)))
                } catch {
                    continuation.resume(returning: .failure(.fileUnreadable(path)))
                }
            }
        }
        if Task.isCancelled { throw .cancelled }
        return try result.get()
    }

    /// The bytes of the file at `url`.
    ///
    /// - Throws: ``HTTPLoadingError/fileUnreadable(_:)``, ``HTTPLoadingError/bodyTooLarge(limit:)``
    ///   past `limit`, or ``HTTPLoadingError/cancelled`` if the task was cancelled meanwhile.
    static func read(_ url: URL, limit: Int) async throws(HTTPLoadingError) -> [UInt8] {
        try await HTTPBody(source: .file(FileReader(path: url.path)), limit: limit).collect()
    }
}
