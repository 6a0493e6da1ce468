#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes with the system's reason when they fail.
package enum FileBytes {
    /// A failed read or write: the path and the system's explanation (`strerror`).
    package struct Failure: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        /// The size of a file over the limit, or nil if its size is unknown (a pipe that went
        /// on past it); only for a failure because of the limit.
        package var tooLarge: (size: Int?, limit: Int)?

        package var description: String { "\(path): \(reason)" }
    }

    /// The contents of the file at `path`, refused once they pass `limit` bytes: a regular
    /// file by its size before anything is read, anything else (a pipe, a device) as soon as
    /// more than `limit` bytes have arrived. So what a read costs is bounded by the limit, not
    /// by what the file holds.
    package static func read(_ path: String, limit: Int = Int.max) throws(Failure) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw Failure(path: path, reason: systemReason()) }
        defer { fclose(file) }
        // A regular file is read straight into one array of its size (and a byte more, to see
        // the end), with no copy through a buffer; anything else, or a file that grows, in steps.
        var status = stat()
        let known = fstat(fileno(file), &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        if let known, known > limit { throw tooLarge(path, size: known, limit: limit) }
        // (A size of zero may be a /proc file whose size is unknown.)
        let step = min(known.flatMap { $0 > 0 ? $0 + 1 : nil } ?? 1 << 16, limit < Int.max ? limit + 1 : Int.max)
        var bytes: [UInt8] = []
        while true {
            let room = min(step, limit < Int.max ? limit + 1 - bytes.count : Int.max)
            let chunk = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                count = fread(buffer.baseAddress, 1, buffer.count, file)
            }
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            if bytes.count > limit { throw tooLarge(path, size: nil, limit: limit) }
            if chunk.count < room { break }
        }
        guard ferror(file) == 0 else { throw Failure(path: path, reason: systemReason()) }
        return bytes
    }

    private static func tooLarge(_ path: String, size: Int?, limit: Int) -> Failure {
        let found = size.map { "is \($0) bytes" } ?? "goes on past \(limit) bytes"
        return Failure(path: path, reason: "the file \(found), over the limit of \(limit) bytes", tooLarge: (size, limit))
    }

    /// Replaces the file at `path` with `bytes`.
    package static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
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
