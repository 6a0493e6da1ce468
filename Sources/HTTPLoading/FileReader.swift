import Foundation

/// The one reader of `file:` URLs: whole files up to a limit, read on a queue of their own so
/// that the blocking calls never sit on the cooperative thread pool.
enum FileReader {
    private static let queue = DispatchQueue(label: "Scrollwork.HTTPLoading.files", attributes: .concurrent)

    /// The bytes of the file at `url`.
    ///
    /// - Throws: ``HTTPLoadingError/fileUnreadable(_:)``, ``HTTPLoadingError/bodyTooLarge(limit:)``
    ///   past `limit`, or ``HTTPLoadingError/cancelled`` if the task was cancelled meanwhile.
    static func read(_ url: URL, limit: Int) async throws(HTTPLoadingError) -> [UInt8] {
        let result: Result<[UInt8], HTTPLoadingError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: readNow(url.path, limit: limit)) }
        }
        if Task.isCancelled { throw .cancelled }
        return try result.get()
    }

    private static func readNow(_ path: String, limit: Int) -> Result<[UInt8], HTTPLoadingError> {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(.fileUnreadable(path)) }
        defer { try? handle.close() }
        let data: Data
        do {
            // nil at the end of the file: an empty file.
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            return .failure(.fileUnreadable(path))
        }
        return data.count > limit ? .failure(.bodyTooLarge(limit: limit)) : .success([UInt8](data))
    }
}
