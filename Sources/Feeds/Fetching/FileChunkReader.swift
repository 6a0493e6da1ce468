import Dispatch
import Foundation

/// Reads a file in pieces on a queue of its own, so a `file:` feed streams into the parser like
/// a network body: memory holds one piece, and no thread of the cooperative pool waits on
/// the disk.
final class FileChunkReader: Sendable {
    /// The size of one piece: what a network read delivers, give or take.
    static let chunkSize = 64 << 10

    /// One queue for all file reads: they are short, and serial reads suit a disk.
    private static let queue = DispatchQueue(label: "scrollwork.feeds.file-read", qos: .utility)

    private let handle: FileHandle
    let path: String

    /// Opens `path` for reading.
    ///
    /// - Throws: ``FeedFetchError/fileUnreadable(_:)`` when it cannot be opened.
    init(path: String) throws(FeedFetchError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .fileUnreadable(path) }
        self.handle = handle
        self.path = path
    }

    deinit {
        try? handle.close()
    }

    /// The next piece, or `nil` at the end of the file.
    ///
    /// - Throws: ``FeedFetchError/fileUnreadable(_:)`` on a read error.
    func next() async throws(FeedFetchError) -> [UInt8]? {
        let result: Result<[UInt8]?, FeedFetchError> = await withCheckedContinuation { continuation in
            Self.queue.async { [handle, path] in
                do {
                    let data = try handle.read(upToCount: Self.chunkSize) ?? Data()
                    continuation.resume(returning: .success(data.isEmpty ? nil : [UInt8](data)))
                } catch {
                    continuation.resume(returning: .failure(.fileUnreadable(path)))
                }
            }
        }
        return try result.get()
    }
}
