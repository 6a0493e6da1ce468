import Foundation
import StableHashing

/// A cache of loaded data on disk, for data keys such as URLs.
public protocol DataCaching<Key>: Sendable {
    associatedtype Key: Hashable & Sendable

    /// The data stored for `key`, if it is there and intact.
    func data(for key: Key) -> [UInt8]?
    /// Stores `data` for `key`, replacing what was there.
    func store(_ data: [UInt8], for key: Key)
    /// Removes the data for `key`, if any.
    func removeData(for key: Key)
    /// Removes everything.
    func removeAll()
}

/// A directory of cached data, bounded in bytes, evicting the least recently used entries.
///
/// - **Names**: an entry's file name is a 128-bit hash of its key in hex; nothing of the key
///   ever reaches the file system as a path. The key is stored inside the file and compared on
///   read, so a hash collision is a miss, never the wrong data.
/// - **Atomic writes**: data is written to a temporary file in the same directory, then
///   renamed over the entry, so a reader (or a process killed mid-write) never sees half an
///   entry. Leftover temporary files are deleted at the cache's first use.
/// - **Cheap to open**: making a cache touches nothing on disk. The directory is read (its
///   leftovers deleted, its size totalled, swept if over the limit) at the first use, on the
///   caller's thread, and created at the first write: an app opens its cache as it starts, on
///   the main thread, and a cache of a thousand pictures took a tenth of a second to read.
/// - **Checked reads**: every entry carries its length and a checksum; a truncated or corrupted
///   file is deleted and reported as a miss, never served.
/// - **Bounded size**: when a write takes the total past ``Configuration/sizeLimit``, and at
///   the first use, the least recently used entries (by file modification time, which reads
///   refresh) are deleted until the total is at most ``Configuration/trimRatio`` of the limit.
/// - **Recovery**: if the directory disappears while the app runs, the next write creates it
///   again.
///
/// Every call does blocking file I/O: call it off the main actor and off the cooperative
/// thread pool (the pipeline uses a serial dispatch queue). Calls are serialized by a lock.
public final class DiskCache<Key: Hashable & Sendable & CustomStringConvertible>: DataCaching, @unchecked Sendable {
    /// How much the cache keeps.
    public struct Configuration: Sendable {
        /// The most bytes the entries may take; 150 MiB by default.
        public var sizeLimit: Int
        /// After a sweep the cache holds at most this fraction of the limit (0.7 by default),
        /// so that a full cache does not sweep on every write.
        public var trimRatio: Double

        /// Creates a configuration.
        public init(sizeLimit: Int = 150 << 20, trimRatio: Double = 0.7) {
            precondition(sizeLimit > 0 && trimRatio > 0 && trimRatio <= 1, "invalid disk cache configuration")
            self.sizeLimit = sizeLimit
            self.trimRatio = trimRatio
        }
    }

    /// The directory holding the entries.
    public let directory: URL
    /// The limits.
    public let configuration: Configuration

    private let lock = NSLock()
    private var totalSize = 0
    /// Whether the directory has been read: leftovers deleted, size totalled.
    private var isRead = false
    private let fileManager = FileManager()
    private let now: @Sendable () -> Date

    /// Opens a cache in `directory`, which the first write creates if needed. Its first use
    /// deletes leftover temporary files and sweeps if the directory holds more than the limit;
    /// a directory that cannot be created or read is a cache that keeps nothing.
    ///
    /// - Complexity: O(1): the directory is read at the first use, in O(n) for n files.
    /// - Parameter now: the time that reads and writes stamp on entries, for eviction order;
    ///   tests inject a clock that ticks exactly.
    public init(
        directory: URL, configuration: Configuration = Configuration(), now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.directory = directory
        self.configuration = configuration
        self.now = now
    }

    /// Reads the directory once, at the first use: deletes leftover temporary files, totals the
    /// entries' size and sweeps past the limit. Call with the lock held.
    private func readDirectoryOnce() {
        guard !isRead else { return }
        isRead = true
        let files = entries(includingTemporary: true)
        for file in files where file.isTemporary {
            try? fileManager.removeItem(at: file.url)
        }
        totalSize = files.reduce(0) { $0 + ($1.isTemporary ? 0 : $1.size) }
        if totalSize > configuration.sizeLimit { sweep() }
    }

    /// The bytes the entries take now.
    public var size: Int {
        lock.withLock {
            readDirectoryOnce()
            return totalSize
        }
    }

    public func data(for key: Key) -> [UInt8]? {
        lock.withLock {
            readDirectoryOnce()
            let url = fileURL(for: key)
            guard let contents = fileManager.contents(atPath: url.path) else { return nil }
            guard let payload = EntryFormat.payload(of: [UInt8](contents), key: Array(key.description.utf8)) else {
                // Truncated, corrupted, or another key with the same hash: never served.
                if (try? fileManager.removeItem(at: url)) != nil { totalSize -= contents.count }
                return nil
            }
            touch(url)
            return payload
        }
    }

    public func store(_ data: [UInt8], for key: Key) {
        lock.withLock {
            readDirectoryOnce()
            let url = fileURL(for: key)
            let entry = EntryFormat.encode(payload: data, key: Array(key.description.utf8))
            let previous = Self.status(of: url.path)?.size ?? 0
            guard write(entry, to: url) else { return }
            touch(url)
            totalSize += entry.count - previous
            if totalSize > configuration.sizeLimit { sweep() }
        }
    }

    public func removeData(for key: Key) {
        lock.withLock {
            readDirectoryOnce()
            let url = fileURL(for: key)
            let size = Self.status(of: url.path)?.size ?? 0
            if (try? fileManager.removeItem(at: url)) != nil { totalSize -= size }
        }
    }

    public func removeAll() {
        lock.withLock {
            for file in entries(includingTemporary: true) { try? fileManager.removeItem(at: file.url) }
            totalSize = 0
            isRead = true
        }
    }

    // MARK: - Files

    private struct File {
        let url: URL
        let size: Int
        let modified: Date
        let isTemporary: Bool
    }

    private static var temporaryPrefix: String { "tmp-" }

    private func fileURL(for key: Key) -> URL {
        directory.appendingPathComponent(StableHash.hex128(Array(key.description.utf8)))
    }

    /// Marks an entry as just used: eviction goes by modification time.
    private func touch(_ url: URL) {
        try? fileManager.setAttributes([.modificationDate: now()], ofItemAtPath: url.path)
    }

    /// Writes through a temporary file and a rename; creates a missing directory (not made yet,
    /// or vanished) once.
    private func write(_ bytes: [UInt8], to url: URL) -> Bool {
        for attempt in 0..<2 {
            let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
            if fileManager.createFile(atPath: temporary.path, contents: Data(bytes)) {
                if rename(temporary.path, url.path) == 0 { return true }
                try? fileManager.removeItem(at: temporary)
            }
            guard attempt == 0, !fileManager.fileExists(atPath: directory.path) else { return false }
            guard (try? fileManager.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else { return false }
            totalSize = 0
        }
        return false
    }

    /// The regular files of the directory. Each is read with one `lstat`: Foundation's
    /// resource values look the owner's and group's names up as well (the user and group
    /// databases read again for every file), a tenth of a millisecond a file on Linux.
    private func entries(includingTemporary: Bool = false) -> [File] {
        let names = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name in
            let isTemporary = name.hasPrefix(Self.temporaryPrefix)
            guard includingTemporary || !isTemporary else { return nil }
            let url = directory.appendingPathComponent(name)
            guard let status = Self.status(of: url.path), status.isRegularFile else { return nil }
            return File(url: url, size: status.size, modified: status.modified, isTemporary: isTemporary)
        }
    }

    /// What `lstat` says of the file at `path`: nil when there is none.
    private static func status(of path: String) -> (size: Int, modified: Date, isRegularFile: Bool)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return (Int(status.st_size), Date(timeIntervalSince1970: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9),
                status.st_mode & S_IFMT == S_IFREG)
    }

    /// Deletes least recently used entries down to the trim target.
    private func sweep() {
        let target = Int(Double(configuration.sizeLimit) * configuration.trimRatio)
        let files = entries().sorted { $0.modified < $1.modified }
        totalSize = files.reduce(0) { $0 + $1.size }
        for file in files where totalSize > target {
            if (try? fileManager.removeItem(at: file.url)) != nil { totalSize -= file.size }
        }
    }
}

/// The layout of one entry file: a header that makes truncation and corruption detectable,
/// the key, then the payload.
///
/// `SWDC` magic, format version (1 byte), key length (UInt32 LE), payload length (UInt64 LE),
/// payload checksum (FNV-1a 64, UInt64 LE), key bytes, payload bytes.
enum EntryFormat {
    private static let magic: [UInt8] = Array("SWDC".utf8)
    private static let version: UInt8 = 1
    static let headerSize = 4 + 1 + 4 + 8 + 8

    static func encode(payload: [UInt8], key: [UInt8]) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(headerSize + key.count + payload.count)
        bytes.append(version)
        append(UInt64(key.count), bytes: 4, to: &bytes)
        append(UInt64(payload.count), bytes: 8, to: &bytes)
        append(StableHash.fnv1a64(payload), bytes: 8, to: &bytes)
        bytes += key
        bytes += payload
        return bytes
    }

    /// The payload of an intact entry for `key`, or nil.
    static func payload(of bytes: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        let keyLength = Int(read(bytes, at: 5, count: 4))
        let payloadLength = read(bytes, at: 9, count: 8)
        let checksum = read(bytes, at: 17, count: 8)
        guard keyLength == key.count, payloadLength == UInt64(bytes.count - headerSize - keyLength) else { return nil }
        guard bytes[headerSize..<(headerSize + keyLength)].elementsEqual(key) else { return nil }
        let payload = Array(bytes[(headerSize + keyLength)...])
        return StableHash.fnv1a64(payload) == checksum ? payload : nil
    }

    private static func append(_ value: UInt64, bytes count: Int, to bytes: inout [UInt8]) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        (0..<count).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
