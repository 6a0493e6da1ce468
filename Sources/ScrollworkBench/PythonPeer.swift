import Foundation

/// The tools users pick instead of Scrollwork, timed in a `python3` of the user's on the same
/// files in the same run: Pillow's thumbnails for `bench decode --pillow`, feedparser-rs's
/// parse for `bench feed --feedparser-rs`. Each times itself inside Python (one untimed run,
/// then the median), so the interpreter's start-up is not counted against it.
enum PythonPeer {
    /// Why a peer could not be timed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The median milliseconds of Pillow making the thumbnail of `file`, `size` pixels on its
    /// larger side, as a Pillow user writes it: read the file, open it, `thumbnail` it (JPEG
    /// scaled in the decoder by `draft`, the rest reduced and resampled).
    static func pillowThumbnail(file: String, size: Int, runs: Int) throws(Failure) -> Double {
        try medianMilliseconds(
            package: "PIL", install: "pillow", arguments: [file, String(size), String(runs)],
            setUp: "from PIL import Image\nimport io\nsize = int(sys.argv[2])",
            work: """
                with open(path, "rb") as file:
                    data = file.read()
                image = Image.open(io.BytesIO(data))
                image.thumbnail((size, size))
                """)
    }

    /// The median milliseconds of feedparser-rs parsing the bytes of `file`, already in
    /// memory as ours are, in its default mode (HTML sanitised, relative links resolved), every
    /// entry counted.
    static func feedparserRS(file: String, runs: Int) throws(Failure) -> Double {
        try medianMilliseconds(
            package: "feedparser_rs", install: "feedparser-rs", arguments: [file, "0", String(runs)],
            setUp: "import feedparser_rs\nwith open(path, \"rb\") as file:\n    data = file.read()",
            work: "entries = len(feedparser_rs.parse(data).entries)")
    }

    /// Runs `setUp`, then `work` once, then `runs` times timed (the third argument), and
    /// returns the median; both see `path`, the first argument.
    private static func medianMilliseconds(
        package: String, install: String, arguments: [String], setUp: String, work: String
    ) throws(Failure) -> Double {
        let body = work.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let script = """
            import sys, time
            path, runs = sys.argv[1], int(sys.argv[3])
            \(setUp)
            def work():
            \(body)
            work()
            samples = []
            for _ in range(runs):
                start = time.perf_counter()
                work()
                samples.append((time.perf_counter() - start) * 1000)
            samples.sort()
            middle = len(samples) // 2
            print(samples[middle] if len(samples) % 2 else (samples[middle - 1] + samples[middle]) / 2)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw Failure(description: "timing \(install) needs python3: \(error)") }
        // Read before waiting, so that a full pipe cannot stall the child.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, let milliseconds = Double(text) else {
            let reason = String(decoding: complaint, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)"
            let hint = reason.contains("No module named '\(package)'") ? " (pip install \(install))" : ""
            throw Failure(description: "\(install) failed: \(reason)\(hint)")
        }
        return milliseconds
    }

    /// A new directory for generated cases' files, for a peer to read.
    static func scratchDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }
}
