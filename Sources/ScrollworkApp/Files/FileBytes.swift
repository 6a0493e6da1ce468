#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes with the system's reason when they fail.
enum FileBytes {
    /// A failed read or write: the path and the system's explanation (`strerror`).
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String

        var description: String { "\(path): \(reason)" }
    }

    /// The contents of the file at `path`.
    static func read(_ path: String) throws(Failure) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw Failure(path: path, reason: systemReason()) }
        defer { fclose(file) }
        // A regular file is read straight into one array of its size (and a byte more, to see
        // the end), with no copy through a buffer; anything else, or a file that grows, in steps.
        var status = stat()
        let step = fstat(fileno(file), &status) == 0 && status.st_size > 0 ? Int(status.st_size) + 1 : 1 << 16
        var bytes: [UInt8] = []
        while true {
            let chunk = [UInt8](unsafeUninitializedCapacity: step) { buffer, count in
                count = fread(buffer.baseAddress, 1, buffer.count, file)
            }
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            if chunk.count < step { break }
        }
        guard ferror(file) == 0 else { throw Failure(path: path, reason: systemReason()) }
        return bytes
    }

    /// Replaces the file at `path` with `bytes`.
    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        guard let file = fopen(path, "wb") else { throw Failure(path: path, reason: systemReason()) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        // fclose flushes, so a full disk may only show here.
        let closed = fclose(file) == 0
        guard written == bytes.count, closed else { throw Failure(path: path, reason: systemReason()) }
    }

    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}
