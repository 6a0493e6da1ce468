import Foundation

/// Pillow's thumbnails, timed in a `python3` of the user's, for `bench decode --pillow`: the
/// most common way to make a thumbnail outside a browser, on the same files in the same run.
enum PillowThumbnails {
    /// Why Pillow could not be timed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a Pillow user writes: read the file, open it, `thumbnail` it (JPEG scaled in the
    /// decoder by `draft`, the rest reduced and resampled). One untimed run, then the median.
    static let script = """
        import io, sys, time
        from PIL import Image
        path, size, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        def thumbnail():
            with open(path, "rb") as file:
                data = file.read()
            image = Image.open(io.BytesIO(data))
            image.thumbnail((size, size))
            return image
        thumbnail()
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            thumbnail()
            samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        middle = len(samples) // 2
        print(samples[middle] if len(samples) % 2 else (samples[middle - 1] + samples[middle]) / 2)
        """

    /// The median milliseconds of Pillow making the thumbnail of `file`, `size` pixels on its
    /// larger side, over `runs` runs in one process.
    static func medianMilliseconds(file: String, size: Int, runs: Int) throws(Failure) -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, file, String(size), String(runs)]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw Failure(description: "--pillow needs python3: \(error)") }
        // Read before waiting, so that a full pipe cannot stall the child.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, let milliseconds = Double(text) else {
            let reason = String(decoding: complaint, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)"
            let hint = reason.contains("No module named 'PIL'") ? " (pip install pillow)" : ""
            throw Failure(description: "Pillow failed: \(reason)\(hint)")
        }
        return milliseconds
    }

    /// A new directory for the generated cases' files, for Pillow to read.
    static func scratchDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-decode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }
}
